/**
 * The fixed choices every statistic in a report shares, in one place so docs/statistics.md and the
 * code cannot drift apart.
 */

/** Two-sided significance level of every interval and test. */
export const ALPHA = 0.05;
/** Power the minimum detectable effect is computed for. */
export const POWER = 0.8;

/**
 * The small-sample rule, part 1: with fewer than this many cases (clusters) an interval is too wide
 * to mean anything and a comparison says `not enough data`. Below 10 the standard error is itself
 * estimated from fewer than 10 numbers: its relative error is about 1/√(2(n−1)) ≥ 24% for normal data
 * and worse for the skewed, bounded scores evals produce, and cluster-robust standard errors are
 * known to be biased down with few clusters (Cameron & Miller 2015, §VI).
 */
export const MIN_CASES = 10;

/**
 * The small-sample rule, part 2: an interval whose half-width exceeds this share of the score's range
 * (±10 percentage points for a pass rate) cannot separate results that differ by the amounts model
 * comparisons care about: models on one eval commonly differ by a few points, so a ±10-point interval
 * cannot rank them.
 */
export const MAX_HALF_WIDTH_SHARE = 0.1;

/**
 * Whether an interval is too wide to mean anything: fewer than MIN_CASES cases, no interval at all, or
 * (when the score's range is known: 1 for pass rates, 100 for a 0–100 score) a half-width above
 * MAX_HALF_WIDTH_SHARE of that range.
 */
export function isTooWide(n: number, ciLow: number | null, ciHigh: number | null, range?: number): boolean {
  if (n < MIN_CASES || ciLow === null || ciHigh === null) return true;
  if (range === undefined || !(range > 0)) return false;
  return (ciHigh - ciLow) / 2 > MAX_HALF_WIDTH_SHARE * range;
}
