import type { Json } from './case';

/**
 * The statuses of one scorer's verdict on one case. A scorer that cannot decide never answers
 * `fail`: a bad dataset value or option is `error`, an undefined metric `inconclusive`, a case whose
 * recording lacks what the scorer reads `unsupported`. `measured` is a figure with no pass mark (a
 * count or a latency with no threshold): it neither passes nor fails until a threshold is set.
 */
export const RESULT_STATUSES = [
  'pass',
  'fail',
  'error',
  'inconclusive',
  'unsupported',
  'timeout',
  'skipped',
  'measured',
] as const;
export type ResultStatus = (typeof RESULT_STATUSES)[number];

/** What a scorer returns. Reasons carry no payload text; payload-derived detail goes in `details`. */
export interface ScorerVerdict {
  readonly status: ResultStatus;
  /** On the scorer's native scale (0–1 for EvalBook keys, 0–100 for EvalBench keys, raw counts). */
  readonly score?: number;
  readonly reason: string;
  readonly details?: { readonly [key: string]: Json };
  /**
   * Set by a scorer that judges several items of a case (binary_rubric_scorer: one per rubric
   * criterion): the runner reports one result per part, named `<instance>_<index>`, instead of this
   * verdict (whose status and reason then only summarize).
   */
  readonly parts?: readonly ScorerVerdictPart[];
  /**
   * A map of named metrics beside the score (EvalHub's benchmark metrics; a subprocess or python
   * scorer's `metrics`). With a primary metric (the entry's `primary_score.metric`, else the scorer's
   * `primaryMetric`) the runner makes that metric the score (core/evalhub/primaryMetric.ts).
   */
  readonly metrics?: { readonly [name: string]: Json };
  /** The metric the scorer itself names as primary, when the entry names none. Not reported. */
  readonly primaryMetric?: string;
}

/** One item's verdict of an itemized scorer; `index` names its result (`<instance>_<index>`). */
export interface ScorerVerdictPart extends Omit<ScorerVerdict, 'parts'> {
  readonly index: number;
}

/** One result per case × scorer × trial, as the runner reports it. */
export interface ScorerResult extends ScorerVerdict {
  readonly caseId: string;
  /** The scorer instance's name (its key, or the `name` given in the list form). */
  readonly scorer: string;
  readonly trial: number;
  /** Whether this result passed; absent when the scorer has no pass decision (a count with no threshold). */
  readonly passed?: boolean;
  readonly durationMs: number;
  /** The verdict was the result cache's, kept from an earlier run; the scorer was not called (docs/cache.md). */
  readonly cached?: true;
}

export function pass(reason: string, score = 1, details?: ScorerVerdict['details']): ScorerVerdict {
  return details === undefined ? { status: 'pass', score, reason } : { status: 'pass', score, reason, details };
}

export function fail(reason: string, score = 0, details?: ScorerVerdict['details']): ScorerVerdict {
  return details === undefined ? { status: 'fail', score, reason } : { status: 'fail', score, reason, details };
}

export function error(reason: string, details?: ScorerVerdict['details']): ScorerVerdict {
  return details === undefined ? { status: 'error', reason } : { status: 'error', reason, details };
}

/** A figure with no pass mark of its own (a count, a latency); a configured threshold decides it. */
export function measured(reason: string, score: number, details?: ScorerVerdict['details']): ScorerVerdict {
  return details === undefined ? { status: 'measured', score, reason } : { status: 'measured', score, reason, details };
}

/** The case's recording lacks what the scorer reads (no trace, arguments not kept). */
export function unsupported(reason: string, details?: ScorerVerdict['details']): ScorerVerdict {
  return details === undefined ? { status: 'unsupported', reason } : { status: 'unsupported', reason, details };
}

export function inconclusive(reason: string, details?: ScorerVerdict['details']): ScorerVerdict {
  return details === undefined ? { status: 'inconclusive', reason } : { status: 'inconclusive', reason, details };
}
