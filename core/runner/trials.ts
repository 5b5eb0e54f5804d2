import type { EvalCase, Json } from '../case';
import type { ScorerResult } from '../result';
import { caseTrialsSummary } from '../stats/passRate';

/** One trial of a case: the case as that trial saw it, or why the recording has no such trial. */
export type TrialCase =
  | { readonly ok: true; readonly case: EvalCase; readonly error?: string }
  | { readonly ok: false; readonly reason: string };

/**
 * The cases of trials 1..n. Without recorded `trials` every trial scores the case as it is (the
 * recorded output is scored n times, as EvalBench's scorers would). With them, trial t takes
 * `trials[t-1]`'s `output`, `trace` and `error`, falling back to the case's own for what it lacks; a
 * trial the recording does not have is an error for that trial (the dataset and the config disagree).
 * The objects are made once per case, so per-case caches (traces) hold across scorers.
 */
export function trialCases(evalCase: EvalCase, n: number): TrialCase[] {
  const recorded = evalCase.trials;
  if (recorded === undefined || recorded === null)
    return Array.from({ length: n }, () => ({ ok: true, case: evalCase }));
  if (!Array.isArray(recorded))
    return Array.from({ length: n }, () => ({
      ok: false,
      reason: "the case's `trials` must be a list of `{output, trace, error}` objects",
    }));
  const list = recorded as readonly Json[];
  return Array.from({ length: n }, (_, i): TrialCase => {
    const entry = list[i];
    if (entry === undefined)
      return {
        ok: false,
        reason: `the case records ${list.length} trial${list.length === 1 ? '' : 's'}, and num_trials asks for ${n}`,
      };
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry))
      return { ok: false, reason: `recorded trial ${i + 1} must be an object with output, trace or error` };
    const t = entry as { readonly [key: string]: Json };
    const trialCase: EvalCase = {
      ...evalCase,
      ...('output' in t ? { output: t['output'] } : {}),
      ...('trace' in t ? { trace: t['trace'] } : {}),
    };
    const error = t['error'];
    return typeof error === 'string' && error !== ''
      ? { ok: true, case: trialCase, error }
      : { ok: true, case: trialCase };
  });
}

/** How a case did across its trials: pass rate, pass@k and pass^k for k = 1..n. */
export interface TrialStats {
  readonly trials: number;
  readonly passed: number;
  readonly passRate: number;
  /** passAtK[k-1]: the chance that at least one of k trials drawn from the n passes (unbiased estimator). */
  readonly passAtK: readonly number[];
  /** passHatK[k-1]: the chance that all k trials drawn from the n pass (τ-bench's pass^k). */
  readonly passHatK: readonly number[];
  // Issue 16's fields; absent from runs of EvalLens before them.
  /** `passRate` under issue 16's name, with its Wilson 95% interval. */
  readonly pass_rate?: number;
  readonly pass_rate_ci_low?: number | null;
  readonly pass_rate_ci_high?: number | null;
  /** Some trials passed and some did not. */
  readonly flaky?: boolean;
  /** The case's trials meet `pass_criteria.min_pass_rate` (every trial when the config sets none). */
  readonly meets_min_pass_rate?: boolean;
}

/**
 * A trial passes when every result of it passed or was measured, and at least one did; results of
 * across-trials scorers (trial 0) are not part of any trial. `minPassRate` is the config's
 * `pass_criteria.min_pass_rate` (1 when it sets none: every trial must pass).
 */
export function trialStats(results: readonly ScorerResult[], n: number, minPassRate = 1): TrialStats {
  // One pass over the results, then one over the trials: linear in both.
  const seen = new Uint8Array(n + 1);
  const spoiled = new Uint8Array(n + 1);
  for (const r of results) {
    if (r.trial < 1 || r.trial > n) continue;
    seen[r.trial] = 1;
    if (r.status !== 'pass' && r.status !== 'measured') spoiled[r.trial] = 1;
  }
  let passed = 0;
  for (let t = 1; t <= n; t++) if (seen[t] === 1 && spoiled[t] === 0) passed++;
  const passAtK: number[] = [];
  const passHatK: number[] = [];
  // C(n−p, k)/C(n, k) and C(p, k)/C(n, k) step from k−1 to k by one factor each, so every k costs
  // O(1) (a binomial per k would make this quadratic in the trials).
  let allFail = 1;
  let allPass = 1;
  for (let k = 1; k <= n; k++) {
    allFail *= Math.max(0, n - passed - k + 1) / (n - k + 1);
    allPass *= Math.max(0, passed - k + 1) / (n - k + 1);
    passAtK.push(1 - allFail);
    passHatK.push(allPass);
  }
  const rate = caseTrialsSummary(passed, n, minPassRate);
  const passRate = n === 0 ? 0 : passed / n;
  return {
    trials: n,
    passed,
    passRate,
    passAtK,
    passHatK,
    pass_rate: passRate,
    pass_rate_ci_low: rate.pass_rate_ci_low,
    pass_rate_ci_high: rate.pass_rate_ci_high,
    flaky: rate.flaky,
    meets_min_pass_rate: rate.passes,
  };
}

/** Binomial coefficient C(n, k) as a float (0 when k > n), computed as a running product. */
export function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let value = 1;
  for (let i = 1; i <= k; i++) value = (value * (n - k + i)) / i;
  return value;
}
