import type { ResultStatus, ScorerResult } from '../result';
import type { CaseStatus, RunSummary, ScorerInfo } from '../runner/events';
import type { TrialStats } from '../runner/trials';
import type { Spend } from '../judge/budget';

/** A 1-based place in a file, as reports and people count. */
export interface ReportLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

export interface ReportCase {
  readonly id: string;
  readonly index: number;
  readonly status: CaseStatus;
  readonly durationMs: number;
  readonly location: ReportLocation;
  /** Pass rate, pass@k and pass^k across the case's trials, when the run had more than one. */
  readonly trials?: TrialStats;
  /** Its input and expected value hashed (docs/compare.md): a comparison flags a case whose fingerprint changed. */
  readonly fingerprint?: string;
}

/** EvalHub's benchmark test, per scorer: the scorer's mean score against its threshold. */
export interface ScorerTest {
  readonly primary_score: number;
  readonly primary_score_metric: 'mean_score';
  readonly threshold: number;
  readonly lower_is_better: boolean;
  readonly pass: boolean;
}

export interface ScorerAggregate extends ScorerInfo {
  /** Results by status. */
  readonly counts: { readonly [status in ResultStatus]: number };
  /** Mean of the numeric scores of `pass`, `fail` and `measured` results, on the native scale; absent when there are none. */
  readonly meanScore?: number;
  /** Share of decided results that passed (0–1); absent when none decided. */
  readonly passRate?: number;
  readonly test?: ScorerTest;
  // Error bars (issue 16; docs/statistics.md). Present in reports of runs, with a mean or pass rate;
  // a figure that cannot be computed (one case) is null.
  /** Standard error of `meanScore`: clustered by case when a case has several trials. */
  readonly stderr?: number | null;
  /** 95% interval of `meanScore` (Student's t with cases − 1 degrees of freedom). */
  readonly ci_low?: number | null;
  readonly ci_high?: number | null;
  /** The smallest change of `meanScore` a rerun of this size detects (80% power, α = 0.05). */
  readonly mde?: number | null;
  /** Cases with a score (the clusters). */
  readonly cases?: number;
  /** Whether `stderr` is the clustered one (some case had several scored trials). */
  readonly clustered?: boolean;
  /** The small-sample rule: fewer than 10 cases, or a half-width above 10% of the scale. */
  readonly too_wide?: boolean;
  /** Wilson 95% interval of `passRate`. */
  readonly pass_rate_ci_low?: number | null;
  readonly pass_rate_ci_high?: number | null;
  readonly pass_rate_too_wide?: boolean;
}

/** EvalHub's job test: the weighted mean of normalized scorer scores against the job threshold. */
export interface JobTest {
  readonly score: number;
  readonly threshold: number;
  readonly pass: boolean;
}

/** The JSON report (`schemas/report.schema.json`) the CLI writes and the results view reads. */
export interface Report {
  readonly version: 1;
  readonly tool: { readonly name: 'evallens'; readonly version: string };
  readonly runId: string;
  readonly configFile: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly durationMs: number;
  readonly cancelled: boolean;
  readonly numTrials: number;
  readonly summary: RunSummary;
  readonly job: { readonly test?: JobTest };
  readonly scorers: readonly ScorerAggregate[];
  readonly cases: readonly ReportCase[];
  readonly results: readonly ScorerResult[];
  /** Present when the report was read from another tool's results (EvalBench's CSV files), not run here. */
  readonly imported?: ImportedResults;
  /** What the run's judges spent and what its budget skipped (core/judge/budget.ts); absent when no scorer judges. */
  readonly spend?: Spend;
}

/** One row of EvalBench's summary.csv, as EvalBench computed it (not re-scored). */
export interface ImportedSummaryRow {
  readonly metric: string;
  readonly metricScore?: number;
  readonly correct?: number;
  readonly total?: number;
}

/** One EvalBench job folder (`<output_directory>/<job_id>/`). */
export interface ImportedJob {
  readonly jobId: string;
  readonly folder: string;
  /** EvalBench's `run_time` as written (its machine's local clock; no time zone is recorded). */
  readonly runTime?: string;
  readonly summary: readonly ImportedSummaryRow[];
  /** configs.csv's `config` → `value`, credentials masked. */
  readonly config: readonly { readonly key: string; readonly value: string }[];
}

/** Where an imported report's numbers come from. */
export interface ImportedResults {
  readonly format: 'evalbench-csv';
  /** What was taken as it is and what EvalLens derived. */
  readonly note: string;
  readonly jobs: readonly ImportedJob[];
}

/**
 * A finished run, as reporters read it. The head is small; cases and results are streamed from the
 * run's folder, so writing a report of 500,000 results does not hold them all in memory.
 */
export interface ReportSource {
  readonly head: Omit<Report, 'cases' | 'results'>;
  cases(): AsyncIterable<ReportCase>;
  results(): AsyncIterable<ScorerResult>;
  /**
   * The same cases and results as JSON text, one per item, when the source has them serialized
   * already (the run folder's JSON lines): writing a report then copies text instead of parsing it
   * and serializing it again.
   */
  readonly lines?: { cases(): AsyncIterable<string>; results(): AsyncIterable<string> };
  /** The path of this report already written as JSON (the run folder's `report.json`), once it is. */
  readonly file?: string;
}
