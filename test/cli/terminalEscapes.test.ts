/**
 * Terminal escapes and bidi controls from a workspace never reach the terminal raw (issue 13, item 7).
 * Seeded generated strings mixing ANSI sequences, C0/C1 controls, bidi and format characters with
 * ordinary Unicode are placed in case ids, scorer names, keys, paths and a config's own file name,
 * and go through the built CLI's run (console, json and jsonl on stdout), report, validate (with and
 * without --cases) and plan; stdout and stderr hold no forbidden character, and the ordinary text
 * around them is still there.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { jsonPrintable } from '../../shared/text/printable';
import { ensureBuilt, runCli, type CliRun } from '../support/cli';

/** Raw characters that must not be printed: C0 but tab and LF, DEL, C1, bidi controls, invisible format characters. */
const FORBIDDEN =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u200b\u200e\u200f\u202a-\u202e\u2028\u2029\u2060-\u2064\u2066-\u206f\ufeff]/u;
const HOSTILE = [
  '\u001b[2J',
  '\u001b]0;pwned\u0007',
  '\u009b31m',
  '\u202e',
  '\u2066',
  '\u200f',
  '\u061c',
  '\b',
  '\r',
  '\u007f',
  '\u0085',
  '\u200b',
  '\ufeff',
  '\u001b[1A',
];
const ORDINARY = ['é', '字', '🙂', 'Ω', 'ok'];
let dir = '';

before(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'evallens-escapes-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function generator(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % n;
  };
}

/** A string with at least one hostile piece and one ordinary word, tagged so each stays distinct. */
function hostileText(next: (n: number) => number, tag: string): { text: string; words: string[] } {
  const words: string[] = [];
  let text = tag;
  for (let i = 0; i < 3 + next(4); i++) {
    text += HOSTILE[next(HOSTILE.length)];
    const word = `${ORDINARY[next(ORDINARY.length)]}${tag}${i}`;
    words.push(word);
    text += word;
  }
  return { text, words };
}

/** A YAML double-quoted scalar: JSON's escapes, with the characters JSON leaves raw escaped too. */
const yamlString = (text: string) => jsonPrintable(JSON.stringify(text));

function assertInert(run: CliRun, where: string, words: readonly string[] = []): void {
  const all = run.stdout + run.stderr;
  const match = FORBIDDEN.exec(all);
  assert.equal(
    match,
    null,
    `${where}: raw U+${(match?.[0].codePointAt(0) ?? 0).toString(16)} printed in:\n${JSON.stringify(all)}`,
  );
  for (const word of words) assert.ok(all.includes(word), `${where}: "${word}" is missing from:\n${all}`);
}

describe('workspace text is printed escaped', () => {
  it('run, report, validate and plan print no raw control, bidi or format character over generated ids, names, keys and paths', async () => {
    const next = generator(13 * 7919);
    const passIds = Array.from({ length: 8 }, (_, i) => hostileText(next, `p${i}_`));
    const failIds = Array.from({ length: 8 }, (_, i) => hostileText(next, `f${i}_`));
    const scorers = Array.from({ length: 3 }, (_, i) => hostileText(next, `n${i}_`));
    const keys = Array.from({ length: 3 }, (_, i) => hostileText(next, `k${i}_`));
    const path = hostileText(next, 'd');
    const file = hostileText(next, 'c');
    const unknownId = hostileText(next, 'u');
    const configName = `${file.text.replace(/\//g, '_')}.eval.yaml`;
    const good = [
      'cases:',
      ...passIds.map((id) => `  - {id: ${yamlString(id.text)}, output: same, expected: same}`),
      ...failIds.map((id) => `  - {id: ${yamlString(id.text)}, output: one, expected: two}`),
      'scorers:',
      ...scorers.flatMap((name) => ['  - type: exact_match', `    name: ${yamlString(name.text)}`]),
      '',
    ].join('\n');
    writeFileSync(join(dir, configName), good);
    const bad = [
      'dataset:',
      `  path: ${yamlString(path.text)}`,
      ...keys.map((key) => `${yamlString(key.text)}: 1`),
      'scorers:',
      '  exact_match: {}',
      '',
    ].join('\n');
    writeFileSync(join(dir, 'bad.eval.yaml'), bad);
    const ids = [...passIds, ...failIds].flatMap((id) => id.words);
    const names = scorers.flatMap((name) => name.words);
    const runs = join(dir, 'runs');
    const cli = (args: readonly string[]) => runCli(args, { cwd: dir });

    const [console, json, jsonl, unknownCase, validate, cases, plan, invalid, usage] = await Promise.all([
      cli(['run', configName, '--runs-dir', runs]),
      cli(['run', configName, '--runs-dir', runs, '--reporter', 'json']),
      cli(['run', configName, '--runs-dir', runs, '--reporter', 'jsonl']),
      cli(['run', configName, '--runs-dir', runs, '--case', unknownId.text]),
      cli(['validate', configName]),
      cli(['validate', configName, '--cases']),
      cli(['plan', configName]),
      cli(['validate', 'bad.eval.yaml']),
      cli(['run', configName, `--${keys[0]?.text ?? ''}`]),
    ]);
    assert.equal(console.code, 1, console.stderr);
    assertInert(console, 'run (console)', [...ids, ...names]);
    assertInert(json, 'run --reporter json', [...ids, ...names]);
    assertInert(jsonl, 'run --reporter jsonl', ids);
    assert.equal(unknownCase.code, 2);
    assertInert(unknownCase, 'run --case <unknown>', unknownId.words);
    assertInert(validate, 'validate', file.words);
    assertInert(cases, 'validate --cases', ids);
    assertInert(plan, 'plan', names);
    assert.equal(invalid.code, 2);
    assertInert(
      invalid,
      'validate (bad keys and path)',
      keys.flatMap((key) => key.words),
    );
    assert.equal(usage.code, 2);
    assertInert(usage, 'usage error');
    const runFolder = readdirSync(runs)[0] ?? '';
    assertInert(await cli(['report', join(runs, runFolder)]), 'report', ids);
  });
});
