import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { EvalBenchResultsError, isEvalBenchResults, readEvalBenchResults } from '../../../core/report/evalbenchResults';
import { maskSecrets } from '../../../core/report/evalbenchMask';
import { pythonStrings } from '../../../core/report/evalbenchRows';
import type { Report } from '../../../core/report/report';
import reportSchema from '../../../schemas/report.schema.json';
import compareSchema from '../../../schemas/compare-report.schema.json';
import { ROOT } from '../../support/cli';

const RESULTS = join(ROOT, 'test', 'fixtures', 'evalbench', 'results');
const JOB = join(RESULTS, '5d0c7a8e-3b1f-4c2a-9e6d-7f8a1b2c3d4e');
const JOB2 = join(RESULTS, 'a1b2c3d4-0000-4e5f-8a9b-0c1d2e3f4a5b');
const OPTIONS = { toolVersion: '0.0.0-test' };

const scratch = mkdtempSync(join(tmpdir(), 'evallens-evalbench-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

function job(name: string, files: { readonly [file: string]: string }): string {
  const folder = join(scratch, name);
  mkdirSync(folder, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(folder, file), text);
  return folder;
}

function resultsOf(report: Report, caseId: string, scorer: string) {
  return report.results.filter((r) => r.caseId === caseId && r.scorer === scorer).sort((a, b) => a.trial - b.trial);
}

const SCORES_HEADER =
  'comparator,score,comparison_error,comparison_logs,id,generated_sql,generated_error,dialects,database,job_id\n';

describe('EvalBench results (reporting: csv) as a report', () => {
  it('reads a job folder: one result per scores.csv row, decided as EvalBench decides (100 passes), trials from the eval ids', async () => {
    const { report } = await readEvalBenchResults(JOB, OPTIONS);
    assert.deepEqual(
      report.cases.map((c) => [c.id, c.status, c.trials?.trials ?? 1, c.trials?.passed ?? null]),
      [
        ['1', 'passed', 2, 2],
        ['2', 'failed', 2, 0],
        ['3', 'passed', 1, null],
      ],
    );
    assert.equal(report.numTrials, 2);
    assert.deepEqual(report.summary, { passed: 2, failed: 1, errored: 0, skipped: 0, total: 3 });
    assert.deepEqual(
      resultsOf(report, '2', 'exact_match').map((r) => [r.trial, r.status, r.score, r.passed]),
      [
        [1, 'fail', 0, false],
        [2, 'fail', 0, false],
      ],
    );
    assert.deepEqual(
      resultsOf(report, '2', 'set_match').map((r) => [r.trial, r.status]),
      [
        [1, 'pass'],
        [2, 'fail'],
      ],
    );
    const exact = report.scorers.find((s) => s.name === 'exact_match');
    assert.deepEqual(
      [exact?.counts.pass, exact?.counts.fail, exact?.passRate, exact?.origin],
      [3, 2, 0.6, 'EvalBench'],
    );
    assert.deepEqual(exact?.scale, { kind: 'bounded', max: 100 });
    // The case points at its first evals.csv row (1-based), where a person reads what it asked.
    assert.deepEqual(report.cases[1]?.location, { file: join(JOB, 'evals.csv'), line: 3, column: 1 });
    assert.match(report.runId, /^2026-06-20T14-03-11-482Z-evalbench-5d0c7a8e/);
  });

  it("keeps EvalBench's own summary.csv numbers as written, even where they differ from a count of the results", async () => {
    const { report } = await readEvalBenchResults(JOB, OPTIONS);
    const jobs = report.imported?.jobs ?? [];
    assert.equal(report.imported?.format, 'evalbench-csv');
    assert.deepEqual(jobs[0]?.summary, [
      { metric: 'exact_match', metricScore: 100, correct: 3, total: 3 },
      { metric: 'set_match', metricScore: 100, correct: 4, total: 3 },
      { metric: 'executable', metricScore: 1, correct: 4, total: 6 },
    ]);
    assert.equal(jobs[0]?.runTime, '2026-06-20 14:03:11.482913');
    assert.match(report.imported?.note ?? '', /not re-scored|not run by EvalLens/);
  });

  it("shows each trial's prompt, generated and golden SQL and result rows, with commas, quotes and line breaks intact", async () => {
    const { report } = await readEvalBenchResults(JOB, OPTIONS);
    const [first, second] = resultsOf(report, '2', 'exact_match');
    assert.equal(
      first?.details?.['input'],
      'List users named "O\'Brien, Jr." who signed up\nafter 2020, with their email',
    );
    assert.equal(first?.details?.['output'], "SELECT name, email\nFROM users\nWHERE name = 'O''Brien, Jr.'");
    assert.equal(
      first?.details?.['expected'],
      "SELECT name, email FROM users WHERE name = 'O''Brien, Jr.' AND signup > '2020-12-31';",
    );
    assert.deepEqual(first?.details?.['golden_result'], [{ name: "O'Brien, Jr.", email: 'ob@example.com' }]);
    assert.equal((first?.details?.['generated_result'] as unknown[]).length, 2);
    assert.equal(
      second?.details?.['generated_error'],
      'relation "user" does not exist\nLINE 1: SELECT name, email FROM user WHERE signup > \'2020-12-31\'',
    );
    assert.match(second?.reason ?? '', /failed to run/);
    // Reasons carry no payload text.
    assert.doesNotMatch(second?.reason ?? '', /relation|O'Brien/);
  });

  it('reports a malformed row at file:line:col and still loads every other row', async () => {
    const { report, problems } = await readEvalBenchResults(JOB, OPTIONS);
    assert.equal(problems.length, 1);
    const problem = problems[0];
    assert.equal(problem?.range.file, join(JOB, 'scores.csv'));
    assert.deepEqual([problem?.range.start.line, problem?.range.start.column], [15, 25]);
    assert.match(problem?.message ?? '', /expected 10 cells, as the header has, but the row has 5/);
    assert.equal(report.results.length, 10);
    assert.equal(
      report.cases.some((c) => c.id === '9'),
      false,
    );
  });

  it('masks credentials of configs.csv (keys and values inside printed dicts) and token-formatted secrets', async () => {
    const { report } = await readEvalBenchResults(JOB, OPTIONS);
    const text = JSON.stringify(report);
    assert.doesNotMatch(text, /hunter2|AIzaSy/);
    const config = report.imported?.jobs[0]?.config ?? [];
    assert.equal(config.find((c) => c.key === 'model_config.api_key')?.value, '****');
    assert.match(config.find((c) => c.key === 'db_configs')?.value ?? '', /'password': '\*\*\*\*'/);
    assert.match(config.find((c) => c.key === 'db_configs')?.value ?? '', /'user': 'evalbench'/);
    assert.equal(
      maskSecrets('postgres://app:s3cret@db:5432/x token=abc123 "api_key": "k"'),
      'postgres://app:****@db:5432/x token=**** "api_key": "****"',
    );
  });

  it('reads a folder of jobs: case ids under their job, errors and multi-trial consistency scorers', async () => {
    const { report } = await readEvalBenchResults(RESULTS, OPTIONS);
    assert.equal(report.imported?.jobs.length, 2);
    assert.ok(report.cases.some((c) => c.id === '5d0c7a8e-3b1f-4c2a-9e6d-7f8a1b2c3d4e/1'));
    const id = 'a1b2c3d4-0000-4e5f-8a9b-0c1d2e3f4a5b/7';
    assert.equal(report.cases.find((c) => c.id === id)?.status, 'errored');
    const [rater] = resultsOf(report, id, 'llmrater');
    assert.equal(rater?.status, 'error');
    assert.equal(rater?.details?.['comparison_error'], '429 Resource exhausted: quota for gemini-2.5-pro');
    const consistency = resultsOf(report, id, 'exact_match_consistency');
    assert.deepEqual(
      consistency.map((r) => [r.trial, r.status, r.score]),
      [[0, 'fail', 0]],
    );
    assert.deepEqual((consistency[0]?.details?.['pairs'] as { trials: string[] }[])[0]?.trials, [
      '7_trial_0',
      '7_trial_1',
    ]);
    // Scores written as floats (pandas' 100.0) read as the same number.
    assert.equal(resultsOf(report, id, 'exact_match')[0]?.status, 'pass');
  });

  it('opens a job from any of its CSV files, and says what it expected for anything else', async () => {
    assert.equal((await readEvalBenchResults(join(JOB2, 'scores.csv'), OPTIONS)).report.cases[0]?.id, '7');
    assert.equal(await isEvalBenchResults(JOB), true);
    assert.equal(await isEvalBenchResults(join(ROOT, 'examples')), false);
    await assert.rejects(
      readEvalBenchResults(join(ROOT, 'examples'), OPTIONS),
      (e: unknown) =>
        e instanceof EvalBenchResultsError && /examples:1:1: expected an EvalBench results folder/.test(e.message),
    );
    await assert.rejects(readEvalBenchResults(join(scratch, 'missing'), OPTIONS), /missing:1:1: .*it does not exist/);
  });

  it('treats latency, token and turn figures as measurements, a graded score below 100 as a fail, and an empty or non-numeric score as an error', async () => {
    const folder = job('measured', {
      'scores.csv': `${SCORES_HEADER}end_to_end_latency,5321.5,,,1,,,,,j\ntoken_consumption,812,,,1,,,,,j\nexact_match,,,,1,,,,,j\nexact_match,abc,,,2,,,,,j\nrecall_match,75.0,,,3,,,,,j\nrecall_match,100.0,,,4,,,,,j\ndataset_quality,85,,,4,,,,,j\nbehavioral_metrics,40,,,4,,,,,j\n`,
    });
    const { report } = await readEvalBenchResults(folder, OPTIONS);
    assert.deepEqual(
      report.results.map((r) => [r.scorer, r.status, r.score ?? null]),
      [
        ['end_to_end_latency', 'measured', 5321.5],
        ['token_consumption', 'measured', 812],
        ['exact_match', 'error', null],
        ['exact_match', 'error', null],
        // recall_match scores the share of golden rows recalled; EvalBench's summary counts only 100 as correct.
        ['recall_match', 'fail', 75],
        ['recall_match', 'pass', 100],
        // A 0-100 grade EvalBench averages, and an analysis its summary leaves out: no pass mark.
        ['dataset_quality', 'measured', 85],
        ['behavioral_metrics', 'measured', 40],
      ],
    );
    assert.deepEqual(report.scorers.find((s) => s.name === 'end_to_end_latency')?.scale, { kind: 'count', unit: 'ms' });
    assert.deepEqual(report.scorers.find((s) => s.name === 'dataset_quality')?.scale, { kind: 'bounded', max: 100 });
  });

  it('makes a quote left open an error naming where it opened, and keeps the other rows', async () => {
    const folder = job('unclosed', {
      'scores.csv': `${SCORES_HEADER}exact_match,100,,,1,SELECT 1,,,,j\nexact_match,100,,,2,"SELECT 2\n`,
    });
    const { report, problems } = await readEvalBenchResults(folder, OPTIONS);
    assert.equal(report.results.length, 1);
    assert.deepEqual([problems[0]?.range.start.line, problems[0]?.range.start.column], [2, 20]);
    assert.match(problems[0]?.message ?? '', /expected a CSV row, but a quoted cell is never closed/);
  });

  it('bounds the rows it reads', async () => {
    const folder = job('many', { 'scores.csv': `${SCORES_HEADER}${'exact_match,100,,,1,,,,,j\n'.repeat(5)}` });
    const { report, problems } = await readEvalBenchResults(folder, { ...OPTIONS, maxRows: 3 });
    assert.equal(report.results.length, 3);
    assert.match(problems[0]?.message ?? '', /at most 3 rows/);
  });

  it('keeps payload text within a budget: past it results name their rows, and errors stay errors', async () => {
    const { report, problems } = await readEvalBenchResults(RESULTS, { ...OPTIONS, maxPayloadCharacters: 200 });
    assert.equal(report.results.length, 15);
    const kept = report.results.filter((r) => r.details?.['input'] !== undefined).length;
    assert.ok(kept > 0 && kept < report.results.length, `some results keep their payload (${kept})`);
    assert.ok(
      report.results
        .filter((r) => r.trial > 0)
        .every((r) => typeof r.details?.['scores_row'] === 'string' && typeof r.details['evals_row'] === 'string'),
    );
    // A trial keeps all its fields or none.
    assert.ok(
      report.results.every((r) => (r.details?.['input'] === undefined) === (r.details?.['expected'] === undefined)),
    );
    assert.equal(resultsOf(report, 'a1b2c3d4-0000-4e5f-8a9b-0c1d2e3f4a5b/7', 'llmrater')[0]?.status, 'error');
    const large = problems.find((p) => p.code === 'evalbench-results-large');
    assert.equal(large?.severity, 'warning');
    assert.match(large?.message ?? '', /fit in 200 characters/);
  });

  it('bounds the rows read over every file of every job', async () => {
    const { report, problems } = await readEvalBenchResults(RESULTS, { ...OPTIONS, maxRows: 20 });
    assert.ok(report.results.length < 15);
    assert.ok(problems.some((p) => /expected at most \d+ rows/.test(p.message)));
  });

  it('writes a report the report schema accepts', async () => {
    const { report } = await readEvalBenchResults(RESULTS, OPTIONS);
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    ajv.addSchema(compareSchema); // report.json's `comparison` refers to it
    const validate = ajv.compile(reportSchema);
    assert.equal(validate(JSON.parse(JSON.stringify(report))), true, JSON.stringify(validate.errors));
  });

  it('reads Python-printed lists of strings as pandas writes them', () => {
    assert.deepEqual(pythonStrings("['SELECT 1;', \"it's\"]"), ['SELECT 1;', "it's"]);
    assert.deepEqual(pythonStrings("['a\\nb', 'c\\'d']"), ['a\nb', "c'd"]);
    assert.deepEqual(pythonStrings('[]'), []);
    assert.equal(pythonStrings('[{"count": 1}]'), undefined);
    assert.equal(pythonStrings("['unclosed]"), undefined);
  });
});
