/**
 * Bad YAML the language server's fuzz test (test/server/fuzz.test.ts) found: each case once threw,
 * hung the server for seconds, or put a position outside its line. Each must now be a problem with a
 * range inside the text, found quickly.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseRunConfig } from '../../../core/config/parseRunConfig';
import { MAX_FLOW_NESTING, tooDeepFlowNesting } from '../../../core/config/flowNesting';
import type { Problem } from '../../../core/problem';

const FILE = '/tmp/fuzz.eval.yaml';
const problemsOf = (text: string): Problem[] => parseRunConfig(text, FILE, {}).problems;

/** Every problem's range lies inside the text, lines counted as editors count them (\n, \r\n, \r). */
function assertInside(text: string, problems: readonly Problem[]): void {
  const lines = text.split(/\r\n|\r|\n/);
  for (const p of problems) {
    for (const at of [p.range.start, p.range.end]) {
      const line = lines[at.line];
      assert.ok(
        line !== undefined && at.column >= 0 && at.column <= line.length,
        `${p.code} at ${at.line}:${at.column} is outside the text: ${p.message}`,
      );
    }
  }
}

describe('YAML the fuzz test found', () => {
  it('reports an alias to no anchor, on the alias, instead of throwing', () => {
    const text = 'dataset: cases.jsonl\nscorers: *nowhere\n';
    const problems = problemsOf(text);
    assert.deepEqual(
      problems.map((p) => [p.code, p.range.start.line, p.range.start.column, p.range.end.column]),
      [['yaml-alias', 1, 9, 17]],
    );
    assert.match(problems[0]?.message ?? '', /\*nowhere names no anchor/);
  });

  it('reports an alias inside the value it names (a cycle), instead of building a circular value', () => {
    for (const text of ['scorers: &a [*a]\n', 'scorers: &a\n  exact_match: *a\n']) {
      const problems = problemsOf(text);
      assert.deepEqual(
        problems.map((p) => p.code),
        ['yaml-alias'],
        text,
      );
      assert.match(problems[0]?.message ?? '', /inside the value it names/);
      assertInside(text, problems);
    }
  });

  it('refuses an alias bomb with one problem, instead of throwing', () => {
    const bomb = [
      'l0: &l0 [lol]',
      ...Array.from({ length: 9 }, (_, n) => `l${n + 1}: &l${n + 1} [${Array(9).fill(`*l${n}`).join(', ')}]`),
      'scorers: *l9',
    ].join('\n');
    const problems = problemsOf(bomb);
    assert.deepEqual(
      problems.map((p) => p.code),
      ['yaml-alias'],
    );
    assert.match(problems[0]?.message ?? '', /aliases expand to too much data/);
    assert.equal(problems[0]?.range.start.line, 1, 'on the first alias');
  });

  it('still reads ordinary anchors and aliases', () => {
    const text =
      'base: &base {threshold: 0.5}\ncases: [{id: a, output: x, expected: x}]\nscorers:\n  exact_match: *base\n';
    assert.deepEqual(
      problemsOf(text).map((p) => p.code),
      ['unknown-key'],
      'only the unknown top-level key `base`',
    );
  });

  it('counts a lone \\r as a line break, as editors do, so a range never runs past its line', () => {
    const text = `scorers:\r  exact_match: {}\rcases: [{id: a}]\rhuge: ${'x'.repeat(50)} x: y\n`;
    const problems = problemsOf(text);
    assert.ok(problems.length > 0);
    assertInside(text, problems);
    const onHuge = problems.find((p) => p.range.start.line === 3);
    assert.ok(onHuge, `expected a problem on line 3, got ${JSON.stringify(problems.map((p) => p.range.start))}`);
  });

  it('refuses flow collections nested past the limit at the bracket, without asking yaml (whose recursion overflowed)', () => {
    const depth = 5000;
    const text = `description: ok\nscorers: ${'{a: '.repeat(depth)}1${'}'.repeat(depth)}\n`;
    const problems = problemsOf(text);
    assert.equal(problems[0]?.code, 'yaml-syntax');
    assert.match(problems[0]?.message ?? '', new RegExp(`more than ${MAX_FLOW_NESTING} levels`));
    assert.deepEqual([problems[0]?.range.start.line, problems[0]?.range.start.column], [1, 9 + 4 * MAX_FLOW_NESTING]);
    assertInside(text, problems);
  });

  it('does not count brackets in comments, quoted or block scalars, or plain scalars, as nesting', () => {
    const brackets = '['.repeat(MAX_FLOW_NESTING + 1);
    const text = `# ${brackets}\na: "${brackets}"\nb: '${brackets}'\nc: x${brackets}\nd: |\n  ${brackets}\ne: [[1], {f: [2]}]\n`;
    assert.equal(tooDeepFlowNesting(text), undefined);
    assert.equal(tooDeepFlowNesting('a: [[[1]]]\n', 2), 5);
  });

  it('refuses a mapping or list used as a key, on the key, instead of letting yaml print it (seconds for a deep one)', () => {
    const flat = problemsOf('? [a]\n: 1\nscorers: {}\n');
    assert.deepEqual(
      flat.map((p) => `${p.range.start.line}:${p.range.start.column} ${p.code}`),
      ['0:2 yaml-complex-key'],
    );
    // The shape the fuzz test made: a block mapping hundreds of levels deep that yaml reads as a key.
    const deep = Array.from({ length: 300 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n');
    const text = `? ${deep.replaceAll('\n', '\n  ')}\n: x\nscorers: {}\n`;
    const found = problemsOf(text);
    assert.ok(
      found.some((p) => p.code === 'yaml-complex-key'),
      JSON.stringify(found.map((p) => p.code)),
    );
  });

  it('keeps yaml from printing warnings to stderr (a collection as a mapping key)', () => {
    const script = `require(${JSON.stringify(join(__dirname, '..', '..', '..', 'core', 'config', 'parseRunConfig.ts'))}).parseRunConfig('? [a]\\n: 1\\nscorers: {}\\n', '/tmp/x.eval.yaml', {})`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stderr, '');
  });
});
