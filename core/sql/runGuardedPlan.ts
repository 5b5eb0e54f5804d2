import {
  EXCEEDED_TIME_LIMIT,
  NOT_RUN_AFTER_SETUP,
  notRunAfterStop,
  setupErrorMessage,
  setupFailedMessage,
  timeLimitMessage,
  type GuardedPlan,
  type GuardedSql,
} from './planRules';
import type { QueryOutcome, QueryRun } from './sqlResult';

export type SqlPlace = 'setup' | 'under test';

/** A server connection inside an open transaction, as the PostgreSQL and MySQL engines each keep one. */
export interface GuardedSession {
  /**
   * Runs one piece of SQL under its own savepoint, within the time limit. `place`: the config's
   * setup or cleanup SQL (its transaction control already rewritten into savepoints), or SQL under
   * test (the query and the eval queries), which may hold no transaction control at all.
   */
  guarded(sql: GuardedSql, limit: number | undefined, place: SqlPlace): Promise<QueryOutcome>;
  /** How long the last guarded SQL took, savepoint round trips left out. */
  readonly lastMs: number;
  /**
   * After a failing setup statement: true when the session cannot go on (connection lost, the
   * transaction ended under it), so the case stops there instead of recording the failure and going on.
   */
  cannotGoOn(): boolean;
}

/**
 * A plan on a session whose transaction is open, in planRules.ts's order: each setup statement (a
 * failing one is recorded and the case goes on, as EvalBench does, unless it ran out of time or the
 * session cannot go on), the query, the eval queries (those after one that ran out of time are not
 * run), then the cleanup. The caller rolls the transaction back afterwards, always.
 */
export async function runGuardedPlan(
  session: GuardedSession,
  plan: GuardedPlan,
  limit: number | undefined,
): Promise<QueryRun> {
  const evalCount = plan.evalQueries.length;
  const setupErrors: string[] = [];
  const withEvals = (query: QueryOutcome, evalQueries: readonly QueryOutcome[], durationMs: number): QueryRun => ({
    query,
    ...(evalCount === 0 ? {} : { evalQueries }),
    ...(setupErrors.length === 0 ? {} : { setupErrors }),
    durationMs,
  });
  const outOfTime = (outcome: QueryOutcome) => !outcome.ok && outcome.error === timeLimitMessage(limit ?? 0);
  for (const [index, setup] of plan.setup.entries()) {
    const outcome = await session.guarded(setup, limit, 'setup');
    if (outcome.ok) continue;
    if (outOfTime(outcome) || session.cannotGoOn()) {
      return withEvals(
        { ok: false, error: setupFailedMessage(index, outcome.error) },
        plan.evalQueries.map(() => NOT_RUN_AFTER_SETUP),
        0,
      );
    }
    setupErrors.push(setupErrorMessage(index, outcome.error));
  }
  const query = await session.guarded(plan.query, limit, 'under test');
  const durationMs = session.lastMs;
  const evalQueries: QueryOutcome[] = [];
  let stoppedAt: number | undefined;
  for (const [index, sql] of plan.evalQueries.entries()) {
    if (stoppedAt !== undefined) {
      evalQueries.push(notRunAfterStop(stoppedAt, EXCEEDED_TIME_LIMIT));
      continue;
    }
    const outcome = await session.guarded(sql, limit, 'under test');
    if (outOfTime(outcome)) stoppedAt = index;
    evalQueries.push(outcome);
  }
  for (const sql of plan.cleanup) if (sql.refused === undefined) await session.guarded(sql, limit, 'setup');
  return withEvals(query, evalQueries, durationMs);
}
