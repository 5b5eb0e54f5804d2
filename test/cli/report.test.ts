import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import reportSchema from '../../schemas/report.schema.json';
import compareSchema from '../../schemas/compare-report.schema.json';
import { ensureBuilt, ROOT, runCli } from '../support/cli';

const JOB_ID = '5d0c7a8e-3b1f-4c2a-9e6d-7f8a1b2c3d4e';
let work = '';

before(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-report-'));
  cpSync(join(ROOT, 'test', 'fixtures', 'evalbench', 'results'), join(work, 'results'), { recursive: true });
});

after(() => rmSync(work, { recursive: true, force: true }));

function validReport(file: string): Record<string, unknown> {
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  ajv.addSchema(compareSchema); // report.json's `comparison` refers to it
  const value = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  assert.equal(ajv.validate(reportSchema, value), true, JSON.stringify(ajv.errors));
  return value;
}

describe('evallens report on EvalBench results', () => {
  it("prints EvalBench's own summary, the cases and the verdict; names the bad row at file:line:col; exit 1", async () => {
    const run = await runCli(['report', `results/${JOB_ID}`, '--runs-dir', 'runs-a'], { cwd: work });
    assert.equal(run.code, 1, run.stderr);
    assert.match(
      run.stdout,
      /^EvalBench results: results\/5d0c7a8e-3b1f-4c2a-9e6d-7f8a1b2c3d4e \(read, not re-scored/m,
    );
    assert.match(run.stdout, /^ {2}exact_match: 3\/3 = 100%$/m);
    assert.match(run.stdout, /^ {2}set_match: 4\/3 = 133\.33%$/m);
    assert.match(run.stdout, /^ {2}executable: 4\/6 = 66\.67%$/m);
    assert.match(run.stdout, /^PASS 1 \(0ms\) \[2\/2 trials passed\]$/m);
    assert.match(run.stdout, /^FAIL 2 \(0ms\) \[0\/2 trials passed\]$/m);
    // Scores 100,100 | 0,0 | 100 over 3 cases: mean 60, clustered SE² = 1.5 · (80² + 120² + 40²) / 5² = 1344,
    // t(0.975, 2) · √1344 = 157.738; Wilson of 3 of 5 is [23.1%, 88.2%]. Fewer than 10 cases: too wide.
    assert.match(
      run.stdout,
      // The t interval, 60 ± 157.738 over 3 cases, is clipped to the 0–100 scale (docs/statistics.md).
      /^exact_match +60% \[23\.1%, 88\.2%\] +60 \[0, 100\] +interval too wide to mean anything \(3 cases, fewer than 10\)$/m,
    );
    assert.match(run.stdout, /^FAILED$/m);
    assert.match(
      run.stderr,
      /^results\/5d0c7a8e-3b1f-4c2a-9e6d-7f8a1b2c3d4e\/scores\.csv:16:26: error: expected 10 cells, as the header has, but the row has 5 \[evalbench-results\]$/m,
    );
    assert.doesNotMatch(run.stdout + run.stderr, /hunter2|AIzaSy|at .*\.js:\d+/);
    // The report lands in the runs folder, where the results view finds runs.
    const runs = readdirSync(join(work, 'runs-a'));
    assert.equal(runs.length, 1);
    const report = validReport(join(work, 'runs-a', runs[0] ?? '', 'report.json'));
    assert.equal((report['imported'] as { format: string }).format, 'evalbench-csv');
    assert.doesNotMatch(JSON.stringify(report), /hunter2|AIzaSy/);
  });

  it('writes the json, junit and csv reporters, and --report-file instead of the runs folder', async () => {
    const run = await runCli(
      [
        'report',
        `results/${JOB_ID}/scores.csv`,
        '--report-file',
        'out/report.json',
        '--reporter',
        'json',
        '--out',
        'out/copy.json',
        '--reporter',
        'junit',
        '--out',
        'out/junit.xml',
        '--reporter',
        'csv',
        '--out',
        'out/results.csv',
      ],
      { cwd: work },
    );
    assert.equal(run.code, 1, run.stderr);
    assert.equal(existsSync(join(work, '.evallens')), false);
    const report = validReport(join(work, 'out', 'report.json'));
    assert.deepEqual(validReport(join(work, 'out', 'copy.json')), report);
    assert.deepEqual(report['summary'], { passed: 2, failed: 1, errored: 0, skipped: 0, total: 3 });
    assert.match(readFileSync(join(work, 'out', 'junit.xml'), 'utf8'), /<testcase [^>]*name="2"[^>]*>\s*<failure/);
    assert.match(readFileSync(join(work, 'out', 'results.csv'), 'utf8'), /exact_match/);
  });

  it('reads a folder of jobs and exits 0 only when every result passed', async () => {
    const all = await runCli(['report', 'results', '--report-file', 'all.json'], { cwd: work });
    assert.equal(all.code, 1);
    assert.match(
      all.stdout,
      /^job a1b2c3d4-0000-4e5f-8a9b-0c1d2e3f4a5b \(run 2026-06-21 09:15:00\.000001\): EvalBench's own summary\.csv:$/m,
    );
    assert.match(all.stdout, /^ERROR a1b2c3d4-0000-4e5f-8a9b-0c1d2e3f4a5b\/7 /m);

    const passing = join(work, 'passing', 'job-1');
    cpSync(join(work, 'results', JOB_ID), passing, { recursive: true });
    const scores = readFileSync(join(passing, 'scores.csv'), 'utf8').split('\n');
    writeFileSync(
      join(passing, 'scores.csv'),
      `${[scores[0], ...scores.filter((l) => l.startsWith('exact_match,100,') || l.startsWith('set_match,100,,,1_'))].join('\n')}\n`,
    );
    const green = await runCli(['report', 'passing', '--report-file', 'green.json'], { cwd: work });
    assert.equal(green.code, 0, green.stdout + green.stderr);
    assert.match(green.stdout, /^PASSED$/m);
  });

  it('`evallens run` on EvalBench results shows them as report does, saying so', async () => {
    const run = await runCli(['run', `results/${JOB_ID}`, '--runs-dir', 'runs-run'], { cwd: work });
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /holds EvalBench's results, not a run config: showing them as `evallens report` does/);
    assert.match(run.stdout, /^FAIL 2 /m);
    assert.equal(readdirSync(join(work, 'runs-run')).length, 1);
  });

  it('shows an EvalLens report.json or run folder again with the same verdict', async () => {
    await runCli(['report', `results/${JOB_ID}`, '--report-file', 'again/report.json'], { cwd: work });
    const fromFile = await runCli(['report', 'again/report.json'], { cwd: work });
    assert.equal(fromFile.code, 1, fromFile.stderr);
    assert.match(fromFile.stdout, /^FAIL 2 /m);
    const fromFolder = await runCli(['report', 'again'], { cwd: work });
    assert.equal(fromFolder.code, 1);
    assert.match(fromFolder.stdout, /^FAILED$/m);
  });

  it('refuses what is not a results folder with file:line:col and exit 2, and --help says what it accepts', async () => {
    const none = await runCli(['report', 'nowhere'], { cwd: work });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /nowhere:1:1: expected a results folder or a report\.json, but it does not exist/);
    writeFileSync(join(work, 'notes.txt'), 'hello');
    const other = await runCli(['report', '.'], { cwd: join(work, 'out') });
    assert.equal(other.code, 1, 'out/ holds report.json: it is shown as an EvalLens run folder');
    const text = await runCli(['report', 'notes.txt'], { cwd: work });
    assert.equal(text.code, 2);
    assert.match(
      text.stderr,
      /notes\.txt:1:1: expected an EvalBench results folder \(a <job_id>\/ folder with scores\.csv or evals\.csv/,
    );
    writeFileSync(join(work, 'bad.json'), '{"version": 1}');
    const bad = await runCli(['report', 'bad.json'], { cwd: work });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /bad\.json:1:1: expected an EvalLens report \(schemas\/report\.schema\.json\)/);
    const help = await runCli(['report', '--help'], { cwd: work });
    assert.match(help.stdout, /^Usage: evallens report <results folder \| report\.json>/);
    assert.match(help.stdout, /EvalBench results folder/);
    const runOption = await runCli(['report', 'results', '--trials', '3'], { cwd: work });
    assert.equal(runOption.code, 2);
    assert.match(runOption.stderr, /--trials is for running an eval; `evallens report` shows results already made/);
    const missing = await runCli(['report'], { cwd: work });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /`evallens report` needs the path of a results folder/);
  });
});
