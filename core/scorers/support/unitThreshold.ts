import type { Json } from '../../case';
import type { OptionIssue } from '../scorer';

/**
 * The pass mark of a scorer whose score lies in 0–1: the configured `threshold`, else the scorer's
 * default, with `lower_is_better`. A threshold outside 0–1 could never mean anything on that scale,
 * so it is refused when the config loads.
 */
export function unitThreshold(
  options: { readonly [key: string]: Json },
  fallback: number,
  key: string,
): { readonly ok: true; readonly threshold: number; readonly lowerIsBetter: boolean } | { readonly ok: false; readonly issue: OptionIssue } {
  const given = options['threshold'];
  const threshold = typeof given === 'number' ? given : fallback;
  if (threshold < 0 || threshold > 1) {
    return { ok: false, issue: { path: ['threshold'], message: `the threshold must lie between 0 and 1: ${key} scores from 0 to 1` } };
  }
  return { ok: true, threshold, lowerIsBetter: options['lower_is_better'] === true };
}

/** Whether a score reaches the pass mark, as the runner decides it (EvalHub: ties pass). */
export function meets(score: number, mark: { readonly threshold: number; readonly lowerIsBetter: boolean }): boolean {
  return mark.lowerIsBetter ? score <= mark.threshold : score >= mark.threshold;
}

/** Refuses a threshold off the 0–100 scale of EvalBench's match scorers. */
export function thresholdOnPercentScale(threshold: number | undefined, key: string): OptionIssue | undefined {
  if (threshold === undefined || (threshold >= 0 && threshold <= 100)) return undefined;
  return { path: ['threshold'], message: `the threshold must lie between 0 and 100: ${key} scores from 0 to 100 (EvalBench's scale)` };
}
