/**
 * A merged run folder is a run folder like any other: `compare`, `report` and `run --baseline` read
 * its report.json, and `run --rerun failed --from` reads its cases.jsonl and results.jsonl (the merge
 * writes them by passing the shards' lines through as bytes, cli/merge.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureBuilt, runCli } from '../support/cli';

let work = '';

const run = (args: readonly string[]) => runCli(args, { cwd: work, limitMs: 120_000 });

function onlyRun(runsDir: string): string {
  const runs = readdirSync(join(work, runsDir));
  assert.equal(runs.length, 1, `${runsDir}: ${runs.join(', ')}`);
  return runs[0] ?? '';
}

before(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-merge-folder-'));
  // 12 cases, every third failing `contains`; a non-ASCII id and a bidi character in an output.
  const cases = Array.from({ length: 12 }, (_, i) => ({
    id: i === 5 ? 'cäse-5' : `case-${i}`,
    output: i % 3 === 0 ? `no \u202e match ${i}` : `a refund ${i}`,
  }));
  writeFileSync(join(work, 'cases.jsonl'), cases.map((c) => `${JSON.stringify(c)}\n`).join(''));
  writeFileSync(join(work, 'm.eval.yaml'), 'dataset: cases.jsonl\nscorers:\n  contains: {value: refund}\n');
});

after(() => rmSync(work, { recursive: true, force: true }));

describe('a merged run folder as the input of other commands', () => {
  it('compare, report, run --baseline and run --rerun failed --from take it as they take a run', async () => {
    const whole = await run(['run', 'm.eval.yaml', '--runs-dir', 'whole', '--no-color']);
    assert.equal(whole.code, 1, whole.stderr);
    const shards: string[] = [];
    for (const i of [1, 2, 3]) {
      const shard = await run(['run', 'm.eval.yaml', '--shard', `${i}/3`, '--runs-dir', `shard${i}`, '--no-color']);
      assert.ok(shard.code === 0 || shard.code === 1 || shard.code === 3, shard.stderr);
      shards.push(join(`shard${i}`, onlyRun(`shard${i}`)));
    }
    const merge = await run(['merge', ...shards, '--runs-dir', 'merged', '--no-color']);
    assert.equal(merge.code, 1, merge.stderr);
    const merged = join('merged', onlyRun('merged'));
    const wholeFolder = join('whole', onlyRun('whole'));

    const compare = await run(['compare', wholeFolder, merged, '--reporter', 'json']);
    assert.equal(compare.code, 0, compare.stderr);
    const report = await run(['report', merged, '--no-color']);
    assert.equal(report.code, 1, report.stderr);
    assert.match(report.stdout, /8 passed, 4 failed, 12 total/);
    const baseline = await run(['run', 'm.eval.yaml', '--baseline', merged, '--runs-dir', 'again', '--no-color']);
    assert.ok(baseline.code === 0 || baseline.code === 1, baseline.stderr);
    assert.match(
      baseline.stdout,
      /Cases: 0 regressed, 0 fixed, 8 unchanged pass, 4 unchanged fail, 0 added, 0 removed/,
    );

    const rerun = await run([
      'run',
      'm.eval.yaml',
      '--rerun',
      'failed',
      '--from',
      onlyRun('merged'),
      '--runs-dir',
      'merged',
      '--no-color',
    ]);
    assert.equal(rerun.code, 1, rerun.stderr);
    const rerunId = readdirSync(join(work, 'merged')).find((id) => id !== onlyRunOf(merged));
    assert.ok(rerunId !== undefined);
    const rerunReport = JSON.parse(readFileSync(join(work, 'merged', rerunId, 'report.json'), 'utf8')) as {
      summary: { total: number; failed: number };
      cases: { id: string }[];
    };
    assert.deepEqual([rerunReport.summary.total, rerunReport.summary.failed], [12, 4]);
    assert.equal(rerunReport.cases[5]?.id, 'cäse-5');
  });
});

function onlyRunOf(folder: string): string {
  return folder.split('/').pop() ?? '';
}
