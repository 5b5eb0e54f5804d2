/**
 * The pass mark of a scorer whose score lies in 0–1: the configured `threshold`, else the scorer's
 * default, with `lower_is_better`. A threshold off the scale never reaches a scorer: the config load
 * refuses it against the scorer's declared scale (core/config/thresholdScale.ts).
 */
export function passMarkOf(
  options: { readonly threshold?: number; readonly lower_is_better: boolean },
  fallback: number,
): { readonly threshold: number; readonly lowerIsBetter: boolean } {
  return { threshold: options.threshold ?? fallback, lowerIsBetter: options.lower_is_better };
}

/** Whether a score reaches the pass mark, as the runner decides it (EvalHub: ties pass). */
export function meets(score: number, mark: { readonly threshold: number; readonly lowerIsBetter: boolean }): boolean {
  return mark.lowerIsBetter ? score <= mark.threshold : score >= mark.threshold;
}
