/**
 * AUTO_INCREMENT counters are MySQL's sequences: InnoDB never gives back a value an INSERT took, even
 * when the transaction is rolled back, and since MySQL 8 / MariaDB 10.2.4 the counter persists. So an
 * INSERT under test would shift the ids every later case (and the user) sees. A run notes each
 * table's next value before its transaction opens and, after the rollback, sets back those that
 * moved (`ALTER TABLE … AUTO_INCREMENT`, outside any transaction; it needs the ALTER right, which a
 * role that may INSERT usually has; a read-only role takes no values).
 */

/** Lists `[table, next value]` of the database's tables with a counter. MySQL 8 caches this view unless told not to. */
export const AUTO_INCREMENT_SQL = "SELECT TABLE_NAME, AUTO_INCREMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE' AND AUTO_INCREMENT IS NOT NULL ORDER BY TABLE_NAME";

export type Counters = ReadonlyMap<string, string>;

/** The counters of AUTO_INCREMENT_SQL's rows, as decimal text (they go past 2^53). */
export function countersOf(rows: readonly (readonly unknown[])[]): Counters {
  const counters = new Map<string, string>();
  for (const [table, next] of rows) if (typeof table === 'string' && (typeof next === 'number' || typeof next === 'string')) counters.set(table, String(next));
  return counters;
}

/** The statements that set back every counter of `before` that differs in `now`. */
export function restoreCounters(before: Counters, now: Counters): string[] {
  const statements: string[] = [];
  for (const [table, next] of before) {
    if (now.get(table) === next || !/^\d+$/.test(next)) continue;
    statements.push(`ALTER TABLE \`${table.replace(/`/g, '``')}\` AUTO_INCREMENT = ${next}`);
  }
  return statements;
}
