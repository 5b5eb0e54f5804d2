import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { benchmarkTest } from '../../../core/evalhub/benchmarkTest';
import { jobTest, jobThreshold } from '../../../core/evalhub/jobScore';
import { numericMetric } from '../../../core/evalhub/numericMetric';
import type { ResolvedBenchmark } from '../../../core/evalhub/types';

const resolved = (over: Partial<ResolvedBenchmark> = {}): ResolvedBenchmark => ({
  id: 'arc_easy',
  metric: 'acc_norm',
  metricFrom: 'collection',
  threshold: 0.25,
  thresholdFrom: 'collection',
  lowerIsBetter: false,
  weight: 1,
  weightFrom: 'default',
  ...over,
});

describe('EvalHub: the seed worked example (seed 003)', () => {
  it('arc_easy 0.78 weight 2 and toxicity 0.10 lower-is-better weight 1 give 0.82, which passes at 0.45', () => {
    const test = jobTest(
      [
        { primaryScore: 0.78, weight: 2, lowerIsBetter: false },
        { primaryScore: 0.1, weight: 1, lowerIsBetter: true },
      ],
      0.45,
    );
    assert.ok(test);
    assert.ok(Math.abs(test.score - 0.82) < 1e-12, `score ${test.score}`);
    assert.equal(test.threshold, 0.45);
    assert.equal(test.pass, true);
  });

  it('the seed results example: arc_easy acc_norm 0.78 passes at 0.25, toxigen acc 0.60 fails at 0.70', () => {
    const arc = benchmarkTest(resolved(), { acc: 0.81, acc_norm: 0.78 });
    assert.deepEqual(arc.test, { primary_score: 0.78, primary_score_metric: 'acc_norm', threshold: 0.25, pass: true });
    const toxigen = benchmarkTest(resolved({ id: 'toxigen', metric: 'acc', threshold: 0.7 }), { acc: 0.6 });
    assert.deepEqual(toxigen.test, { primary_score: 0.6, primary_score_metric: 'acc', threshold: 0.7, pass: false });
  });

  it('a missing or 0 weight counts as 1', () => {
    const zero = jobTest(
      [
        { primaryScore: 1, weight: 0, lowerIsBetter: false },
        { primaryScore: 0, weight: 1, lowerIsBetter: false },
      ],
      0.5,
    );
    assert.equal(zero?.score, 0.5);
  });

  it('1 - score is applied whatever the scale (a lower-is-better 12 contributes -11), as EvalHub does', () => {
    assert.equal(jobTest([{ primaryScore: 12, weight: 1, lowerIsBetter: true }], 0.5)?.score, -11);
  });
});

describe('EvalHub: when the test section is missing', () => {
  it('the chosen primary metric is not present in the reported metrics: no test, and the reason says so', () => {
    const outcome = benchmarkTest(resolved(), { acc: 0.81 });
    assert.equal(outcome.test, undefined);
    assert.match(outcome.omitted ?? '', /primary metric "acc_norm" is not reported/);
  });

  for (const [value, seen] of [
    ['0.78', /numeric-looking string .*JSON numbers only/],
    [true, /a boolean \(true\)/],
    [null, /null/],
    [[0.78], /a list/],
    [{ value: 0.78 }, /a map/],
  ] as const) {
    it(`the primary metric is ${JSON.stringify(value)}: no test (cast by type, never parsed from text)`, () => {
      const outcome = benchmarkTest(resolved(), { acc_norm: value });
      assert.equal(outcome.test, undefined);
      assert.match(outcome.omitted ?? '', seen);
    });
  }

  it('no primary metric resolves: no test', () => {
    const { metric: _m, metricFrom: _f, ...none } = resolved();
    assert.match(benchmarkTest(none, { acc: 0.5 }).omitted ?? '', /no primary metric/);
  });

  it('no threshold can be resolved (neither the config nor the provider): no test', () => {
    const { threshold: _t, thresholdFrom: _f, ...none } = resolved();
    assert.match(benchmarkTest(none, { acc_norm: 0.5 }).omitted ?? '', /no threshold/);
  });

  it('(job level) no benchmark contributed a valid weight/score: no job test', () => {
    assert.equal(jobTest([], 0.5), undefined);
  });
});

describe('EvalHub: pass rules', () => {
  it('ties pass in both directions', () => {
    assert.equal(benchmarkTest(resolved(), { acc_norm: 0.25 }).test?.pass, true);
    assert.equal(benchmarkTest(resolved({ lowerIsBetter: true }), { acc_norm: 0.25 }).test?.pass, true);
  });

  it('lower_is_better flips the comparison to <=', () => {
    assert.equal(benchmarkTest(resolved({ lowerIsBetter: true }), { acc_norm: 0.3 }).test?.pass, false);
    assert.equal(benchmarkTest(resolved({ lowerIsBetter: true }), { acc_norm: 0.2 }).test?.pass, true);
  });

  it('an integer metric is a number; NaN-like text is not', () => {
    assert.deepEqual(numericMetric(1), { ok: true, value: 1 });
    assert.equal(numericMetric('N/A').ok, false);
  });

  it('the job threshold is the request’s, then the collection’s, then 0.5', () => {
    assert.equal(jobThreshold(0.9, 0.4), 0.9);
    assert.equal(jobThreshold(undefined, 0.4), 0.4);
    assert.equal(jobThreshold(undefined, undefined), 0.5);
  });
});
