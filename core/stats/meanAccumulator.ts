import type { MeanSummary } from './types';
import { minimumDetectableEffect } from './power';
import { ALPHA, isTooWide } from './rules';
import { studentTQuantile } from './studentT';

/**
 * The mean of a scorer's scores, its standard error and 95% confidence interval, from running sums:
 * add each case's trial scores as the case finishes, read the summary at the end. Memory is constant
 * whatever the number of cases.
 *
 * Standard error: cluster-robust with the cases as clusters (Miller 2024, "Adding Error Bars to
 * Evals", arXiv 2411.00640, on clustered standard errors; the sandwich estimator of a mean), with the
 * usual small-sample factor G/(G−1) (Stata's CR1; Cameron & Miller 2015, "A Practitioner's Guide to
 * Cluster-Robust Inference", J. Human Resources 50(2), §VI.A):
 *   SE² = G/(G−1) · Σ_c (Σ_{i∈c} (x_ic − x̄))² / N²
 * for G cases and N scores. With one score per case it is exactly the textbook s/√N, so one formula
 * serves runs with and without trials.
 *
 * Interval: x̄ ± t(0.975, G−1)·SE. Miller uses the normal z = 1.96, right for the hundreds of questions
 * of a typical eval; Student's t with G − 1 degrees of freedom (Cameron & Miller 2015, §VI.D) is the
 * same there (t(0.975, 500) = 1.9647) and is not falsely narrow for the small runs people also make.
 *
 * Running sums: with y = x − K (K the first score, so large means lose no digits), S_c = Σ_{i∈c} y and
 * n_c the case's trials, Σ_c (S_c − n_c·ȳ)² = ΣS_c² − 2ȳ·Σn_c·S_c + ȳ²·Σn_c².
 */
export class MeanAccumulator {
  private shift: number | undefined;
  private cases = 0;
  private observations = 0;
  private sum = 0;
  private sumClusterSquares = 0;
  private sumSizeTimesCluster = 0;
  private sumSizeSquares = 0;
  private clustered = false;

  /** Adds one case's scores (one per trial). Non-finite scores are not scores and are skipped. */
  addCase(scores: readonly number[]): void {
    let clusterSum = 0;
    let size = 0;
    for (const score of scores) {
      if (!Number.isFinite(score)) continue;
      this.shift ??= score;
      clusterSum += score - this.shift;
      size++;
    }
    if (size === 0) return;
    this.cases++;
    this.observations += size;
    this.sum += clusterSum;
    this.sumClusterSquares += clusterSum * clusterSum;
    this.sumSizeTimesCluster += size * clusterSum;
    this.sumSizeSquares += size * size;
    if (size > 1) this.clustered = true;
  }

  /** The summary; `range` (e.g. 1 for 0–1 scores) lets the small-sample rule judge the interval's width. */
  summary(range?: number): MeanSummary {
    const n = this.cases;
    const empty = { n, observations: this.observations, clustered: this.clustered, too_wide: true };
    if (n === 0 || this.shift === undefined)
      return { ...empty, mean: null, stderr: null, ci_low: null, ci_high: null, mde: null };
    const meanShifted = this.sum / this.observations;
    const mean = this.shift + meanShifted;
    if (n < 2) return { ...empty, mean, stderr: null, ci_low: null, ci_high: null, mde: null };
    const residualSquares =
      this.sumClusterSquares -
      2 * meanShifted * this.sumSizeTimesCluster +
      meanShifted * meanShifted * this.sumSizeSquares;
    // Rounding can leave a tiny negative where the exact value is 0 (every score equal).
    const variance = ((n / (n - 1)) * Math.max(0, residualSquares)) / (this.observations * this.observations);
    const stderr = Math.sqrt(variance);
    const df = n - 1;
    const half = studentTQuantile(1 - ALPHA / 2, df) * stderr;
    const ci_low = mean - half;
    const ci_high = mean + half;
    // The change detectable between two independent runs of this size and spread: the difference of
    // two such means has standard error √2·SE and 2(G−1) degrees of freedom (a paired comparison
    // usually does better).
    const mde = minimumDetectableEffect(Math.SQRT2 * stderr, 2 * df);
    return {
      n,
      observations: this.observations,
      mean,
      stderr,
      ci_low,
      ci_high,
      mde,
      clustered: this.clustered,
      too_wide: isTooWide(n, ci_low, ci_high, range),
    };
  }
}
