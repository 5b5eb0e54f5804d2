/**
 * What validate, plan and run say (issue 13, items 16 and 18): every error of a config at once, in
 * file order; `validate --cases` positions counted from 1; plan names a scorer once; an unset
 * `${VAR}` in `dataset:` said once; `dataset: .` said to be a folder; a run says where its report is.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureBuilt, ROOT, runCli } from '../support/cli';

let dir = '';
before(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'evallens-validate-truth-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, lines: readonly string[]) => writeFileSync(join(dir, name), `${lines.join('\n')}\n`);

describe('validate, plan and run tell the truth', () => {
  it('report every error of a config at once, sorted by position', async () => {
    write('many.eval.yaml', [
      'cases: [{id: a, output: x, expected: x}]',
      'num_trials: "x"',
      'bogus: 1',
      'scorers:',
      '  exact_match: {threshold: 80, mode: zz}',
      '  regex: {}',
      'timeout_ms: "y"',
      'pass_criteria: {threshold: 9}',
    ]);
    const [validate, run] = await Promise.all([
      runCli(['validate', 'many.eval.yaml'], { cwd: dir }),
      runCli(['run', 'many.eval.yaml', '--runs-dir', 'runs'], { cwd: dir }),
    ]);
    for (const result of [validate, run]) {
      assert.equal(result.code, 2);
      const places = result.stderr
        .trim()
        .split('\n')
        .map((line) => /^many\.eval\.yaml:(\d+):(\d+): error: /.exec(line)?.slice(1, 3).map(Number) ?? line);
      assert.deepEqual(places, [
        [2, 13],
        [3, 1],
        [5, 28],
        [5, 38],
        [6, 3],
        [7, 13],
        [8, 28],
      ]);
    }
  });

  it('validate --cases prints lines and columns counted from 1', async () => {
    write('two.eval.yaml', [
      'scorers: {exact_match: {}}',
      'cases:',
      '  - {id: a, output: x, expected: x}',
      '  - {id: b, output: x, expected: x}',
    ]);
    const listed = await runCli(['validate', 'two.eval.yaml', '--cases'], { cwd: dir });
    assert.equal(listed.code, 0, listed.stderr);
    const list = JSON.parse(listed.stdout) as {
      cases: { id: string; range: { start: { line: number; column: number } } }[];
    };
    assert.deepEqual(
      list.cases.map((c) => [c.id, c.range.start.line, c.range.start.column]),
      [
        ['a', 3, 5],
        ['b', 4, 5],
      ],
    );
  });

  it('plan names a scorer once when its name is its key, and both when they differ', async () => {
    write('plan.eval.yaml', [
      'cases: [{id: a, output: x, expected: x}]',
      'scorers:',
      '  - type: contains',
      '    value: x',
      '  - type: contains',
      '    name: has_y',
      '    value: y',
    ]);
    const plan = await runCli(['plan', 'plan.eval.yaml'], { cwd: dir });
    assert.equal(plan.code, 0, plan.stderr);
    assert.match(plan.stdout, /^ {2}contains: 0 judge calls$/m);
    assert.match(plan.stdout, /^ {2}has_y \(contains\): 0 judge calls$/m);
    assert.doesNotMatch(plan.stdout, /contains \(contains\)/);
  });

  it('an unset ${VAR} in dataset: is said once, without a follow-on missing file', async () => {
    write('unset.eval.yaml', ['dataset: ${EVALLENS_TEST_SURELY_UNSET}/cases.jsonl', 'scorers: {exact_match: {}}']);
    const result = await runCli(['validate', 'unset.eval.yaml'], {
      cwd: dir,
      env: { EVALLENS_TEST_SURELY_UNSET: undefined },
    });
    assert.equal(result.code, 2);
    assert.deepEqual(
      result.stderr
        .trim()
        .split('\n')
        .map((line) => /\[([a-z-]+)\]$/.exec(line)?.[1]),
      ['unresolved-variable'],
    );
  });

  it('dataset: . is said to be a folder, not a file with no extension', async () => {
    write('folder.eval.yaml', ['dataset: .', 'scorers: {exact_match: {}}']);
    const result = await runCli(['validate', 'folder.eval.yaml'], { cwd: dir });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^folder\.eval\.yaml:1:10: error: dataset .* is a folder, not a dataset file/m);
    assert.doesNotMatch(result.stderr, /no extension/);
  });

  it('a run says where its report is', async () => {
    write('ok.eval.yaml', ['cases: [{id: a, output: x, expected: x}]', 'scorers: {exact_match: {}}']);
    const result = await runCli(['run', 'ok.eval.yaml', '--runs-dir', 'runs'], { cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^report: runs\/[^/\n]+\/report\.json$/m);
  });

  it("a persistent subprocess scorer's cases are printed in dataset order, though the first finishes last", async () => {
    const server = join(ROOT, 'test', 'fixtures', 'scorers', 'evalcore_server.mjs');
    const inputs = ['hang', 'ok', 'ok', 'ok'];
    write('persistent.eval.yaml', [
      'scorers:',
      `  subprocess: {cmd: ${JSON.stringify(`node ${server}`)}, mode: persistent, processes: 2, cmd_timeout_ms: 1500}`,
      'cases:',
      ...inputs.map((input, i) => `  - {id: "${input}-${i}", input: "${input}", output: "o"}`),
    ]);
    const result = await runCli(['run', 'persistent.eval.yaml', '--runs-dir', 'runs', '--concurrency', '2'], {
      cwd: dir,
    });
    assert.equal(result.code, 1, result.stderr);
    const printed = result.stdout
      .split('\n')
      .filter((line) => /^(PASS|FAIL|ERROR) /.test(line))
      .map((line) => line.split(' ')[1]);
    assert.deepEqual(printed, ['hang-0', 'ok-1', 'ok-2', 'ok-3']);
  });
});
