import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readHarnessResults } from '../../../core/evalhub/harnessResults';
import { toDisplay } from '../../../shared/text/displayPosition';

const LM_EVAL = `{
  "results": {
    "arc_easy": {"alias": "arc_easy", "acc,none": 0.81, "acc_stderr,none": 0.008, "acc_norm,none": 0.78},
    "gsm8k": {"alias": "gsm8k", "exact_match,strict-match": 0.41, "exact_match,flexible-extract": 0.44, "exact_match_stderr,strict-match": "N/A"},
    "broken": [0.5]
  },
  "versions": {"arc_easy": 1.0}
}`;

describe('lm-evaluation-harness results_*.json as benchmarks', () => {
  const read = readHarnessResults(LM_EVAL, '/r/results_2026-11-30.json', 'lm_eval_results');

  it('one benchmark per task, in file order, each with its index', () => {
    assert.deepEqual(read.problems, []);
    assert.deepEqual(
      read.benchmarks.map((b) => [b.id, b.index]),
      [
        ['arc_easy', 0],
        ['gsm8k', 1],
        ['broken', 2],
      ],
    );
  });

  it('"<metric>,none" becomes the bare metric; other filters keep their suffix; the alias is not a metric', () => {
    assert.deepEqual(read.benchmarks[0]?.metrics, { acc: 0.81, acc_stderr: 0.008, acc_norm: 0.78 });
    assert.deepEqual(read.benchmarks[1]?.metrics, {
      'exact_match,strict-match': 0.41,
      'exact_match,flexible-extract': 0.44,
      'exact_match_stderr,strict-match': 'N/A',
    });
  });

  it('a task whose metrics are not a map is said at its place, never read as no metrics', () => {
    const broken = read.benchmarks[2];
    assert.equal(broken?.metrics, undefined);
    assert.match(broken?.problem ?? '', /metrics of benchmark "broken" must be a map .* it is a list/);
    assert.deepEqual(broken === undefined ? undefined : toDisplay(broken.range.start), { line: 5, column: 15 });
  });

  it('a file without `results` is not such results, said at its head', () => {
    const bad = readHarnessResults('{"config": {}}', '/r/x.json', 'lm_eval_results');
    assert.equal(bad.problems[0]?.code, 'benchmark-results-shape');
    assert.match(bad.problems[0]?.message ?? '', /lm-evaluation-harness results file/);
  });
});

describe("EvalHub's job results as benchmarks", () => {
  const JOB = `{"resource": {"id": "job-1"}, "results": {"test": {"score": 0.72, "threshold": 0.45, "pass": true},
  "benchmarks": [
    {"id": "arc_easy", "provider_id": "lm_evaluation_harness", "benchmark_index": 0, "metrics": {"acc": 0.81, "acc_norm": 0.78}},
    {"id": "toxigen", "provider_id": "lm_evaluation_harness", "benchmark_index": 1, "metrics": "acc=0.6"}
  ]}}`;
  const read = readHarnessResults(JOB, '/r/job.json', 'evalhub_results');

  it('reads results.benchmarks[] with id, provider and index', () => {
    assert.deepEqual(read.problems, []);
    assert.deepEqual(
      read.benchmarks.map((b) => [b.id, b.providerId, b.index]),
      [
        ['arc_easy', 'lm_evaluation_harness', 0],
        ['toxigen', 'lm_evaluation_harness', 1],
      ],
    );
    assert.deepEqual(read.benchmarks[0]?.metrics, { acc: 0.81, acc_norm: 0.78 });
  });

  it('metrics that are a string: a problem at the metrics value', () => {
    const t = read.benchmarks[1];
    assert.match(t?.problem ?? '', /it is a string/);
    assert.deepEqual(t === undefined ? undefined : toDisplay(t.range.start).line, 4);
  });

  it('reads the results object alone too', () => {
    const alone = readHarnessResults(
      '{"benchmarks": [{"id": "a", "metrics": {"x": 1}}]}',
      '/r/a.json',
      'evalhub_results',
    );
    assert.deepEqual(
      alone.benchmarks.map((b) => b.id),
      ['a'],
    );
  });
});
