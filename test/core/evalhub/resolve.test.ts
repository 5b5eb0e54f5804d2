import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveBenchmark, type ScoringSources } from '../../../core/evalhub/resolve';

const provider = {
  id: 'toxigen',
  provider_id: 'lm_evaluation_harness',
  primary_score: { metric: 'acc_norm' },
  pass_criteria: { threshold: 0.5 },
};
const inCollection = {
  id: 'toxigen',
  provider_id: 'lm_evaluation_harness',
  weight: 2,
  primary_score: { metric: 'acc', lower_is_better: false },
  pass_criteria: { threshold: 0.6 },
};
const sources = (over: Partial<ScoringSources> = {}): ScoringSources => ({
  collection: { id: 'safety', benchmarks: [inCollection], file: '/c.yaml' },
  overrides: [],
  providerDefaults: [provider],
  ...over,
});

describe('EvalHub precedence (seed 003, "User overrides")', () => {
  it('primary metric: the job/collection benchmark config, then the provider default', () => {
    const r = resolveBenchmark('toxigen', 'lm_evaluation_harness', sources());
    assert.equal(r.metric, 'acc');
    assert.equal(r.metricFrom, 'collection');
    const fallback = resolveBenchmark(
      'toxigen',
      'lm_evaluation_harness',
      sources({ collection: { benchmarks: [{ id: 'toxigen' }], file: '/c.yaml' } }),
    );
    assert.equal(fallback.metric, 'acc_norm');
    assert.equal(fallback.metricFrom, 'provider');
  });

  it('an empty metric falls back to the provider, as unset does', () => {
    const r = resolveBenchmark(
      'toxigen',
      undefined,
      sources({ overrides: [{ id: 'toxigen', primary_score: { metric: '' } }] }),
    );
    assert.equal(r.metric, 'acc');
  });

  it('the job override wins over the collection field by field (the seed request example)', () => {
    const r = resolveBenchmark(
      'toxigen',
      'lm_evaluation_harness',
      sources({
        overrides: [
          { id: 'toxigen', provider_id: 'lm_evaluation_harness', weight: 3, pass_criteria: { threshold: 0.7 } },
        ],
      }),
    );
    assert.deepEqual(
      {
        metric: r.metric,
        metricFrom: r.metricFrom,
        threshold: r.threshold,
        thresholdFrom: r.thresholdFrom,
        weight: r.weight,
        weightFrom: r.weightFrom,
      },
      { metric: 'acc', metricFrom: 'collection', threshold: 0.7, thresholdFrom: 'job', weight: 3, weightFrom: 'job' },
    );
  });

  it('threshold: the config, then the provider; neither: none', () => {
    const noConfigThreshold = sources({
      collection: { benchmarks: [{ id: 'toxigen', primary_score: { metric: 'acc' } }], file: '/c.yaml' },
    });
    const r = resolveBenchmark('toxigen', undefined, noConfigThreshold);
    assert.equal(r.threshold, 0.5);
    assert.equal(r.thresholdFrom, 'provider');
    const none = resolveBenchmark('toxigen', undefined, { ...noConfigThreshold, providerDefaults: [] });
    assert.equal(none.threshold, undefined);
  });

  it('weight: the config, else 1 (0 counts as 1); the provider gives none', () => {
    const r = resolveBenchmark(
      'toxigen',
      undefined,
      sources({ collection: { benchmarks: [{ id: 'toxigen', weight: 0 }], file: '/c.yaml' } }),
    );
    assert.equal(r.weight, 1);
    assert.equal(r.weightFrom, 'default');
  });

  it('lower_is_better follows the config that set the metric (the provider’s, when the metric is the provider’s)', () => {
    const r = resolveBenchmark('toxigen', undefined, {
      overrides: [],
      providerDefaults: [{ id: 'toxigen', primary_score: { metric: 'rate', lower_is_better: true } }],
    });
    assert.equal(r.lowerIsBetter, true);
  });

  it('a config of another provider does not apply', () => {
    const r = resolveBenchmark('toxigen', 'garak', sources());
    assert.equal(r.metric, undefined);
    assert.equal(r.threshold, undefined);
  });
});
