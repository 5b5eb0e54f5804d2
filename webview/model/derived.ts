/**
 * Figures derived from the whole result list for the toolbar and the detail pane, memoized on the
 * list's identity (the reducer replaces it exactly when it changes).
 */
import type { ResultStatus, ScorerResult } from '../../core/result';
import type { ScorerInfo } from '../../core/runner/events';

export interface ResultCensus {
  readonly statusCounts: ReadonlyMap<ResultStatus, number>;
  /** The run's scorers in their order, then any other scorer name seen (e.g. `dataset` for unreadable records). */
  readonly scorers: readonly string[];
}

const censusMemo = new WeakMap<readonly ScorerResult[], WeakMap<readonly ScorerInfo[], ResultCensus>>();

export function census(results: readonly ScorerResult[], scorers: readonly ScorerInfo[]): ResultCensus {
  const byScorers = censusMemo.get(results) ?? new WeakMap<readonly ScorerInfo[], ResultCensus>();
  censusMemo.set(results, byScorers);
  const known = byScorers.get(scorers);
  if (known !== undefined) return known;
  const statusCounts = new Map<ResultStatus, number>();
  const names = scorers.map((s) => s.name);
  const seen = new Set(names);
  for (const r of results) {
    statusCounts.set(r.status, (statusCounts.get(r.status) ?? 0) + 1);
    if (!seen.has(r.scorer)) {
      seen.add(r.scorer);
      names.push(r.scorer);
    }
  }
  const value = { statusCounts, scorers: names };
  byScorers.set(scorers, value);
  return value;
}

/** Every result of one case, in arrival order. */
export function resultsOfCase(results: readonly ScorerResult[], caseId: string): ScorerResult[] {
  return results.filter((r) => r.caseId === caseId);
}
