import { mysqlRefusal } from './mysqlStatements';
import { setupInOuterTransaction } from './setupTransactions';
import type { QueryOutcome, QueryPlan } from './sqlResult';
import { findTransactionControl, refusedMessage, type SqlDialect } from './sqlStatements';

export { refusedMessage };

/**
 * What every engine does with a plan, in one place so that SQLite, PostgreSQL and MySQL answer alike:
 *
 * 1. `setup` statements run in order, each under a savepoint. One that fails (or is refused) is
 *    rolled back, recorded in the run's `setupErrors`, and the plan goes on, as EvalBench's does.
 *    One that exceeds the time limit stops the plan: the query's outcome is an error naming it, and
 *    the query and the eval queries do not run.
 * 2. The query runs under a savepoint. When it fails, its partial effects are rolled back to the
 *    savepoint and the eval queries still run, on the database as setup left it.
 * 3. Each eval query runs under its own savepoint; one that fails does not stop the next. One that
 *    exceeds the time limit stops the rest (they are reported as not run).
 * 4. `cleanup` statements run; their errors are ignored, since nothing they could fix survives:
 *    the per-case copy is dropped (SQLite) or the transaction rolled back (PostgreSQL).
 *
 * SQL under test (the query and the eval queries) that controls transactions (`BEGIN`, `COMMIT`,
 * `ROLLBACK`, `SAVEPOINT`, …) is refused: on PostgreSQL a `COMMIT` would make the changes under test
 * permanent, and SQLite refuses it too so that a dataset scores the same on both engines. This
 * refusal reads the text; on the servers it is one layer of several that do not (one statement per
 * message, a commit guard, the server's transaction status after each statement:
 * postgresNoCommit.ts, mysqlNoCommit.ts). Setup and
 * cleanup SQL may hold transaction control (EvalBench's datasets do): it is rewritten into savepoints
 * inside the outer transaction (setupTransactions.ts), so it still cannot commit anything.
 *
 * MySQL (and MariaDB) commit the open transaction at once for DDL and a few other statements (an
 * "implicit commit"), which no savepoint or rollback undoes. On MySQL, therefore, after the rules
 * above, SQL that is not a query, DML or a temporary table — DDL, SET, XA, `INTO OUTFILE`, `/*! *\/`
 * comments — is refused as well, in setup and cleanup (after their transaction control became
 * savepoints) as in SQL under test (mysqlStatements.ts says what and why). A refused setup entry is
 * recorded in `setupErrors` like any failing one, and the case goes on.
 *
 * The limit is per statement, as PostgreSQL's `statement_timeout` is: each statement of setup, query,
 * eval queries and cleanup has `timeoutMs` of its own.
 */

/** One piece of SQL of a plan, or the reason it may not run. */
export type GuardedSql =
  { readonly sql: string; readonly refused?: undefined } | { readonly sql: string; readonly refused: string };

export interface GuardedPlan {
  readonly setup: readonly GuardedSql[];
  readonly query: GuardedSql;
  readonly evalQueries: readonly GuardedSql[];
  readonly cleanup: readonly GuardedSql[];
}

export function guardPlan(plan: QueryPlan, dialect: SqlDialect): GuardedPlan {
  const engineRefusal = (sql: string, place: 'setup' | 'under test'): string | undefined =>
    dialect === 'mysql' ? mysqlRefusal(sql, place) : undefined;
  const guard = (sql: string): GuardedSql => {
    const control = findTransactionControl(sql, dialect);
    if (control !== undefined) return { sql, refused: refusedMessage(control) };
    const refused = engineRefusal(sql, 'under test');
    return refused === undefined ? { sql } : { sql, refused };
  };
  const rewrite = (sql: string): GuardedSql => {
    const rewritten = setupInOuterTransaction(sql, dialect);
    if (rewritten.refused !== undefined) return rewritten;
    const refused = engineRefusal(rewritten.sql, 'setup');
    return refused === undefined ? rewritten : { sql: rewritten.sql, refused };
  };
  return {
    setup: plan.setup.map(rewrite),
    query: guard(plan.query),
    evalQueries: plan.evalQueries.map(guard),
    cleanup: plan.cleanup.map(rewrite),
  };
}

export function timeLimitMessage(timeoutMs: number): string {
  return `canceled: the statement exceeded the time limit of ${timeoutMs} ms`;
}

/** The query's error when a setup statement exceeded the time limit (1-based index, as a person counts). */
export function setupFailedMessage(index: number, error: string): string {
  return `setup_sql #${index + 1} failed, so the query did not run: ${error}`;
}

/** A setup statement that failed and was rolled back; the plan went on (1-based index). */
export function setupErrorMessage(index: number, error: string): string {
  return `setup_sql #${index + 1} failed and was rolled back; the case went on, as EvalBench's does: ${error}`;
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
