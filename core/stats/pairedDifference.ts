import type { DeltaSummary } from './types';
import { minimumDetectableEffect } from './power';
import { ALPHA } from './rules';
import { studentTQuantile, studentTTwoSidedTail } from './studentT';

/** A delta summary and the raw two-sided p-value of its test (null when there is none). */
export interface PairedResult {
  readonly delta: DeltaSummary;
  readonly p_value_raw: number | null;
}

/** The mean of one case's finite scores (its trials), or undefined when it has none. */
export function caseMean(scores: readonly number[]): number | undefined {
  let sum = 0;
  let count = 0;
  for (const score of scores) {
    if (!Number.isFinite(score)) continue;
    sum += score;
    count++;
  }
  return count === 0 ? undefined : sum / count;
}

/**
 * The paired comparison of continuous scores over the cases two runs share. Each case contributes
 * d = (mean of its candidate trials) − (mean of its baseline trials): averaging a case's trials first
 * makes the case the unit, as clustering does for one run (Miller 2024, on paired differences and on
 * resampling). Then, over the n cases,
 *   delta = d̄,  SE = s_d/√n,  95% CI = d̄ ± t(0.975, n−1)·SE,
 *   p = P(|T_{n−1}| ≥ |d̄/SE|)  (the paired t test; Student 1908; any statistics text, e.g. Moore,
 *   McCabe & Craig, "Introduction to the Practice of Statistics", §7.1 "matched pairs t procedures").
 * Chosen over a paired bootstrap: it needs only running sums (Welford's update, so memory stays
 * constant for 100,000 cases), it is deterministic without a seed, and with the tens to thousands of
 * cases of an eval the CLT makes d̄ close to normal even for bounded scores.
 * When every d is equal (s_d = 0) there is no spread to test against: p is 1 if d̄ = 0, else 0.
 */
export class PairedDifferenceAccumulator {
  private n = 0;
  private mean = 0;
  /** Σ(d − d̄)², kept by Welford's update (Welford 1962, Technometrics 4(3):419–420). */
  private squares = 0;

  /**
   * Adds a case that both runs have and returns its difference, candidate − baseline (the per-case
   * delta a report shows); a case with no finite score on either side is skipped (undefined).
   */
  addCase(baselineScores: readonly number[], candidateScores: readonly number[]): number | undefined {
    const baseline = caseMean(baselineScores);
    const candidate = caseMean(candidateScores);
    if (baseline === undefined || candidate === undefined) return undefined;
    const difference = candidate - baseline;
    this.addDifference(difference);
    return difference;
  }

  /** Adds one case's difference, candidate − baseline. */
  addDifference(difference: number): void {
    if (!Number.isFinite(difference)) return;
    this.n++;
    const step = difference - this.mean;
    this.mean += step / this.n;
    this.squares += step * (difference - this.mean);
  }

  result(): PairedResult {
    return pairedFromMoments(this.n, this.mean, this.squares);
  }
}

/** The paired summary and t test from n, the mean difference and Σ(d − d̄)². */
export function pairedFromMoments(n: number, mean: number, squares: number): PairedResult {
  if (n === 0)
    return { delta: { n, mean: null, stderr: null, ci_low: null, ci_high: null, mde: null }, p_value_raw: null };
  if (n < 2) return { delta: { n, mean, stderr: null, ci_low: null, ci_high: null, mde: null }, p_value_raw: null };
  const df = n - 1;
  const stderr = Math.sqrt(Math.max(0, squares) / df / n);
  const half = studentTQuantile(1 - ALPHA / 2, df) * stderr;
  const p_value_raw = stderr > 0 ? studentTTwoSidedTail(mean / stderr, df) : mean === 0 ? 1 : 0;
  return {
    delta: { n, mean, stderr, ci_low: mean - half, ci_high: mean + half, mde: minimumDetectableEffect(stderr, df) },
    p_value_raw,
  };
}
