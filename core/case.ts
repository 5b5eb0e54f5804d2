import type { SqlExecution } from './sql/sqlResult';
import type { SourceRange } from './text/position';

/** A JSON value as read from a dataset. */
export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

/**
 * One evaluation case (`schemas/case.schema.json`). `output` is the recorded output of the system
 * under test; `expected` what it should have produced.
 */
export interface EvalCase {
  readonly id: string;
  readonly input?: Json;
  readonly output?: Json;
  readonly expected?: Json;
  readonly context?: Json;
  readonly trace?: Json;
  readonly metadata?: Json;
  /**
   * Recorded trials: one `{output?, trace?, error?}` per trial, for a dataset recorded with
   * `num_trials` > 1. Trial N scores `trials[N-1]`; a field it lacks falls back to the case's own.
   */
  readonly trials?: Json;
  /** NL2SQL: the generated and golden SQL as the run executed them, attached before scorers run. */
  readonly sql?: SqlExecution;
}

/** A case with where it came from, so results can point back at its line. */
export interface LocatedCase {
  readonly case: EvalCase;
  /** 0-based position of the case in its dataset. */
  readonly index: number;
  readonly range: SourceRange;
}

/** A dataset record that could not be read as a case. It becomes an `error` result; others still run. */
export interface CaseReadError {
  readonly id: string;
  readonly index: number;
  readonly range: SourceRange;
  readonly message: string;
}

export type DatasetRecord =
  { readonly ok: true; readonly value: LocatedCase } | { readonly ok: false; readonly error: CaseReadError };
