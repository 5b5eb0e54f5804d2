/**
 * Intervals clipped to what the score can be (docs/statistics.md, "Bounded scales"). A t interval is
 * symmetric about the mean, so on a bounded score with few cases it can run past the scale
 * ([−97.7, 217.7] for a 0–100 score over 3 cases): a range no run could produce. Where the scale is
 * known the reported ends are clipped to it; `too_wide` is judged on the interval before clipping, so
 * a clipped interval that was too wide still says so.
 */
export function clipToRange(
  low: number | null,
  high: number | null,
  min: number,
  max: number,
): { ci_low: number | null; ci_high: number | null } {
  return {
    ci_low: low === null ? null : Math.min(max, Math.max(min, low)),
    ci_high: high === null ? null : Math.min(max, Math.max(min, high)),
  };
}
