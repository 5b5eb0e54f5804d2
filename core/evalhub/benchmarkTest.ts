import type { Json } from '../case';
import { numericMetric } from './numericMetric';
import type { BenchmarkTest, ResolvedBenchmark } from './types';

/** A benchmark's test, or why EvalHub omits it (the reason a person reads instead of a silent drop). */
export type BenchmarkOutcome =
  | { readonly test: BenchmarkTest; readonly omitted?: undefined }
  | { readonly test?: undefined; readonly omitted: string };

/**
 * EvalHub's `results.benchmarks[].test` (seed 003, "How each benchmark's test is calculated"): the
 * resolved primary metric looked up exactly in the reported metrics map, cast by type (JSON numbers
 * only), compared with the resolved threshold: `>=`, or `<=` with lower_is_better (ties pass both
 * ways). No metric, a missing or non-numeric value, or no threshold: no test, and the reason says which.
 */
export function benchmarkTest(
  resolved: ResolvedBenchmark,
  metrics: { readonly [name: string]: Json },
): BenchmarkOutcome {
  const metric = resolved.metric;
  if (metric === undefined || metric === '')
    return {
      omitted: `no primary metric: neither the benchmark's config nor its provider's defaults set primary_score.metric`,
    };
  const value = numericMetric(Object.hasOwn(metrics, metric) ? metrics[metric] : undefined);
  if (!value.ok) return { omitted: `the primary metric "${metric}" is ${value.seen}` };
  if (resolved.threshold === undefined)
    return {
      omitted: `no threshold: neither the benchmark's config nor its provider's defaults set pass_criteria.threshold`,
    };
  const pass = resolved.lowerIsBetter ? value.value <= resolved.threshold : value.value >= resolved.threshold;
  return { test: { primary_score: value.value, primary_score_metric: metric, threshold: resolved.threshold, pass } };
}
