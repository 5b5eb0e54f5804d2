import type { ScorerResult } from '../result';
import type { ScoreScale } from '../scorers/scorer';
import type { SourceRange } from '../text/position';
import type { TrialStats } from './trials';

/** How one case ended: the worst of its results (error over fail over pass); `skipped` when nothing decided. */
export type CaseStatus = 'passed' | 'failed' | 'errored' | 'skipped';

/** A scorer instance as the run knows it. */
export interface ScorerInfo {
  /** The instance name results report under. */
  readonly name: string;
  readonly key: string;
  readonly origin: string;
  readonly scale: ScoreScale;
  readonly threshold?: number;
  readonly weight: number;
  readonly lowerIsBetter: boolean;
  /**
   * The scorer judges several items per case (binary_rubric_scorer): its results are named
   * `<name>_<index>`, one per item (`<name>` itself for a case with no items), and each such name
   * gets its own aggregate.
   */
  readonly itemized?: true;
  /** Each result is a benchmark weighted on its own in the job score (evalhub_benchmark; see ScorerDefinition). */
  readonly jobScoreByCase?: true;
}

export interface RunStartEvent {
  readonly type: 'run/start';
  readonly runId: string;
  readonly configFile: string;
  readonly startedAt: string;
  readonly scorers: readonly ScorerInfo[];
  readonly numTrials: number;
  /**
   * The config's job threshold (`pass_criteria.threshold`), so a consumer of the stream (the
   * extension's live job score) needs no config of its own. Absent from streams of older CLIs.
   */
  readonly jobThreshold?: number;
}

export interface CaseStartEvent {
  readonly type: 'case/start';
  readonly caseId: string;
  readonly index: number;
  readonly range: SourceRange;
}

export interface ResultEvent {
  readonly type: 'result';
  readonly result: ScorerResult;
}

export interface CaseEndEvent {
  readonly type: 'case/end';
  readonly caseId: string;
  readonly index: number;
  readonly range: SourceRange;
  readonly status: CaseStatus;
  readonly durationMs: number;
  /** Every result of the case (scorers × trials), so a reporter can write the case in one go. */
  readonly results: readonly ScorerResult[];
  /** How the case did across its trials; present when the run has more than one trial. */
  readonly trials?: TrialStats;
  /** The case's input and expected value hashed (core/compare/fingerprint.ts); absent when the case could not be read. */
  readonly fingerprint?: string;
}

export interface RunEndEvent {
  readonly type: 'run/end';
  readonly runId: string;
  readonly finishedAt: string;
  readonly durationMs: number;
  /** True when the run was cancelled: the cases that had not started are not in the counts. */
  readonly cancelled: boolean;
  readonly summary: RunSummary;
}

export interface RunSummary {
  readonly passed: number;
  readonly failed: number;
  readonly errored: number;
  readonly skipped: number;
  readonly total: number;
  /**
   * Judge results skipped because the judge's credentials are absent (an API key variable not set, no
   * Google application-default credentials), and what was missing; absent when there were none.
   */
  readonly missingCredentials?: MissingCredentials;
}

export interface MissingCredentials {
  readonly results: number;
  /** The distinct reasons (at most 5), as the results say them. */
  readonly reasons: readonly string[];
}

/** The runner's event stream; the CLI reporters and the extension consume the same one (as JSON lines). */
export type RunEvent = RunStartEvent | CaseStartEvent | ResultEvent | CaseEndEvent | RunEndEvent;
