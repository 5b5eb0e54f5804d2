import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadRunConfig } from '../../../core/config/loadRunConfig';
import type { RunConfig } from '../../../core/config/runConfig';
import type { Problem } from '../../../core/problem';
import type { ScorerResult } from '../../../core/result';
import { caseRecords } from '../../../core/runner/records';
import { runEval } from '../../../core/runner/run';
import { toDisplay } from '../../../shared/text/displayPosition';

const dir = mkdtempSync(join(tmpdir(), 'evallens-evalhub-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** An lm-evaluation-harness results file of our own, in its public shape. */
const RESULTS = JSON.stringify(
  {
    results: {
      arc_easy: { alias: 'arc_easy', 'acc,none': 0.81, 'acc_stderr,none': 0.008, 'acc_norm,none': 0.78 },
      toxicity: { alias: 'toxicity', 'score,none': 0.1 },
      hellaswag: { alias: 'hellaswag', 'acc,none': '0.41' },
      winogrande: { alias: 'winogrande', 'acc,none': 0.69 },
    },
    versions: { arc_easy: 1 },
    config: { model: 'hf' },
  },
  null,
  2,
);

const COLLECTION = `id: demo-v1
pass_criteria:
  threshold: 0.4
benchmarks:
  - id: arc_easy
    weight: 2
    primary_score: {metric: acc_norm}
    pass_criteria: {threshold: 0.25}
  - id: toxicity
    primary_score: {metric: score, lower_is_better: true}
    pass_criteria: {threshold: 0.2}
  - id: hellaswag
    primary_score: {metric: acc}
    pass_criteria: {threshold: 0.3}
`;

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

function load(configText: string, collection = COLLECTION): { config?: RunConfig; problems: Problem[] } {
  write('results_2026-11-30.json', RESULTS);
  write('collection.yaml', collection);
  const parsed = loadRunConfig(write('job.eval.yaml', configText), {});
  return { ...(parsed.config === undefined ? {} : { config: parsed.config }), problems: parsed.problems };
}

const CONFIG = `dataset: {path: results_2026-11-30.json, format: lm_eval_results}
evalhub:
  collection: collection.yaml
  providers:
    - {id: winogrande, primary_score: {metric: acc}}
scorers:
  evalhub_benchmark: {}
pass_criteria: {threshold: 0.45}
`;

async function run(config: RunConfig) {
  const results: ScorerResult[] = [];
  const outcome = await runEval(config, caseRecords(config), {
    runId: 'r1',
    concurrency: 1,
    onEvent: (e) => {
      if (e.type === 'result') results.push(e.result);
    },
  });
  return { outcome, results: new Map(results.map((r) => [r.caseId, r])) };
}

describe('EvalHub benchmark results, run whole', () => {
  it('gives the seed worked example job score (0.82, pass at 0.45) and leaves the untested benchmarks out, saying why', async () => {
    const { config, problems } = load(CONFIG);
    assert.deepEqual(problems, []);
    assert.ok(config);
    const { outcome, results } = await run(config);
    assert.ok(outcome.jobTest);
    assert.ok(Math.abs(outcome.jobTest.score - 0.82) < 1e-12, String(outcome.jobTest.score));
    assert.equal(outcome.jobTest.threshold, 0.45);
    assert.equal(outcome.jobTest.pass, true);
    const arc = results.get('arc_easy');
    assert.equal(arc?.status, 'pass');
    assert.equal(arc?.score, 0.78);
    assert.deepEqual(arc?.metrics, { acc: 0.81, acc_stderr: 0.008, acc_norm: 0.78 });
    assert.deepEqual(arc?.details?.['test'], {
      primary_score: 0.78,
      primary_score_metric: 'acc_norm',
      threshold: 0.25,
      pass: true,
    });
    assert.deepEqual(arc?.details?.['from'], { metric: 'collection', threshold: 'collection', weight: 'collection' });
    // A numeric-looking string is not a number: no test, said in the reason; its raw value stays in metrics.
    const hellaswag = results.get('hellaswag');
    assert.equal(hellaswag?.status, 'inconclusive');
    assert.equal(hellaswag?.score, undefined);
    assert.match(
      hellaswag?.reason ?? '',
      /primary metric "acc" is a numeric-looking string.*left out of the job score/,
    );
    assert.deepEqual(hellaswag?.metrics, { acc: '0.41' });
    // The provider gives a metric and no threshold: no test.
    const winogrande = results.get('winogrande');
    assert.equal(winogrande?.status, 'inconclusive');
    assert.match(winogrande?.reason ?? '', /no threshold/);
    assert.deepEqual(winogrande?.details?.['from'], { metric: 'provider', weight: 'default' });
  });

  it('the job threshold: the config’s, then the collection’s, then 0.5', () => {
    assert.equal(load(CONFIG).config?.jobThreshold, 0.45);
    const withoutRequest = CONFIG.replace('pass_criteria: {threshold: 0.45}\n', '');
    assert.equal(load(withoutRequest).config?.jobThreshold, 0.4);
    assert.equal(
      load(withoutRequest, COLLECTION.replace('pass_criteria:\n  threshold: 0.4\n', '')).config?.jobThreshold,
      0.5,
    );
  });

  it('a job override re-weights and re-thresholds one benchmark, and says so', async () => {
    const { config } = load(
      CONFIG.replace(
        '  providers:',
        '  benchmarks:\n    - {id: arc_easy, weight: 1, pass_criteria: {threshold: 0.8}}\n  providers:',
      ),
    );
    assert.ok(config);
    const { outcome, results } = await run(config);
    const arc = results.get('arc_easy');
    assert.equal(arc?.status, 'fail');
    assert.deepEqual(arc?.details?.['from'], { metric: 'collection', threshold: 'job', weight: 'job' });
    // (0.78 + 0.9) / 2
    assert.ok(Math.abs((outcome.jobTest?.score ?? 0) - 0.84) < 1e-12);
  });

  it('no benchmark with a test: no job test', async () => {
    const { config } = load(CONFIG.replace('collection: collection.yaml', 'collection: {id: empty, benchmarks: []}'));
    assert.ok(config);
    const { outcome } = await run(config);
    assert.equal(outcome.jobTest, undefined);
  });
});

describe('EvalHub bad input: said at the place it was written', () => {
  const at = (p: Problem | undefined) =>
    p === undefined ? undefined : { file: p.range.file, ...toDisplay(p.range.start) };

  it('a collection naming a benchmark the results do not report', () => {
    const { config, problems } = load(CONFIG, COLLECTION + '  - id: mmlu\n    pass_criteria: {threshold: 0.5}\n');
    assert.equal(config, undefined);
    const p = problems.find((x) => x.code === 'unknown-benchmark');
    assert.match(
      p?.message ?? '',
      /the collection names benchmark "mmlu", which the results file does not report; it reports "arc_easy"/,
    );
    assert.deepEqual(at(p), { file: join(dir, 'collection.yaml'), line: 15, column: 9 });
  });

  it('a primary metric no benchmark reports', () => {
    const { config, problems } = load(CONFIG, COLLECTION.replace('{metric: acc_norm}', '{metric: acc_nrom}'));
    assert.equal(config, undefined);
    const p = problems.find((x) => x.code === 'unknown-metric');
    assert.match(p?.message ?? '', /primary metric "acc_nrom" \(benchmark "arc_easy"\) is reported by no benchmark/);
    assert.deepEqual(at(p), { file: join(dir, 'collection.yaml'), line: 7, column: 29 });
  });

  it('a wrong key in a collection file entry', () => {
    const { config, problems } = load(CONFIG, COLLECTION.replace('    weight: 2', '    wieght: 2'));
    assert.equal(config, undefined);
    const p = problems[0];
    assert.match(p?.message ?? '', /wieght/);
    assert.match(p?.message ?? '', /weight/);
    assert.deepEqual(at(p), { file: join(dir, 'collection.yaml'), line: 6, column: 5 });
  });

  it('a benchmark whose metrics are not a map is an error result at its line, not a silent zero', async () => {
    write('results_bad.json', '{"results": {"arc_easy": {"acc,none": 0.8}, "odd": 0.5}}');
    write('collection.yaml', 'benchmarks: []\n');
    const parsed = loadRunConfig(
      write(
        'bad.eval.yaml',
        'dataset: {path: results_bad.json, format: lm_eval_results}\nevalhub: {collection: collection.yaml}\nscorers: {evalhub_benchmark: {}}\n',
      ),
      {},
    );
    assert.ok(parsed.config);
    const { results } = await run(parsed.config);
    const odd = [...results.values()].find((r) => r.caseId === 'odd');
    assert.equal(odd?.status, 'error');
    assert.match(odd?.reason ?? '', /metrics of benchmark "odd" must be a map .* it is a number/);
  });
});
