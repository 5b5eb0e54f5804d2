/**
 * A run scored on worker threads (cli/runParallel.ts, cli/runWorkers.ts, cli/runWorker.ts) gives the
 * same run folder and report as the same run on one thread, byte for byte but for timings; a run
 * cancelled while its threads score leaves a folder `--resume` finishes into that same report.
 * EVALLENS_RUN_THREADS says how many threads (0: none), whatever the dataset's size.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureBuilt, finished, runCli, startCli } from '../support/cli';
import { waitFor } from '../support/waitFor';

let work = '';

const CONFIG = `dataset: cases.jsonl
scorers:
  exact_match: {}
  contains:
    value: refund
  regex:
    pattern: 'day[s]?'
  json_schema:
    parse_output: true
    schema: {type: object, required: [answer]}
  edit_similarity:
    threshold: 0.8
`;

/** Every kind of record: passing, failing, scorer errors, lines that are not JSON, duplicate ids, a secret to mask. */
function record(i: number): string {
  switch (i % 8) {
    case 0:
      return JSON.stringify({
        id: `c${i}`,
        output: '{"answer":"refund in 30 days"}',
        expected: '{"answer":"refund in 30 days"}',
      });
    case 1:
      return JSON.stringify({ id: `c${i}`, output: `no refund ${i}`, expected: `a refund ${i}` });
    case 2:
      return JSON.stringify({ id: `c${i}`, output: 'only an output' });
    case 3:
      return '{not json';
    case 4:
      return JSON.stringify({ id: 'c0', output: 'a duplicate id', expected: 'x' });
    case 5:
      return JSON.stringify({ id: `c${i}`, output: { answer: 'structured' }, expected: { answer: 'structured' } });
    case 6:
      return JSON.stringify({ id: `c${i}`, expected: 'no output' });
    default:
      return JSON.stringify({
        id: `c${i}`,
        output: `password=hunter22${i} at https://u:pw@example.com?q=1 refund day`,
        expected: 'x',
      });
  }
}

function writeDataset(file: string, count: number): void {
  writeFileSync(join(work, file), `${Array.from({ length: count }, (_, i) => record(i)).join('\n')}\n`);
}

const TIMING_KEYS = new Set(['durationMs', 'elapsed_ms', 'runId', 'startedAt', 'finishedAt']);
/** A JSON text with every timing left out, parsed and written again: what must not differ between two runs. */
const withoutTimings = (text: string): string =>
  JSON.stringify(JSON.parse(text, (key, value: unknown) => (TIMING_KEYS.has(key) ? undefined : value)));
const linesWithoutTimings = (text: string): string[] => text.split('\n').filter(Boolean).map(withoutTimings);

function runFolder(runsDir: string): string {
  const [id] = readdirSync(join(work, runsDir));
  assert.ok(id !== undefined, `a run in ${runsDir}`);
  return join(work, runsDir, id);
}

const read = (path: string) => readFileSync(path, 'utf8');

function lineCount(path: string): number {
  try {
    return read(path).split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
}

const run = (config: string, runsDir: string, threads: number, extra: readonly string[] = []) =>
  runCli(['run', config, '--runs-dir', runsDir, ...extra], {
    cwd: work,
    env: { EVALLENS_RUN_THREADS: String(threads) },
    limitMs: 240_000,
  });

before(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-threads-'));
  writeFileSync(join(work, 'eval.yaml'), CONFIG);
  writeFileSync(join(work, 'big.eval.yaml'), CONFIG.replace('cases.jsonl', 'big.jsonl'));
  // Several batches (256 cases each), so two threads each score some and their answers are put back in order.
  writeDataset('cases.jsonl', 1500);
  writeDataset('big.jsonl', 20_000);
});

after(() => rmSync(work, { recursive: true, force: true }));

describe('evallens run on scoring threads', () => {
  it('writes the same results, cases and report as one thread, in dataset order', async () => {
    const one = await run('eval.yaml', 'one', 0);
    const two = await run('eval.yaml', 'two', 2);
    assert.equal(one.code, 1, one.stderr);
    assert.equal(two.code, 1, two.stderr);
    assert.equal(two.stderr, one.stderr);
    const [a, b] = [runFolder('one'), runFolder('two')];
    for (const file of ['results.jsonl', 'cases.jsonl'])
      assert.deepEqual(linesWithoutTimings(read(join(b, file))), linesWithoutTimings(read(join(a, file))), file);
    assert.equal(withoutTimings(read(join(b, 'report.json'))), withoutTimings(read(join(a, 'report.json'))));
    // Every kind of result is there: the comparison covers them all.
    const statuses = new Set(read(join(a, 'results.jsonl')).match(/"status":"\w+"/g));
    assert.deepEqual([...statuses].sort(), ['"status":"error"', '"status":"fail"', '"status":"pass"']);
    assert.doesNotMatch(read(join(b, 'results.jsonl')), /hunter22/);
    // The console lists the cases in the same order.
    const caseLines = (stdout: string) => stdout.match(/^(PASS|FAIL|ERROR) \S+/gm) ?? [];
    assert.equal(caseLines(two.stdout).length, 1500);
    assert.deepEqual(caseLines(two.stdout), caseLines(one.stdout));
  });

  it('cancelled while the threads score, leaves a folder that --resume finishes into the same report', async () => {
    const child = startCli(['run', 'big.eval.yaml', '--runs-dir', 'cancelled'], {
      cwd: work,
      env: { EVALLENS_RUN_THREADS: '1' },
    });
    await waitFor(
      () => readdirSync(join(work)).includes('cancelled') && lineCount(join(runFolder('cancelled'), 'cases.jsonl')) > 0,
      'the first finished cases',
      120_000,
    );
    child.kill('SIGINT');
    const stopped = await finished(child, 120_000);
    const folder = runFolder('cancelled');
    const report = JSON.parse(read(join(folder, 'report.json'))) as { cancelled: boolean; summary: { total: number } };
    assert.equal(report.cancelled, true, stopped.stderr);
    assert.ok(report.summary.total < 20_000, `cancelled after ${report.summary.total} cases`);
    // Whole cases only, in dataset order: the first N cases of the dataset.
    const ids = read(join(folder, 'cases.jsonl'))
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { index: number }).index);
    assert.deepEqual(
      ids,
      Array.from({ length: ids.length }, (_, i) => i),
    );

    const resumed = await run('big.eval.yaml', 'cancelled', 1, ['--resume', 'latest']);
    assert.equal(resumed.code, 1, resumed.stderr);
    const whole = await run('big.eval.yaml', 'whole', 0);
    assert.equal(whole.code, 1, whole.stderr);
    assert.equal(
      withoutTimings(read(join(folder, 'report.json'))),
      withoutTimings(read(join(runFolder('whole'), 'report.json'))),
    );
  });
});
