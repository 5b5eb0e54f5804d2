import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MeanAccumulator } from '../../../core/stats/meanAccumulator';
import { seededRandom } from '../../support/seededRandom';
import { assertClose } from './close';

function summarize(cases: readonly (readonly number[])[], range?: number) {
  const accumulator = new MeanAccumulator();
  for (const scores of cases) accumulator.addCase(scores);
  return accumulator.summary(range);
}

// t quantiles: scipy 1.17.1 `scipy.stats.t.ppf(p, df)`.
const T975_DF7 = 2.364624251592784;
const T975_DF2 = 4.302652729749462;
const T975_DF14 = 2.144786687917804;
const T80_DF14 = 0.8680547815574207;

describe('MeanAccumulator: one score per case (the textbook s/√n)', () => {
  it('matches a hand-worked example', () => {
    // Scores 2, 4, 4, 4, 5, 5, 7, 9: mean 40/8 = 5; Σ(x − 5)² = 9+1+1+1+0+0+4+16 = 32;
    // s² = 32/7; SE = √(s²/8) = √(4/7) = 0.7559289460184544; 95% CI = 5 ± t(0.975, 7)·SE.
    const summary = summarize([[2], [4], [4], [4], [5], [5], [7], [9]]);
    assert.equal(summary.n, 8);
    assert.equal(summary.observations, 8);
    assert.equal(summary.clustered, false);
    assertClose(summary.mean, 5, 1e-15, 'mean');
    assertClose(summary.stderr, Math.sqrt(4 / 7), 1e-14, 'stderr');
    assertClose(summary.ci_low, 5 - T975_DF7 * Math.sqrt(4 / 7), 1e-12, 'ci_low');
    assertClose(summary.ci_high, 5 + T975_DF7 * Math.sqrt(4 / 7), 1e-12, 'ci_high');
    // MDE between two such runs: √2·SE with 2(8 − 1) = 14 degrees of freedom, times t(0.975, 14) + t(0.8, 14).
    assertClose(summary.mde, (T975_DF14 + T80_DF14) * Math.SQRT2 * Math.sqrt(4 / 7), 1e-11, 'mde');
    assert.equal(summary.too_wide, true, '8 cases is below the 10 of the small-sample rule');
  });

  it('keeps its digits when the scores sit far from 0', () => {
    // 1e9 + 0.1, 0.2, 0.3: the spread is that of 0.1, 0.2, 0.3: s = 0.1, SE = 0.1/√3.
    const summary = summarize([[1e9 + 0.1], [1e9 + 0.2], [1e9 + 0.3]]);
    assertClose(summary.mean, 1e9 + 0.2, 1e-15, 'mean');
    assertClose(summary.stderr, 0.1 / Math.sqrt(3), 1e-7, 'stderr');
  });
});

