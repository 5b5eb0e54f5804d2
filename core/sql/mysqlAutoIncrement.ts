/**
 * Counters are what a MySQL rollback does not undo: InnoDB never gives back an AUTO_INCREMENT value
 * an INSERT took (and since MySQL 8 / MariaDB 10.2.4 the counter persists), and a MariaDB SEQUENCE
 * advanced by NEXTVAL or SETVAL stays advanced. So an INSERT under test would shift the ids every
 * later case (and the user) sees. A run notes each counter before its transaction opens and, after
 * the rollback, sets back those that moved, outside any transaction (`ALTER TABLE … AUTO_INCREMENT`,
 * `ALTER SEQUENCE … RESTART WITH`; they need the ALTER right, which a role that may INSERT usually
 * has; a read-only role takes no values). A sequence is set back to the value its table holds (the
 * first value past its cache), which is what the server itself would give after a restart.
 */

/** `[table, next value]` of the database's tables with an AUTO_INCREMENT counter. MySQL 8 caches this view unless told not to. */
const AUTO_INCREMENT_SQL =
  "SELECT TABLE_NAME, AUTO_INCREMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE' AND AUTO_INCREMENT IS NOT NULL ORDER BY TABLE_NAME";
/** MariaDB's sequences of the database (MySQL has none: the list is empty). */
const SEQUENCES_SQL =
  "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'SEQUENCE' ORDER BY TABLE_NAME";

export interface Counters {
  readonly autoIncrement: ReadonlyMap<string, string>;
  readonly sequences: ReadonlyMap<string, string>;
}

export const NO_COUNTERS: Counters = { autoIncrement: new Map(), sequences: new Map() };

export type Rows = (sql: string) => Promise<readonly (readonly unknown[])[]>;

/** The counters now, as decimal text (they go past 2^53). */
export async function readCounters(rows: Rows): Promise<Counters> {
  const autoIncrement = pairs(await rows(AUTO_INCREMENT_SQL));
  const names = (await rows(SEQUENCES_SQL))
    .map((row) => row[0])
    .filter((name): name is string => typeof name === 'string');
  const sequences = new Map<string, string>();
  if (names.length > 0) {
    const union = names.map((name, i) => `SELECT ${i}, next_not_cached_value FROM ${quoted(name)}`).join(' UNION ALL ');
    for (const [i, next] of await rows(union))
      if (typeof i === 'number' && names[i] !== undefined) sequences.set(names[i], String(next));
  }
  return { autoIncrement, sequences };
}

export function hasCounters(counters: Counters): boolean {
  return counters.autoIncrement.size > 0 || counters.sequences.size > 0;
}

/** The statements that set back every counter of `before` that differs in `now`. */
export function restoreCounters(before: Counters, now: Counters): string[] {
  const moved = (was: ReadonlyMap<string, string>, is: ReadonlyMap<string, string>) =>
    [...was].filter(([name, value]) => is.get(name) !== value && /^-?\d+$/.test(value));
  return [
    ...moved(before.autoIncrement, now.autoIncrement).map(
      ([table, next]) => `ALTER TABLE ${quoted(table)} AUTO_INCREMENT = ${next}`,
    ),
    ...moved(before.sequences, now.sequences).map(
      ([sequence, next]) => `ALTER SEQUENCE ${quoted(sequence)} RESTART WITH ${next}`,
    ),
  ];
}

function pairs(rows: readonly (readonly unknown[])[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const [name, value] of rows)
    if (typeof name === 'string' && (typeof value === 'number' || typeof value === 'string'))
      map.set(name, String(value));
  return map;
}

function quoted(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}
