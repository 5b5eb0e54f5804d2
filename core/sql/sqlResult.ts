/**
 * What running one SQL statement gives: rows with their column names, or the database's error.
 * Rows are arrays in column order, never objects: column order matters to EvalBench's set_match, and
 * JavaScript objects would reorder integer-like column names.
 */
export type SqlValue = null | number | string | boolean;

export interface SqlRows {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly SqlValue[])[];
}

export type QueryOutcome =
  { readonly ok: true; readonly result: SqlRows } | { readonly ok: false; readonly error: string };

/** One query's run: its own outcome and, for DML/DDL, the outcome of the eval queries after it. */
export interface QueryRun {
  readonly query: QueryOutcome;
  /** The eval queries' results (EvalBench's eval_result), when the case declares eval queries. */
  readonly evalQueries?: readonly QueryOutcome[];
  /** Setup statements that failed (or were refused) and were rolled back while the run went on. */
  readonly setupErrors?: readonly string[];
  readonly durationMs: number;
}

/** What a NL2SQL case's scorers compare: the generated and the golden query, each run in isolation. */
export interface SqlExecution {
  readonly dialect: string;
  /** The generated SQL as recorded (the case's output), as EvalBench's scorers read it. */
  readonly generatedSql: string;
  /**
   * The generated SQL once sanitized as EvalBench does (EvalBench's `sanitized_sql`), before a DQL
   * item's first statement is taken from it; absent when the execution was recorded elsewhere.
   */
  readonly sanitizedSql?: string;
  /** The golden SQL as recorded (its first entry). */
  readonly goldenSql: string;
  readonly generated: QueryRun;
  readonly golden: QueryRun;
}

/** A query and what runs around it; every run leaves the database as it found it. */
export interface QueryPlan {
  readonly setup: readonly string[];
  readonly query: string;
  readonly evalQueries: readonly string[];
  readonly cleanup: readonly string[];
}

/**
 * A database that runs plans in isolation (per-case copy for SQLite, rolled-back transaction for
 * PostgreSQL and MySQL), following planRules.ts: setup and cleanup go through `guardPlan` (their transaction
 * control becomes savepoints), each setup statement runs under a savepoint of its own and a failing
 * one is rolled back and reported in `setupErrors`, and SQL under test may never end the transaction.
 */
export interface SqlEngine {
  readonly dialect: 'sqlite' | 'postgres' | 'mysql';
  run(plan: QueryPlan, options: { readonly timeoutMs: number; readonly signal?: AbortSignal }): Promise<QueryRun>;
  close(): Promise<void>;
}
