/**
 * Issue 18, item 1, through the built CLI: the ReDoS checker is silent and bounded, and its verdicts are
 * kept on disk (EVALLENS_CACHE_HOME) for later processes without letting a dangerous pattern through.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureBuilt, runCli } from '../support/cli';

let work = '';
const config = (pattern: string) => `dataset: cases.jsonl\nscorers:\n  regex:\n    pattern: '${pattern}'\n`;

before(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-regex-checker-'));
  writeFileSync(join(work, 'cases.jsonl'), '{"id": "a", "output": "aaa"}\n');
  writeFileSync(join(work, 'backreference.eval.yaml'), config('^(a|\\1a)+$'));
  writeFileSync(join(work, 'dangerous.eval.yaml'), config('^(a+)+$'));
});
after(() => rmSync(work, { recursive: true, force: true }));

const validate = (file: string, cache: string) =>
  runCli(['validate', file], { cwd: work, env: { EVALLENS_CACHE_HOME: cache }, limitMs: 30_000 });
const verdictLines = (cache: string) =>
  readFileSync(join(cache, 'regex-verdicts-v1.txt'), 'utf8')
    .split('\n')
    .filter((line) => line !== '');

describe('the ReDoS checker through the CLI', () => {
  it('answers a pattern that crashes the native checker with our own words only: no Java trace', async () => {
    const cache = join(work, 'cache-backreference');
    for (const round of ['cold', 'warm']) {
      const result = await validate('backreference.eval.yaml', cache);
      assert.equal(result.code, 0, `${round}: ${result.stderr}`);
      assert.equal(result.stdout, 'backreference.eval.yaml: valid (1 scorer)\n', round);
      assert.equal(result.stderr, '', `${round}: nothing but our own message (here none)`);
    }
  });

  it('refuses a dangerous pattern cold, warm, and when its kept verdict was tampered with', async () => {
    const cache = join(work, 'cache-dangerous');
    const refused = (stderr: string) =>
      assert.match(stderr, /dangerous\.eval\.yaml:4:14: error: regex: the pattern can backtrack catastrophically/);
    const cold = await validate('dangerous.eval.yaml', cache);
    assert.equal(cold.code, 2);
    refused(cold.stderr);
    const lines = verdictLines(cache);
    assert.equal(lines.length, 1);

    const warm = await validate('dangerous.eval.yaml', cache);
    assert.equal(warm.code, 2);
    refused(warm.stderr);
    assert.equal(verdictLines(cache).length, 1, 'answered from the kept verdict');

    // An edited verdict ("safe") without a matching checksum is ignored: the pattern is checked again.
    const edited = (lines[0] ?? '').replace(/\t\{.*\}\t/, '\t{"status":"safe","proven":true,"complexity":"linear"}\t');
    assert.notEqual(edited, lines[0]);
    writeFileSync(join(cache, 'regex-verdicts-v1.txt'), `${edited}\n`);
    const tampered = await validate('dangerous.eval.yaml', cache);
    assert.equal(tampered.code, 2);
    refused(tampered.stderr);
  });
});
