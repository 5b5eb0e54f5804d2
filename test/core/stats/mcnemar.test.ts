import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McNemarAccumulator, mcnemarFromPairs } from '../../../core/stats/mcnemar';
import { assertClose, assertRelative } from './close';

describe('exact McNemar', () => {
  it("matches Agresti's Prime Minister approval example", () => {
    // Agresti, "An Introduction to Categorical Data Analysis", 2nd ed., Table 10.1: of 1600 people, 794
    // approved both times, 570 disapproved both times, 150 approve → disapprove (our "regressed"),
    // 86 disapprove → approve ("fixed"). Agresti: difference of proportions −0.04, its SE
    // √{[(p12 + p21) − (p12 − p21)²]/n} = √((0.1475 − 0.0016)/1600) = 0.0095, 95% CI (−0.06, −0.02).
    // We estimate the variance with n − 1 (the paired t convention): √(233.44/1599/1600) = 0.009552…,
    // where Σ(d − d̄)² = Σd² − (Σd)²/n = 236 − 64²/1600 = 233.44.
    // p: scipy.stats.binomtest(86, 236).pvalue = 3.7159361395713866e-05.
    const { delta, p_value_raw } = mcnemarFromPairs({ bothPassed: 794, bothFailed: 570, regressed: 150, fixed: 86 });
    assert.equal(delta.n, 1600);
    assertClose(delta.mean, -0.04, 1e-15, 'delta');
    assertClose(delta.stderr, Math.sqrt(233.44 / 1599 / 1600), 1e-15, 'stderr');
    // Agresti's n-denominator SE, 0.0095492…, differs from ours by the factor √(1600/1599), 3e-6 here.
    assertClose(delta.stderr, Math.sqrt((0.1475 - 0.0016) / 1600), 5e-6, "Agresti's SE");
    assertClose(delta.ci_low, -0.06, 5e-3, "Agresti's CI low to 2 decimals");
    assertClose(delta.ci_high, -0.02, 5e-3, "Agresti's CI high to 2 decimals");
    assertRelative(p_value_raw, 3.7159361395713866e-5, 1e-11, 'p');
  });

  it('counts pairs case by case', () => {
    // 10 cases: 6 passed both, 1 failed both, 3 regressed, 0 fixed.
    // p = binom.test(0, 3) = 2·(1/8) = 0.25 (R); delta = −3/10;
    // Σ(d − d̄)² = 3 − 9/10 = 2.1, SE = √(2.1/9/10) = √(7/300).
    const accumulator = new McNemarAccumulator();
    for (let i = 0; i < 6; i++) assert.equal(accumulator.addCase(true, true), 'unchanged_pass');
    assert.equal(accumulator.addCase(false, false), 'unchanged_fail');
    for (let i = 0; i < 3; i++) assert.equal(accumulator.addCase(true, false), 'regressed');
    assert.deepEqual(accumulator.pairs(), { bothPassed: 6, bothFailed: 1, regressed: 3, fixed: 0 });
    const { delta, p_value_raw } = accumulator.result();
    assertClose(delta.mean, -0.3, 1e-15, 'delta');
    assertClose(delta.stderr, Math.sqrt(7 / 300), 1e-15, 'stderr');
    assertClose(p_value_raw, 0.25, 1e-15, 'p');
  });

  it('names a fixed case', () => {
    assert.equal(new McNemarAccumulator().addCase(false, true), 'fixed');
  });

  it('says nothing without cases, and p = 1 without discordant pairs', () => {
    assert.equal(mcnemarFromPairs({ bothPassed: 0, bothFailed: 0, regressed: 0, fixed: 0 }).p_value_raw, null);
    assert.equal(mcnemarFromPairs({ bothPassed: 40, bothFailed: 10, regressed: 0, fixed: 0 }).p_value_raw, 1);
  });
});
