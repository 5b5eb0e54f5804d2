/**
 * A run's figures folded from its finished cases, as a run folds them while it runs (core/runner/run.ts):
 * counts by case status, missing-credential skips, per-scorer aggregates with their statistics, the
 * job test. `evallens merge` folds the shards' cases in dataset order; a resumed run folds its whole
 * folder, what ran before the interruption and what ran after.
 */
import type { JobTest, ScorerAggregate } from '../core/report/report';
import type { ScorerResult } from '../core/result';
import type { CaseStatus, RunSummary, ScorerInfo } from '../core/runner/events';
import { ScorerStatistics } from '../core/runner/scorerStatistics';
import { Aggregator } from '../shared/aggregate/aggregator';

/** Distinct missing-credential reasons a summary keeps, as a run keeps them. */
const MAX_MISSING_REASONS = 5;

export class RunFold {
  private readonly aggregator: Aggregator;
  private readonly statistics = new ScorerStatistics();
  private readonly counts: Record<CaseStatus, number> = { passed: 0, failed: 0, errored: 0, skipped: 0 };
  private readonly missing = { results: 0, reasons: new Set<string>() };

  constructor(scorers: readonly ScorerInfo[], jobThreshold: number) {
    this.aggregator = new Aggregator(scorers, jobThreshold);
  }

  addCase(status: CaseStatus, results: readonly ScorerResult[]): void {
    for (const result of results) {
      if (result.status === 'skipped' && result.details?.['missing_credentials'] === true) {
        this.missing.results++;
        if (this.missing.reasons.size < MAX_MISSING_REASONS) this.missing.reasons.add(result.reason);
      }
      this.aggregator.add(result);
    }
    this.statistics.addCase(results);
    this.counts[status]++;
  }

  summary(): RunSummary {
    const { counts, missing } = this;
    return {
      ...counts,
      total: counts.passed + counts.failed + counts.errored + counts.skipped,
      ...(missing.results === 0
        ? {}
        : { missingCredentials: { results: missing.results, reasons: [...missing.reasons] } }),
    };
  }

  scorers(): { readonly scorers: ScorerAggregate[]; readonly jobTest?: JobTest } {
    const scorers = this.statistics.withStatistics(this.aggregator.scorerAggregates());
    const jobTest = this.aggregator.jobTest(scorers);
    return jobTest === undefined ? { scorers } : { scorers, jobTest };
  }
}
