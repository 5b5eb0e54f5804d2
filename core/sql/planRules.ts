import type { QueryOutcome, QueryPlan } from './sqlResult';
import { findTransactionControl, type SqlDialect } from './sqlStatements';

/**
 * What both engines do with a plan, in one place so that SQLite and PostgreSQL answer alike:
 *
 * 1. `setup` statements run in order. One that fails (or is refused, or exceeds the time limit) makes
 *    the query's outcome an error naming it; the query and the eval queries do not run.
 * 2. The query runs under a savepoint. When it fails, its partial effects are rolled back to the
 *    savepoint and the eval queries still run, on the database as setup left it.
 * 3. Each eval query runs under its own savepoint; one that fails does not stop the next. One that
 *    exceeds the time limit stops the rest (they are reported as not run).
 * 4. `cleanup` statements run; their errors are ignored, since nothing they could fix survives:
 *    the per-case copy is dropped (SQLite) or the transaction rolled back (PostgreSQL).
 *
 * SQL that controls transactions (`BEGIN`, `COMMIT`, `ROLLBACK`, `SAVEPOINT`, …) is refused wherever
 * it appears in a plan: on PostgreSQL a `COMMIT` would make the changes under test permanent, and
 * SQLite refuses it too so that a dataset scores the same on both engines.
 *
 * The limit is per statement, as PostgreSQL's `statement_timeout` is: each statement of setup, query,
 * eval queries and cleanup has `timeoutMs` of its own.
 */

/** One piece of SQL of a plan, or the reason it may not run. */
export type GuardedSql = { readonly sql: string; readonly refused?: undefined } | { readonly sql: string; readonly refused: string };

export interface GuardedPlan {
  readonly setup: readonly GuardedSql[];
  readonly query: GuardedSql;
  readonly evalQueries: readonly GuardedSql[];
  readonly cleanup: readonly GuardedSql[];
}

export function guardPlan(plan: QueryPlan, dialect: SqlDialect): GuardedPlan {
  const guard = (sql: string): GuardedSql => {
    const control = findTransactionControl(sql, dialect);
    return control === undefined ? { sql } : { sql, refused: refusedMessage(control) };
  };
  return { setup: plan.setup.map(guard), query: guard(plan.query), evalQueries: plan.evalQueries.map(guard), cleanup: plan.cleanup.map(guard) };
}

export function refusedMessage(control: string): string {
  return `${control} is not allowed in SQL under test: EvalLens runs every query in a transaction (or on a copy) that it rolls back, so transaction control is refused`;
}

export function timeLimitMessage(timeoutMs: number): string {
  return `canceled: the statement exceeded the time limit of ${timeoutMs} ms`;
}

/** The query's error when a setup statement failed (1-based index, as a person counts). */
export function setupFailedMessage(index: number, error: string): string {
  return `setup_sql #${index + 1} failed, so the query did not run: ${error}`;
}

export const NOT_RUN_AFTER_SETUP: QueryOutcome = { ok: false, error: 'not run: setup_sql failed' };

/** An eval query after one that was stopped (`why`: "exceeded the time limit", …). */
export function notRunAfterStop(index: number, why: string): QueryOutcome {
  return { ok: false, error: `not run: eval query #${index + 1} ${why}` };
}

export const EXCEEDED_TIME_LIMIT = 'exceeded the time limit';

/** The limit a caller gave, as whole milliseconds; a non-finite or non-positive limit means none. */
export function effectiveLimit(timeoutMs: number): number | undefined {
  return Number.isFinite(timeoutMs) && timeoutMs > 0 ? Math.max(1, Math.ceil(timeoutMs)) : undefined;
}

/** The rejection of a run that its signal aborted. */
export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  const error = new Error('the SQL run was aborted');
  error.name = 'AbortError';
  return error;
}
