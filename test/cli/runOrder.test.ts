/**
 * A run whose cases finish out of dataset order (concurrency above 1, one case slower than the rest)
 * still reports them in dataset order: report.json, the --out report and the run folder's files list
 * the cases, and the results with them, by dataset index, as the report's schema says. The built CLI
 * runs a subprocess scorer (a real Node process) that holds the first case until every other case has
 * been scored, so the first case finishes last, whatever the machine's speed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureBuilt, runCli } from '../support/cli';

const CASES = 8;
const HOLD = `const fs = require('node:fs');
const input = JSON.parse(fs.readFileSync(0, 'utf8')).input;
const n = Number(input.split('=')[1]);
const scored = () => (fs.existsSync('scored.log') ? fs.readFileSync('scored.log', 'utf8').split('\\n').length - 1 : 0);
const answer = () => {
  if (n !== 0) fs.appendFileSync('scored.log', input + '\\n');
  process.stdout.write(JSON.stringify({ score: 1, passed: true, reason: 'scored' }));
};
if (n !== 0) answer();
else (function wait() { if (scored() >= ${CASES - 1}) answer(); else setTimeout(wait, 20); })();
`;
const CONFIG = `dataset: cases.jsonl
concurrency: 4
scorers:
  contains:
    values: ["n="]
  subprocess:
    cmd: node hold.js
`;

let work = '';
before(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-run-order-'));
  writeFileSync(join(work, 'hold.js'), HOLD);
  writeFileSync(join(work, 'eval.yaml'), CONFIG);
  const lines = Array.from({ length: CASES }, (_, n) =>
    JSON.stringify({ id: `case-${n}`, input: `n=${n}`, output: `n=${n}` }),
  );
  writeFileSync(join(work, 'cases.jsonl'), `${lines.join('\n')}\n`);
});
after(() => rmSync(work, { recursive: true, force: true }));

describe('a run whose cases finish out of order', () => {
  it('reports its cases and their results in dataset order', async () => {
    const run = await runCli(
      ['run', 'eval.yaml', '--no-cache', '--runs-dir', 'runs', '--reporter', 'json', '--out', 'out.json'],
      { cwd: work, limitMs: 120_000 },
    );
    assert.equal(run.code, 0, run.stderr);
    const scored = readFileSync(join(work, 'scored.log'), 'utf8').trim().split('\n');
    assert.equal(scored.length, CASES - 1, 'every other case was scored before the first one');
    const [runId] = readdirSync(join(work, 'runs'));
    const folder = join(work, 'runs', runId ?? '');
    const expected = Array.from({ length: CASES }, (_, n) => `case-${n}`);
    for (const file of [join(folder, 'report.json'), join(work, 'out.json')]) {
      const report = JSON.parse(readFileSync(file, 'utf8')) as {
        cases: { id: string; index: number }[];
        results: { caseId: string; scorer: string }[];
      };
      assert.deepEqual(
        report.cases.map((c) => c.id),
        expected,
        file,
      );
      assert.deepEqual(
        report.cases.map((c) => c.index),
        expected.map((_, n) => n),
      );
      assert.deepEqual(
        report.results.map((r) => r.caseId),
        expected.flatMap((id) => [id, id]),
        file,
      );
    }
    const folderCases = readFileSync(join(folder, 'cases.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: string }).id);
    assert.deepEqual(folderCases, expected);
  });
});