describe('MeanAccumulator: several trials per case (cluster-robust, cases as clusters)', () => {
  it('matches a hand-worked example with equal cluster sizes', () => {
    // Cases A [1, 0], B [1, 1], C [0, 0]: N = 6, x̄ = 0.5. Residual sums per case: A 0.5 − 0.5 = 0,
    // B 0.5 + 0.5 = 1, C −1. SE² = G/(G−1)·Σ(sum²)/N² = (3/2)·(0 + 1 + 1)/36 = 1/12, SE = 0.288675…
    // Cross-check: with equal sizes this is the SE of the case means 0.5, 1, 0: s = 0.5, 0.5/√3 = √(1/12).
    // Treating the 6 scores as independent would give √(0.3/6) = 0.2236: too narrow.
    const summary = summarize([
      [1, 0],
      [1, 1],
      [0, 0],
    ]);
    assert.equal(summary.n, 3);
    assert.equal(summary.observations, 6);
    assert.equal(summary.clustered, true);
    assertClose(summary.mean, 0.5, 1e-15, 'mean');
    assertClose(summary.stderr, Math.sqrt(1 / 12), 1e-15, 'stderr');
    assertClose(summary.ci_high, 0.5 + T975_DF2 * Math.sqrt(1 / 12), 1e-12, 'ci_high, t with G − 1 = 2 df');
  });

  it('matches a hand-worked example with unequal cluster sizes', () => {
    // A [1], B [0, 0, 1]: N = 4, x̄ = 0.5; residual sums A 0.5, B −0.5 − 0.5 + 0.5 = −0.5;
    // SE² = (2/1)·(0.25 + 0.25)/16 = 1/16, SE = 0.25.
    assertClose(summarize([[1], [0, 0, 1]]).stderr, 0.25, 1e-15, 'stderr');
  });

  it('matches the sandwich estimator computed directly (numpy)', () => {
    // numpy: X = ones((N, 1)); V = (X'X)⁻¹ · Σ_g (X_g' u_g)² · (X'X)⁻¹ · G/(G−1), u = x − x̄ (Stata's
    // `regress x, vce(cluster case)` for a constant): N = 22, G = 10, x̄ = 0.5727272727272728,
    // √V = 0.09554801651919985.
    const cases = [
      [0.9, 0.7, 0.8],
      [0.2],
      [0.5, 0.6],
      [1, 1, 0, 1],
      [0.3, 0.35],
      [0.75],
      [0.1, 0, 0.2],
      [0.95, 0.9],
      [0.4],
      [0.65, 0.6, 0.7],
    ];
    const summary = summarize(cases, 1);
    assertClose(summary.mean, 0.5727272727272728, 1e-15, 'mean');
    assertClose(summary.stderr, 0.09554801651919985, 1e-14, 'stderr');
    assertClose(
      summary.ci_low,
      0.5727272727272728 - 2.262157162798205 * 0.09554801651919985,
      1e-12,
      'ci_low, t(0.975, 9)',
    );
    // Half-width 0.216 > 0.1 of the 0–1 range: too wide to mean anything.
    assert.equal(summary.too_wide, true);
  });
});

describe('MeanAccumulator: edges and invariants', () => {
  it('says null, not NaN, where nothing can be computed', () => {
    const none = summarize([]);
    assert.deepEqual([none.mean, none.stderr, none.ci_low, none.mde], [null, null, null, null]);
    const one = summarize([[0.4, Number.NaN]]);
    assert.equal(one.mean, 0.4);
    assert.equal(one.stderr, null);
    assert.equal(one.observations, 1, 'a NaN is not a score');
  });

  it('gives a zero-width interval when every score is equal', () => {
    const summary = summarize(Array.from({ length: 20 }, () => [0.7, 0.7]));
    assertClose(summary.stderr, 0, 1e-15, 'stderr');
    assert.equal(summary.too_wide, false);
  });

  it('a large, tight run is not too wide (seeded)', () => {
    const random = seededRandom(16_10);
    const summary = summarize(
      Array.from({ length: 2000 }, () => [random() < 0.7 ? 1 : 0]),
      1,
    );
    // SE ≈ √(0.21/2000) ≈ 0.0102, half-width ≈ 0.02 < 0.1.
    assert.equal(summary.too_wide, false);
  });

  it('the interval contains the mean and widens with clustering of equal scores (seeded property)', () => {
    const random = seededRandom(16_11);
    for (let run = 0; run < 200; run++) {
      const cases = Array.from({ length: 2 + Math.floor(random() * 60) }, () =>
        Array.from({ length: 1 + Math.floor(random() * 5) }, () =>
          random() < 0.2 ? Math.round(random()) : random() * 100,
        ),
      );
      const summary = summarize(cases);
      assert.ok(summary.ci_low !== null && summary.ci_high !== null && summary.mean !== null);
      assert.ok(
        summary.ci_low <= summary.mean && summary.mean <= summary.ci_high,
        `run ${run}: ${summary.ci_low} ≤ ${summary.mean} ≤ ${summary.ci_high}`,
      );
      // Repeating every case's single score k times changes no information: the clustered SE of the
      // repeated run equals the SE of the run with one score per case.
      const single = cases.map((scores) => [scores[0] ?? 0]);
      const repeated = single.map(([score]) => [score ?? 0, score ?? 0, score ?? 0]);
      assertClose(
        summarize(repeated).stderr,
        summarize(single).stderr ?? Number.NaN,
        1e-9,
        `run ${run}: repeated trials`,
      );
    }
  });
});
