import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { Client } from 'pg';
import { openPostgres, postgresSettingsFromUrl, type PostgresSettings } from '../../../core/sql/postgresEngine';
import type { QueryOutcome, QueryPlan, SqlEngine, SqlValue } from '../../../core/sql/sqlResult';
import { openSqlite } from '../../../core/sql/sqliteEngine';

/** The engines every shared test runs on; PostgreSQL only when EVALLENS_PG_URL names a server. */
export type EngineKind = 'sqlite' | 'postgres';
export const ENGINE_KINDS: readonly EngineKind[] = ['sqlite', 'postgres'];

export const PG_URL = process.env['EVALLENS_PG_URL'];
export const PG_MISSING = 'PostgreSQL not available: run scripts/postgres.sh and set EVALLENS_PG_URL';

export const FIXTURES = join(__dirname, '../../fixtures/sql');

/** The fixture database's SQL for one engine: the portable shop, then the engine's own `events` table. */
export function fixtureSql(kind: EngineKind): string {
  return `${readFileSync(join(FIXTURES, 'shop.sql'), 'utf8')}\n${readFileSync(join(FIXTURES, `events.${kind}.sql`), 'utf8')}`;
}

export interface Fixture {
  readonly kind: EngineKind;
  readonly engine: SqlEngine;
  close(): Promise<void>;
}

/** A fresh fixture database and an engine on it; undefined for PostgreSQL when no server is set. */
export async function openFixture(kind: EngineKind): Promise<Fixture | undefined> {
  if (kind === 'sqlite') {
    const engine = await openSqlite({ sqlText: fixtureSql('sqlite') });
    return { kind, engine, close: () => engine.close() };
  }
  if (PG_URL === undefined) return undefined;
  const database = await createPostgresDatabase(fixtureSql('postgres'));
  const engine = await openPostgres(database.settings, { allowSuperuser: true });
  return {
    kind,
    engine,
    close: async () => {
      await engine.close();
      await database.drop();
    },
  };
}

let databases = 0;

/** A new database on the EVALLENS_PG_URL server, built from `sql`; `drop` removes it. */
export async function createPostgresDatabase(
  sql: string,
): Promise<{ settings: PostgresSettings; drop: () => Promise<void> }> {
  if (PG_URL === undefined) throw new Error(PG_MISSING);
  const admin = postgresSettingsFromUrl(PG_URL);
  const name = `evallens_t_${process.pid}_${++databases}`;
  await withClient(admin, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${name}`);
  });
  const settings = { ...admin, database: name };
  await withClient(settings, (c) => c.query(sql));
  return {
    settings,
    drop: () => withClient(admin, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

export async function withClient<T>(settings: PostgresSettings, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client(settings);
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/**
 * A test body for one engine: skipped, with the reason, when its engine is not available (never a
 * silent pass).
 */
export function onEngine(
  fixture: () => Fixture | undefined,
  body: (engine: SqlEngine, kind: EngineKind) => Promise<void>,
) {
  return async (t: TestContext) => {
    const f = fixture();
    if (f === undefined) {
      t.skip(PG_MISSING);
      return;
    }
    await body(f.engine, f.kind);
  };
}

export function plan(query: string, parts: Partial<Omit<QueryPlan, 'query'>> = {}): QueryPlan {
  return { setup: parts.setup ?? [], query, evalQueries: parts.evalQueries ?? [], cleanup: parts.cleanup ?? [] };
}

export const LIMIT = { timeoutMs: 10_000 };

/** The rows of a successful outcome; fails the test with the database's error otherwise. */
export function rowsOf(outcome: QueryOutcome | undefined): readonly (readonly SqlValue[])[] {
  if (outcome === undefined) throw new Error('no outcome');
  if (!outcome.ok) throw new Error(`expected rows, got the error: ${outcome.error}`);
  return outcome.result.rows;
}

export function errorOf(outcome: QueryOutcome | undefined): string {
  if (outcome === undefined) throw new Error('no outcome');
  if (outcome.ok) throw new Error(`expected an error, got ${JSON.stringify(outcome.result)}`);
  return outcome.error;
}

/** Everything the fixture database holds: its schema and every row of every table. */
export async function dump(engine: SqlEngine, kind: EngineKind): Promise<unknown> {
  const schema =
    kind === 'sqlite'
      ? 'SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name'
      : "SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position";
  const run = await engine.run(
    plan(schema, {
      evalQueries: [
        'SELECT * FROM customers ORDER BY id',
        'SELECT * FROM orders ORDER BY id',
        'SELECT * FROM events ORDER BY id',
      ],
    }),
    LIMIT,
  );
  return { schema: rowsOf(run.query), tables: (run.evalQueries ?? []).map(rowsOf) };
}
