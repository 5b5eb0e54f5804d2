/**
 * Holm's step-down adjustment (Holm 1979, "A simple sequentially rejective multiple test procedure",
 * Scand. J. Statist. 6:65–70): with m p-values sorted ascending, the i-th (from 1) is multiplied by
 * m − i + 1, then made non-decreasing along that order and capped at 1. Rejecting where the adjusted
 * p < α keeps the chance of any false "regressed" or "improved" across the scorers at α or below,
 * whatever their dependence, and is never less powerful than Bonferroni. The result is in the input's
 * order; equals R's `p.adjust(p, "holm")`.
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, index) => ({ p, index })).sort((a, b) => a.p - b.p || a.index - b.index);
  const adjusted = new Array<number>(m).fill(1);
  let running = 0;
  order.forEach(({ p, index }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[index] = running;
  });
  return adjusted;
}
