import type { WorkerPlan } from './sqliteWorker';

/**
 * Whether an SQLite plan may run on the worker's shared read-only connection instead of a fresh copy
 * (sqliteEngine.ts): no setup, no cleanup, and SQL under test in which no word names a statement other
 * than a query. The test is on words anywhere in the text — in strings and comments too — rather than
 * on how the text splits into statements, so no misreading of quotes or comments can let a PRAGMA,
 * ATTACH or write through: every SQLite statement but SELECT, VALUES and WITH … SELECT starts with one
 * of these keywords, and SQL holding one (even inside a string) simply runs on its own copy as before.
 * Some PRAGMAs act while SQLite merely prepares them (`case_sensitive_like`, `query_only`), so the
 * worker must not even prepare such SQL on the shared connection; it prepares the SQL this lets
 * through and checks again, on SQLite's own parse, that each statement is a query.
 *
 * `replace(…)` is a string function and `END` closes `CASE`: both stay allowed (`REPLACE INTO` writes,
 * which the connection's `query_only` refuses; transaction control is refused before the worker). A
 * plan that names `query_only` (reading `pragma_query_only` would tell the shared connection apart)
 * runs on a copy too.
 */
export function runsOnSharedReader(plan: Omit<WorkerPlan, 'sharedReader'>): boolean {
  if (plan.setup.some((sql) => sql !== null) || plan.cleanup.length > 0) return false;
  return [plan.query, ...plan.evalQueries].every((sql) => sql === null || !NOT_A_QUERY.test(sql));
}

const NOT_A_QUERY =
  /\b(?:pragma|attach|detach|vacuum|create|drop|alter|insert|update|delete|reindex|analyze|begin|commit|rollback|savepoint|release|explain|query_only)\b|\breplace\b(?!\s*\()/i;
