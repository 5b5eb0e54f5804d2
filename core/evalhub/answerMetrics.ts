import type { Json } from '../case';
import { inconclusive, type ScorerVerdict } from '../result';

/** A scorer process's `metrics` and `primary_metric`, or what is wrong with them. */
export type AnswerMetrics =
  | {
      readonly ok: true;
      readonly metrics?: { readonly [name: string]: Json };
      readonly primaryMetric?: string;
    }
  | { readonly ok: false; readonly message: string };

/**
 * Reads `metrics` (a map of metric names to values, passed through as reported: a non-numeric value
 * is kept and only matters if it is the primary metric) and `primary_metric` (the metric the scorer
 * names as its primary one, used when the config's entry names none) from a subprocess or
 * python_scorer answer. A `metrics` that is not a map is a mistake of the scorer, said as such.
 */
export function answerMetrics(answer: { readonly [key: string]: unknown }, noun: string): AnswerMetrics {
  const metrics = answer['metrics'];
  const primary = answer['primary_metric'];
  if (metrics !== undefined && (metrics === null || typeof metrics !== 'object' || Array.isArray(metrics)))
    return {
      ok: false,
      message: `${noun}'s "metrics" must be a map of metric names to values (e.g. {"acc": 0.81}), and it is ${metrics === null ? 'null' : Array.isArray(metrics) ? 'a list' : `a ${typeof metrics}`}`,
    };
  if (primary !== undefined && (typeof primary !== 'string' || primary === ''))
    return { ok: false, message: `${noun}'s "primary_metric" must name a metric (a non-empty string)` };
  return {
    ok: true,
    ...(metrics === undefined ? {} : { metrics: metrics as { readonly [name: string]: Json } }),
    ...(primary === undefined ? {} : { primaryMetric: primary }),
  };
}

/** A verdict with the answer's metrics attached (the runner picks the primary one). */
export function withMetrics(verdict: ScorerVerdict, read: AnswerMetrics): ScorerVerdict {
  if (!read.ok) return verdict;
  return {
    ...verdict,
    ...(read.metrics === undefined ? {} : { metrics: read.metrics }),
    ...(read.primaryMetric === undefined ? {} : { primaryMetric: read.primaryMetric }),
  };
}

/** An answer with metrics and no score: undecided until the primary metric (the config's or the scorer's) gives one. */
export function metricsOnly(
  read: AnswerMetrics,
  noun: string,
  details?: { readonly [key: string]: Json },
): ScorerVerdict {
  return withMetrics(
    inconclusive(
      `no test: ${noun} reported metrics and no "score", and no primary metric names one (set primary_score.metric on the entry)`,
      details,
    ),
    read,
  );
}
