/**
 * Positions become 1-based in one place (shared/text/displayPosition.ts). As a rule, not per message:
 * the lint selectors in eslint.config.mjs fire on each way of adding 1 by hand, and a scan of the
 * sources finds no message text that prints `line ${x + 1}` or `column ${x + 1}` (the wording a
 * selector cannot see, whatever the variable is called). A number that is not a text position (a
 * table's column, a header cell's number) says so in a comment on the line before: `not a text position`.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { before, describe, it } from 'node:test';
import { ESLint } from 'eslint';

const ROOT = resolve(__dirname, '..', '..');
const FOLDERS = ['core', 'shared', 'protocol', 'server', 'extension', 'webview', 'cli'];
const THE_ONE_PLACE = 'shared/text/displayPosition.ts';
// Helper "context" (issue 15 session) owns this file; its branch converts its one message.

let eslint: ESLint;

async function positionViolations(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, file) });
  assert.ok(result, `no lint result for ${file}`);
  assert.deepEqual(
    result.messages.filter((m) => m.fatal === true),
    [],
    `${file} did not parse`,
  );
  return result.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(?:ts|mts|cts)$/.test(entry.name)) files.push(relative(ROOT, path).split('\\').join('/'));
    }
  };
  for (const folder of FOLDERS) walk(join(ROOT, folder));
  return files;
}

describe('positions become 1-based only through shared/text/displayPosition.ts', () => {
  before(() => {
    eslint = new ESLint({ cwd: ROOT });
  });

  const byHand: readonly (readonly [string, string])[] = [
    ['a line or column variable', 'export const f = (line: number): string => `line ${line + 1}`;'],
    ["a position's line", 'export const f = (at: { line: number }): number => at.line + 1;'],
    ["a position's column", 'export const f = (at: { column: number }): string => `${at.column + 1}`;'],
    [
      'a column made from an offset',
      'export const f = (offset: number, lineStart: number): number => offset - lineStart + 1;',
    ],
    ['a line counter started at 1', 'export function f(): number {\n  let line = 1;\n  line++;\n  return line;\n}'],
  ];
  for (const folder of FOLDERS) {
    for (const [what, code] of byHand) {
      it(`${folder}/: adding 1 to ${what} by hand is a lint error`, async () => {
        const found = await positionViolations(`${folder}/positionSnippet.ts`, code);
        assert.equal(found.length, 1, `expected one violation, got ${JSON.stringify(found)}`);
        assert.match(found[0] ?? '', /shared\/text\/displayPosition\.ts/);
      });
    }
  }

  it('the same positions shown through displayPosition pass, and so does arithmetic that is not a position', async () => {
    const code = [
      "import { displayLine, displayLineAndColumn, toDisplay } from '../shared/text/displayPosition';",
      'export const a = (line: number): string => `line ${displayLine(line)}`;',
      'export const b = (at: { line: number; column: number }): string => `at ${displayLineAndColumn(at)}`;',
      'export const c = (at: { line: number; column: number }): number => toDisplay(at).column;',
      'export const d = (index: number, keyLine: number): number => index + 1 + keyLine + 1;',
      'export const e = (at: { line: number }): number => at.line + 2;',
    ].join('\n');
    assert.deepEqual(await positionViolations('core/positionSnippet.ts', code), []);
  });

  it('the one place that adds 1 is exempt', async () => {
    assert.deepEqual(
      await positionViolations(THE_ONE_PLACE, 'export const f = (at: { line: number }): number => at.line + 1;'),
      [],
    );
  });

  it('no message in the sources prints `line ${x + 1}`, `column ${x + 1}` or `:${x.line + 1}`', () => {
    const wording = /\b(?:line|column)s? \$\{[^{}]*\+\s*1\s*\}|:\$\{[^{}]*\b(?:line|column)\s*\+\s*1\s*\}/g;
    const found: string[] = [];
    for (const file of sourceFiles()) {
      if (file === THE_ONE_PLACE) continue;
      const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
      lines.forEach((text, i) => {
        if ((lines[i - 1] ?? '').includes('not a text position')) return;
        for (const m of text.matchAll(wording)) found.push(`${file}:${i + 1}: ${m[0]}`);
      });
    }
    assert.deepEqual(
      found,
      [],
      'messages that add 1 to a line or column by hand; use displayLine / displayLineAndColumn / displayLineColumn',
    );
  });

  it('the scan sees the wording it forbids', () => {
    const wording = /\b(?:line|column)s? \$\{[^{}]*\+\s*1\s*\}|:\$\{[^{}]*\b(?:line|column)\s*\+\s*1\s*\}/;
    for (const text of [
      '`the case at line ${earlier + 1} has it`',
      '`(at column ${deep + 1})`',
      '`${file}:${at.start.line + 1}`',
    ])
      assert.match(text, wording);
    for (const text of ['`line ${displayLine(line)}`', '`item ${index + 1}`', '`at character ${at + 1}`'])
      assert.doesNotMatch(text, wording);
  });
});
