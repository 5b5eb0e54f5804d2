import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import reportSchema from '../../schemas/report.schema.json';
import compareSchema from '../../schemas/compare-report.schema.json';
import { ensureBuilt, finished, ROOT, runCli, startCli } from '../support/cli';
import { waitFor } from '../support/waitFor';

let work = '';

before(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-cli-'));
  cpSync(join(ROOT, 'test', 'fixtures', 'cli'), work, { recursive: true });
  cpSync(join(ROOT, 'examples'), join(work, 'examples'), { recursive: true });
});

after(() => rmSync(work, { recursive: true, force: true }));

/** The size of a file of the one run folder in `runsDir`; 0 while the folder or the file is not there yet. */
function sizeOfRunFile(runsDir: string, name: string): number {
  if (!existsSync(runsDir) || readdirSync(runsDir).length !== 1) return 0;
  const file = join(onlyRun(runsDir), name);
  return existsSync(file) ? statSync(file).size : 0;
}

function onlyRun(runsDir: string): string {
  const runs = readdirSync(runsDir);
  assert.equal(runs.length, 1, `one run folder in ${runsDir}`);
  return join(runsDir, runs[0] ?? '');
}

describe('evallens CLI', () => {
  it('runs the quick-start example: PASS/FAIL per case with reasons, a summary, exit code 1', async () => {
    const run = await runCli(['run', 'examples/quickstart/refunds.eval.yaml', '--runs-dir', 'runs-quickstart'], {
      cwd: work,
    });
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stdout, /^PASS refund-window \(\d+ms\)$/m);
    assert.match(run.stdout, /^FAIL sale-items \(\d+ms\)$/m);
    assert.match(run.stdout, /^ {5}contains: the value is missing from the output/m);
    assert.match(run.stdout, /^3 passed, 1 failed, 4 total$/m);
    assert.match(run.stdout, /^FAILED$/m);
  });

  it('exits 0 when every case passes', async () => {
    const run = await runCli(['run', 'all-pass.eval.yaml', '--runs-dir', 'runs-pass'], { cwd: work });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^2 passed, 0 failed, 2 total$/m);
    assert.match(run.stdout, /^PASSED$/m);
  });

  it('exits 2 for a config error, naming file:line:col and the closest scorer, without a stack trace', async () => {
    const run = await runCli(['run', 'unknown-scorer.eval.yaml'], { cwd: work });
    assert.equal(run.code, 2);
    assert.equal(
      run.stderr.trim(),
      'unknown-scorer.eval.yaml:4:3: error: unknown scorer "exact_matc"; did you mean "exact_match"? [unknown-scorer]',
    );
    assert.doesNotMatch(run.stderr, /\n\s+at /);
  });

  it('exits 2 for a dataset file that does not exist, naming the config line', async () => {
    const run = await runCli(['run', 'missing-dataset-file.eval.yaml'], { cwd: work });
    assert.equal(run.code, 2);
    assert.match(
      run.stderr,
      /^missing-dataset-file\.eval\.yaml:1:10: error: the dataset file .*nowhere\.jsonl does not exist/m,
    );
  });

  it('exits 2 for a dataset that cannot be read at all, pointing at the config line that names it', async () => {
    const run = await runCli(['run', 'undeclared-column.eval.yaml', '--runs-dir', 'runs-undeclared'], { cwd: work });
    assert.equal(run.code, 2);
    assert.match(
      run.stderr,
      /^undeclared-column\.eval\.yaml:2:9: error: columns declares "score", but .* has no such column/m,
    );
  });

  it('exits 2 for usage errors and says what was wrong', async () => {
    const unknownReporter = await runCli(['run', 'all-pass.eval.yaml', '--reporter', 'xml'], { cwd: work });
    assert.equal(unknownReporter.code, 2);
    assert.match(
      unknownReporter.stderr,
      /unknown reporter "xml" \(expected one of console, json, jsonl, junit, csv, evalhub\)/,
    );
    const noConfig = await runCli(['run'], { cwd: work });
    assert.equal(noConfig.code, 2);
    assert.match(noConfig.stderr, /needs the path of a run config/);
    const missingFile = await runCli(['validate', 'nope.eval.yaml'], { cwd: work });
    assert.equal(missingFile.code, 2);
    assert.match(missingFile.stderr, /nope\.eval\.yaml:1:1: error: cannot read the run config: no such file/);
  });

  it('turns a malformed JSONL line into an error result naming file:line:col, and runs the other cases', async () => {
    const run = await runCli(['run', 'malformed-line.eval.yaml', '--runs-dir', 'runs-malformed'], { cwd: work });
    assert.equal(run.code, 1);
    assert.match(run.stdout, /^PASS first/m);
    assert.match(run.stdout, /^ERROR line-2/m);
    assert.match(run.stdout, /^ {5}at malformed-line\.jsonl:2:\d+$/m);
    assert.match(run.stdout, /^FAIL third/m);
    assert.match(run.stdout, /^1 passed, 1 failed, 1 errored, 3 total$/m);
  });

  it('writes a JSON report that the report schema accepts, with --reporter json --out', async () => {
    const run = await runCli(
      [
        'run',
        'examples/quickstart/refunds.eval.yaml',
        '--reporter',
        'json',
        '--out',
        'report.json',
        '--runs-dir',
        'runs-json',
      ],
      { cwd: work },
    );
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stdout, /^FAIL sale-items/m, 'the console reporter stays on beside a file reporter');
    const report = JSON.parse(readFileSync(join(work, 'report.json'), 'utf8')) as {
      results: unknown[];
      summary: unknown;
      job: { test?: { pass: boolean } };
    };
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(compareSchema); // report.json's `comparison` refers to it
    const validate = ajv.compile(reportSchema);
    assert.ok(validate(report), JSON.stringify(validate.errors));
    assert.equal(report.results.length, 12);
    assert.deepEqual(report.summary, { passed: 3, failed: 1, errored: 0, skipped: 0, total: 4 });
    assert.equal(report.job.test?.pass, false);
    const stored = readFileSync(join(onlyRun(join(work, 'runs-json')), 'report.json'), 'utf8');
    assert.deepEqual(JSON.parse(stored), report, 'the run folder keeps the same report');
  });

  it('writes JUnit and CSV files when asked, and keeps stdout for a reporter without --out', async () => {
    const run = await runCli(
      [
        'run',
        'examples/quickstart/refunds.eval.yaml',
        '--reporter',
        'junit',
        '--out',
        'junit.xml',
        '--reporter',
        'csv',
        '--out',
        'results.csv',
        '--reporter',
        'jsonl',
        '--runs-dir',
        'runs-multi',
      ],
      { cwd: work },
    );
    assert.equal(run.code, 1);
    assert.match(readFileSync(join(work, 'junit.xml'), 'utf8'), /<testsuite [^>]*tests="4" failures="1"/);
    assert.equal(readFileSync(join(work, 'results.csv'), 'utf8').trim().split('\n').length, 13);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    assert.equal(events[0]?.type, 'run/start');
    assert.equal(events[events.length - 1]?.type, 'run/end');
  });

  it("writes a CSV report per run into EvalBench's reporting.csv output_directory", async () => {
    const run = await runCli(['run', 'evalbench-csv.eval.yaml', '--runs-dir', 'runs-evalbench-csv'], { cwd: work });
    assert.equal(run.code, 1, run.stderr);
    const files = readdirSync(join(work, 'csv-results'));
    assert.equal(files.length, 1);
    const rows = readFileSync(join(work, 'csv-results', files[0] ?? ''), 'utf8')
      .trim()
      .split('\n');
    assert.equal(rows.length, 3, 'a header and one row per case × scorer');
    assert.match(rows[2] ?? '', /^q2,returned_sql,1,fail,0,/);
  });

  it('runs only the cases named with --case, or matching --filter', async () => {
    const one = await runCli(
      ['run', 'examples/quickstart/refunds.eval.yaml', '--case', 'sale-items', '--runs-dir', 'runs-case'],
      { cwd: work },
    );
    assert.match(one.stdout, /^0 passed, 1 failed, 1 total$/m);
    const glob = await runCli(
      ['run', 'examples/quickstart/refunds.eval.yaml', '--filter', 'refund-*', '--runs-dir', 'runs-filter'],
      { cwd: work },
    );
    assert.equal(glob.code, 0);
    assert.match(glob.stdout, /^2 passed, 0 failed, 2 total$/m);
  });

  describe('on a long run', () => {
    let big = '';
    before(() => {
      big = join(work, 'big');
      cpSync(join(work, 'all-pass.eval.yaml'), join(work, 'unused.eval.yaml'));
      const lines: string[] = [];
      for (let i = 0; i < 300_000; i++)
        lines.push(JSON.stringify({ id: `c${i}`, output: `answer ${i}`, expected: `answer ${i}` }));
      writeFileSync(`${big}.jsonl`, `${lines.join('\n')}\n`);
      writeFileSync(
        `${big}.eval.yaml`,
        'dataset: big.jsonl\nscorers:\n  exact_match: {}\n  contains: {value: "answer"}\n',
      );
    });

    it('on Ctrl-C starts no new case, writes the report of what finished, and exits 130', async () => {
      const runsDir = join(work, 'runs-cancel');
      const child = startCli(
        [
          'run',
          'big.eval.yaml',
          '--concurrency',
          '1',
          '--runs-dir',
          runsDir,
          '--reporter',
          'json',
          '--out',
          'cancelled.json',
        ],
        { cwd: work },
      );
      const done = finished(child, 60_000);
      await waitFor(() => sizeOfRunFile(runsDir, 'results.jsonl') > 0, 'the first results');
      child.kill('SIGINT');
      const run = await done;
      assert.equal(run.code, 130, run.stderr);
      assert.match(run.stderr, /stopping/);
      const report = JSON.parse(readFileSync(join(work, 'cancelled.json'), 'utf8')) as {
        cancelled: boolean;
        summary: { total: number };
        results: unknown[];
      };
      assert.equal(report.cancelled, true);
      assert.ok(
        report.summary.total > 0 && report.summary.total < 300_000,
        `cancelled after ${report.summary.total} cases`,
      );
      assert.equal(report.results.length, report.summary.total * 2, 'every finished case has its results');
      assert.ok(existsSync(join(onlyRun(runsDir), 'report.json')));
    });

    it('when killed outright keeps every finished case in results.jsonl, each line whole', async () => {
      const runsDir = join(work, 'runs-killed');
      const child = startCli(['run', 'big.eval.yaml', '--concurrency', '1', '--runs-dir', runsDir], { cwd: work });
      const done = finished(child, 60_000);
      await waitFor(() => sizeOfRunFile(runsDir, 'cases.jsonl') > 10_000, 'some finished cases');
      child.kill('SIGKILL');
      const run = await done;
      assert.equal(run.signal, 'SIGKILL');
      const dir = onlyRun(runsDir);
      // A line is written when its newline is: a kill in the middle of a write can leave the last
      // line unterminated, and only that one.
      const whole = (file: string) => {
        const text = readFileSync(join(dir, file), 'utf8');
        return text
          .slice(0, text.lastIndexOf('\n') + 1)
          .split('\n')
          .filter((l) => l !== '');
      };
      const cases = whole('cases.jsonl');
      const results = whole('results.jsonl');
      for (const line of [...cases, ...results]) JSON.parse(line);
      const finishedIds = new Set(results.map((l) => (JSON.parse(l) as { caseId: string }).caseId));
      for (const line of cases)
        assert.ok(
          finishedIds.has((JSON.parse(line) as { id: string }).id),
          'every case in cases.jsonl has its results',
        );
      assert.ok(results.length >= cases.length * 2, `${results.length} results for ${cases.length} finished cases`);
    });
  });
});
