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

/**
 * What the figures read of a result: its scorer, status and score; a skipped result's reason and
 * details (a missing credential), and the details of a scorer weighted by case. A merge reads these
 * from the front of a stored line instead of parsing it whole (cli/runFolderCases.ts).
 */
export type FoldResult = Pick<ScorerResult, 'scorer' | 'status' | 'score'> &
  Partial<Pick<ScorerResult, 'reason' | 'details'>>;

/** Distinct missing-credential reasons a summary keeps, as a run keeps them. */
const MAX_MISSING_REASONS = 5;

export class RunFold {
  private readonly aggregator: Aggregator;
  private readonly statistics = new ScorerStatistics();
  private readonly counts: Record<CaseStatus, number> = { passed: 0, failed: 0, errored: 0, skipped: 0 };
  private readonly missing = { results: 0, reasons: new Set<string>() };
  /** Scorers whose results' details the job score reads (weighted by case). */
  private readonly byCase: ReadonlySet<string>;

  constructor(scorers: readonly ScorerInfo[], jobThreshold: number) {
    this.aggregator = new Aggregator(scorers, jobThreshold);
    this.byCase = new Set(scorers.filter((s) => s.jobScoreByCase === true).map((s) => s.name));
  }

  /** Whether the fold needs a result of this scorer whole (its details), not only scorer, status and score. */
  readonly needsWhole = (scorer: string): boolean => this.byCase.has(scorer);

  /** A case's results; skipped ones whole, and those `needsWhole` names. */
  addCase(status: CaseStatus, results: readonly FoldResult[]): void {
    for (const result of results) {
      if (result.status === 'skipped' && result.details?.['missing_credentials'] === true) {
        this.missing.results++;
        if (this.missing.reasons.size < MAX_MISSING_REASONS) this.missing.reasons.add(result.reason ?? '');
      }
      // The aggregator and the statistics read only the fields a FoldResult has (and details where whole).
      this.aggregator.add(result as ScorerResult);
    }
    this.statistics.addCase(results as readonly ScorerResult[]);
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
