import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { caseTrialsSummary, passRateSummary } from '../../../core/stats/passRate';
import { assertClose } from './close';

describe('passRateSummary', () => {
  it("carries the Wilson interval under the issue's names", () => {
    // 81 of 263: Newcombe (1998) Table II, Wilson 0.2553–0.3662 (scipy digits in wilson.test.ts).
    const summary = passRateSummary(81, 263);
    assertClose(summary.pass_rate, 81 / 263, 1e-15, 'pass_rate');
    assertClose(summary.pass_rate_ci_low, 0.2552885198782742, 1e-13, 'low');
    assertClose(summary.pass_rate_ci_high, 0.36620957698280004, 1e-13, 'high');
    // Half-width 0.0555 ≤ 0.1 and 263 ≥ 10 cases: meaningful.
    assert.equal(summary.too_wide, false);
  });

  it('applies the small-sample rule', () => {
    // 9 cases: below 10. 15 of 30: Wilson half-width ≈ 0.17 > 0.1.
    assert.equal(passRateSummary(9, 9).too_wide, true);
    assert.equal(passRateSummary(15, 30).too_wide, true);
    assert.equal(passRateSummary(0, 0).pass_rate, null);
  });
});

describe('caseTrialsSummary', () => {
  it('marks a case flaky when its trials disagree', () => {
    assert.equal(caseTrialsSummary(3, 5).flaky, true);
    assert.equal(caseTrialsSummary(5, 5).flaky, false);
    assert.equal(caseTrialsSummary(0, 5).flaky, false);
  });

  it('passes by min_pass_rate: at least that share of the trials', () => {
    assert.equal(caseTrialsSummary(8, 10, 0.8).passes, true, '8 of 10 meets 0.8');
    assert.equal(caseTrialsSummary(7, 10, 0.8).passes, false, '7 of 10 does not');
    // 0.7 × 10 = 7.000000000000001 in floating point; 7 of 10 still meets 0.7.
    assert.equal(caseTrialsSummary(7, 10, 0.7).passes, true, 'rounding does not ask for an 8th');
    assert.equal(caseTrialsSummary(9, 10).passes, false, 'without a rule every trial must pass');
    assert.equal(caseTrialsSummary(10, 10).passes, true);
    assert.equal(caseTrialsSummary(0, 0, 0).passes, false, 'no decided trial never passes');
  });

  it('gives the case its pass rate and Wilson interval', () => {
    // 1 of 1: low = 1/(1 + z²) with z = 1.959963984540054 (worked in wilson.test.ts).
    const summary = caseTrialsSummary(1, 1);
    assert.equal(summary.pass_rate, 1);
    assertClose(summary.pass_rate_ci_low, 1 / (1 + 1.959963984540054 ** 2), 1e-14, 'low');
    assert.equal(summary.pass_rate_ci_high, 1);
  });
});
