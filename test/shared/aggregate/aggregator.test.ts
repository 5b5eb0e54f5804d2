import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Aggregator } from '../../../shared/aggregate/aggregator';
import type { ResultStatus, ScorerResult } from '../../../core/result';
import type { ScorerInfo } from '../../../core/runner/events';

const info = (name: string, extra: Partial<ScorerInfo> = {}): ScorerInfo => ({
  name,
  key: name,
  origin: 'EvalBook',
  scale: { kind: 'bounded', max: 1 },
  weight: 1,
  lowerIsBetter: false,
  ...extra,
});

const result = (scorer: string, score: number | undefined, status: ResultStatus = 'pass'): ScorerResult => ({
  caseId: 'c',
  scorer,
  trial: 1,
  status,
  ...(score === undefined ? {} : { score }),
  reason: 'r',
  durationMs: 0,
});

describe('aggregation (EvalHub rules)', () => {
  it('reproduces the seed worked example: (2 × 0.78 + 1 × (1 − 0.10)) / 3 = 0.82, pass at 0.45', () => {
    const agg = new Aggregator(
      [info('arc_easy', { threshold: 0.25, weight: 2 }), info('toxicity', { threshold: 0.2, lowerIsBetter: true })],
      0.45,
    );
    agg.add(result('arc_easy', 0.78));
    agg.add(result('toxicity', 0.1));
    const job = agg.jobTest();
    assert.ok(job);
    assert.ok(Math.abs(job.score - 0.82) < 1e-12, `job score ${job.score}`);
    assert.equal(job.threshold, 0.45);
    assert.equal(job.pass, true);
  });

  it('gives a scorer a test only where a mean score and a threshold resolve', () => {
    const agg = new Aggregator([info('with', { threshold: 0.5 }), info('without')], 0.5);
    agg.add(result('with', 1));
    agg.add(result('without', 1));
    const [withThreshold, withoutThreshold] = agg.scorerAggregates();
    assert.deepEqual(withThreshold?.test, {
      primary_score: 1,
      primary_score_metric: 'mean_score',
      threshold: 0.5,
      lower_is_better: false,
      pass: true,
    });
    assert.equal(withoutThreshold?.test, undefined);
  });

  it('omits the job test when no scorer has a test', () => {
    const agg = new Aggregator([info('a')], 0.5);
    agg.add(result('a', 1));
    assert.equal(agg.jobTest(), undefined);
  });

  it('passes ties in both directions', () => {
    const agg = new Aggregator(
      [info('up', { threshold: 0.5 }), info('down', { threshold: 0.5, lowerIsBetter: true })],
      0.5,
    );
    agg.add(result('up', 0.5, 'pass'));
    agg.add(result('down', 0.5, 'pass'));
    assert.deepEqual(
      agg.scorerAggregates().map((a) => a.test?.pass),
      [true, true],
    );
  });

  it('treats a weight of 0 as 1', () => {
    const agg = new Aggregator([info('a', { threshold: 0, weight: 0 }), info('b', { threshold: 0, weight: 1 })], 0.5);
    agg.add(result('a', 1));
    agg.add(result('b', 0, 'fail'));
    assert.equal(agg.jobTest()?.score, 0.5);
  });

  it('normalizes native scales before averaging: EvalBench 0–100 and EvalBook 0–1 weigh alike', () => {
    const agg = new Aggregator(
      [info('bench', { threshold: 50, scale: { kind: 'bounded', max: 100 } }), info('book', { threshold: 0.5 })],
      0.5,
    );
    agg.add(result('bench', 80));
    agg.add(result('book', 0.4, 'fail'));
    const job = agg.jobTest();
    assert.ok(job);
    assert.ok(Math.abs(job.score - 0.6) < 1e-12, `expected (0.8 + 0.4) / 2, got ${job.score}`);
  });

  it('keeps count-valued scorers out of the job score (they have no scale to normalize by)', () => {
    const agg = new Aggregator(
      [
        info('turns', { threshold: 10, lowerIsBetter: true, scale: { kind: 'count', unit: 'turns' } }),
        info('book', { threshold: 0.5 }),
      ],
      0.5,
    );
    agg.add(result('turns', 4));
    agg.add(result('book', 1));
    assert.equal(agg.jobTest()?.score, 1);
    assert.equal(agg.scorerAggregates()[0]?.test?.pass, true);
  });

  it('drops results without a numeric score from the mean, and counts every status', () => {
    const agg = new Aggregator([info('a', { threshold: 0.5 })], 0.5);
    agg.add(result('a', 1));
    agg.add(result('a', undefined, 'error'));
    agg.add(result('a', undefined, 'inconclusive'));
    agg.add(result('a', 0, 'fail'));
    const [a] = agg.scorerAggregates();
    assert.equal(a?.meanScore, 0.5);
    assert.equal(a?.passRate, 0.5);
    assert.equal(a?.counts.error, 1);
    assert.equal(a?.counts.inconclusive, 1);
  });

  it('uses the job threshold given, failing a job below it', () => {
    const agg = new Aggregator([info('a', { threshold: 0.1 })], 0.9);
    agg.add(result('a', 0.8));
    assert.deepEqual(agg.jobTest(), { score: 0.8, threshold: 0.9, pass: false });
  });
});
