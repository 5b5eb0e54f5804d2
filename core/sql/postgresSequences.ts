import type { QueryArrayResult } from 'pg';

/**
 * Sequences are the one thing a rolled-back transaction does not undo: `nextval` (a SERIAL or
 * IDENTITY column filled by an INSERT under test) advances for good. Without a fix-up, a golden
 * INSERT run after the generated one would get other ids, and so would every later case. So a run
 * notes each sequence's state (`last_value`, `is_called`) when its transaction opens and, after the
 * rollback, sets back those that moved. Only sequences the user may read and update are watched;
 * temporary ones are left out (they vanish with the rollback anyway).
 */

/** Lists the watched sequences: `[regclass text]` per row. Runs inside the run's first round trip. */
export const SEQUENCES_SQL = `SELECT format('%I.%I', n.nspname, c.relname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind = 'S' AND c.relpersistence <> 't'
  AND CASE WHEN c.relkind = 'S' THEN has_sequence_privilege(c.oid, 'SELECT') AND has_sequence_privilege(c.oid, 'UPDATE') ELSE false END
ORDER BY 1`;

export interface SequenceState {
  readonly name: string;
  /** As text: bigint sequences go past what a double holds. */
  readonly lastValue: string;
  readonly isCalled: boolean;
}

export type Exec = (sql: string, values?: unknown[]) => Promise<readonly QueryArrayResult[]>;

/** The state of the sequences listed by SEQUENCES_SQL (its rows). */
export async function snapshotSequences(exec: Exec, listed: readonly (readonly unknown[])[]): Promise<SequenceState[]> {
  const names = listed.map((row) => row[0]).filter((name): name is string => typeof name === 'string');
  return [...(await readStates(exec, names)).values()];
}

/** Sets back each sequence whose state differs from `snapshot`; answers how many it set. */
export async function restoreSequences(exec: Exec, snapshot: readonly SequenceState[]): Promise<number> {
  const now = await readStates(
    exec,
    snapshot.map((s) => s.name),
  );
  const moved = snapshot.filter((before) => {
    const after = now.get(before.name);
    return after === undefined || after.lastValue !== before.lastValue || after.isCalled !== before.isCalled;
  });
  if (moved.length === 0) return 0;
  await exec(
    'SELECT setval(x.name::regclass, x.v, x.c) FROM unnest($1::text[], $2::int8[], $3::bool[]) AS x(name, v, c)',
    [moved.map((s) => s.name), moved.map((s) => s.lastValue), moved.map((s) => s.isCalled)],
  );
  return moved.length;
}

async function readStates(exec: Exec, names: readonly string[]): Promise<Map<string, SequenceState>> {
  const states = new Map<string, SequenceState>();
  if (names.length === 0) return states;
  // The names come from format('%I.%I'), so they are quoted identifiers, safe to splice in.
  const sql = names.map((name, i) => `SELECT ${i}, last_value::text, is_called FROM ${name}`).join(' UNION ALL ');
  const [result] = await exec(sql);
  for (const row of result?.rows ?? []) {
    const [i, lastValue, isCalled] = row as unknown[];
    const name = typeof i === 'number' ? names[i] : undefined;
    if (name !== undefined && typeof lastValue === 'string' && typeof isCalled === 'boolean')
      states.set(name, { name, lastValue, isCalled });
  }
  return states;
}
