import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import compareSchema from '../../schemas/compare-report.schema.json';
import reportSchema from '../../schemas/report.schema.json';
import resultsSchema from '../../schemas/evalhub-results.schema.json';
import { ensureBuilt, ROOT, runCli } from '../support/cli';

const CONFIG = 'examples/evalhub/benchmarks.eval.yaml';
let work = '';

before(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-evalhub-example-'));
  cpSync(join(ROOT, 'examples'), join(work, 'examples'), { recursive: true });
});

after(() => rmSync(work, { recursive: true, force: true }));

describe('the EvalHub example (examples/evalhub)', () => {
  it('judges each benchmark of an lm-evaluation-harness results file and passes the job at 0.82', async () => {
    const run = await runCli(['run', CONFIG, '--runs-dir', 'runs-console'], { cwd: work });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^PASS arc_easy \(\d+ms\)$/m);
    assert.match(run.stdout, /^PASS realtoxicityprompts \(\d+ms\)$/m);
    assert.match(run.stdout, /^SKIP winogrande\n {5}evalhub_benchmark: no test: no threshold/m);
    assert.match(run.stdout, /^job score 0\.82 \(threshold 0\.45\) → pass$/m);
    assert.match(run.stdout, /^evalhub_benchmark: 1 benchmark has no test and is left out of the job score/m);
    assert.equal(run.stderr, '', 'no warning: pass_criteria drives the EvalHub job score');
  });

  it('--reporter evalhub writes the results section in EvalHub’s shape, omitting the test block EvalHub omits', async () => {
    const run = await runCli(
      ['run', CONFIG, '--runs-dir', 'runs-evalhub', '--reporter', 'evalhub', '--out', 'results.json'],
      {
        cwd: work,
      },
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const written = JSON.parse(readFileSync(join(work, 'results.json'), 'utf8')) as unknown;
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
    const validate = ajv.compile(resultsSchema);
    assert.ok(validate(written), JSON.stringify(validate.errors));
    assert.deepEqual(written, {
      results: {
        test: { score: 0.82, threshold: 0.45, pass: true },
        benchmarks: [
          {
            id: 'arc_easy',
            provider_id: 'lm_evaluation_harness',
            benchmark_index: 0,
            metrics: { acc: 0.81, acc_stderr: 0.008, acc_norm: 0.78, acc_norm_stderr: 0.0085 },
            test: { primary_score: 0.78, primary_score_metric: 'acc_norm', threshold: 0.25, pass: true },
          },
          {
            id: 'realtoxicityprompts',
            provider_id: 'lm_evaluation_harness',
            benchmark_index: 1,
            metrics: { score: 0.1, score_stderr: 'N/A' },
            test: { primary_score: 0.1, primary_score_metric: 'score', threshold: 0.2, pass: true },
          },
          {
            id: 'winogrande',
            provider_id: 'lm_evaluation_harness',
            benchmark_index: 2,
            metrics: { acc: 0.69, acc_stderr: 0.013 },
          },
        ],
      },
    });
  });

  it('the JSON report keeps each benchmark’s metrics map and stays valid against the report schema', async () => {
    const run = await runCli(['run', CONFIG, '--runs-dir', 'runs-json', '--reporter', 'json', '--out', 'report.json'], {
      cwd: work,
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const report = JSON.parse(readFileSync(join(work, 'report.json'), 'utf8')) as {
      results: { caseId: string; metrics?: object }[];
    };
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
    ajv.addSchema(compareSchema); // report.json refers to it for a run compared with a baseline
    addFormats(ajv);
    const validate = ajv.compile(reportSchema);
    assert.ok(validate(report), JSON.stringify(validate.errors));
    assert.deepEqual(report.results.find((r) => r.caseId === 'winogrande')?.metrics, { acc: 0.69, acc_stderr: 0.013 });
  });

  it('a collection naming a benchmark the results do not report stops the run with file:line:col', async () => {
    const collection = join(work, 'examples/evalhub/collections/capability-and-safety.yaml');
    writeFileSync(collection, readFileSync(collection, 'utf8') + '  - id: mmlu\n    weight: 1\n');
    const run = await runCli(['run', CONFIG, '--runs-dir', 'runs-bad'], { cwd: work });
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.match(
      run.stderr,
      /examples\/evalhub\/collections\/capability-and-safety\.yaml:\d+:9: error: the collection names benchmark "mmlu", which the results file does not report/,
    );
  });
});
