import type { ScorerVerdict } from '../result';
import { numericMetric } from './numericMetric';

/**
 * Makes a verdict's primary metric its score (EvalHub's `primary_score`): the entry's metric, else
 * the one the scorer named. The value must be a JSON number; anything else gives no score and no test
 * — an `inconclusive` verdict whose reason names the metric and what it was, so the drop is never
 * silent — and the verdict keeps its metrics map either way. The picked score is `measured`: the
 * runner's threshold rule then decides pass or fail, and without a threshold there is no test.
 * A verdict without a primary metric (or with only the scorer's and no metrics), or that did not
 * score (error, timeout, skipped), is returned as it is.
 */
export function withPrimaryMetric(verdict: ScorerVerdict, entryMetric: string | undefined): ScorerVerdict {
  const metric = entryMetric ?? verdict.primaryMetric;
  // The entry named a metric and the scorer reported none: that metric is missing, not the score.
  const metrics = verdict.metrics ?? (entryMetric === undefined ? undefined : {});
  if (metric === undefined || metrics === undefined) return verdict;
  const scored = ['pass', 'fail', 'measured', 'inconclusive'].includes(verdict.status);
  if (!scored) return verdict;
  const { primaryMetric: _named, score: _score, ...rest } = verdict;
  const value = numericMetric(Object.hasOwn(metrics, metric) ? metrics[metric] : undefined);
  if (!value.ok)
    return {
      ...rest,
      status: 'inconclusive',
      reason: `no test: the primary metric "${metric}" is ${value.seen}; left out of the job score (${verdict.reason})`,
    };
  return {
    ...rest,
    status: 'measured',
    score: value.value,
    reason: `primary metric ${metric} = ${String(value.value)} (${verdict.reason})`,
  };
}
