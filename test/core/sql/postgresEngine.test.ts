import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import { openPostgres, postgresSettingsFromUrl, type PostgresSettings } from '../../../core/sql/postgresEngine';
import type { SqlEngine } from '../../../core/sql/sqlResult';
import {
  createPostgresDatabase,
  errorOf,
  fixtureSql,
  LIMIT,
  PG_MISSING,
  PG_URL,
  plan,
  rowsOf,
  withClient,
} from './engines';
import { waitFor } from '../../support/waitFor';

describe('PostgreSQL engine', () => {
  let database: { settings: PostgresSettings; drop: () => Promise<void> } | undefined;
  let engine: SqlEngine | undefined;
  before(async () => {
    if (PG_URL === undefined) return;
    database = await createPostgresDatabase(fixtureSql('postgres'));
    engine = await openPostgres(database.settings, { allowSuperuser: true });
  });
  after(async () => {
    await engine?.close();
    await database?.drop();
  });
  /** The engine and its database, or a skip with the reason. */
  const need = (t: TestContext): { engine: SqlEngine; settings: PostgresSettings } | undefined => {
    if (engine === undefined || database === undefined) {
      t.skip(PG_MISSING);
      return undefined;
    }
    return { engine, settings: database.settings };
  };
  const activeQueries = (settings: PostgresSettings, like: string) =>
    withClient(
      settings,
      async (c) =>
        (
          await c.query(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1 AND pid <> pg_backend_pid()",
            [like],
          )
        ).rows[0].n as number,
    );

  it("maps the server's types to comparable values", async (t) => {
    const pg = need(t);
    if (pg === undefined) return;
    const run = await pg.engine.run(
      plan(
        "SELECT 12.50::numeric, (1::numeric / 3), 9007199254740993::int8, count(*), true, 0.1::float8, DATE '2024-01-31', TIMESTAMP '2024-01-31 12:00:00.5', TIMESTAMPTZ '2024-01-31 12:00:00+02', '\\x00ff'::bytea, '{\"b\": 1, \"a\": [1, 2]}'::jsonb, '{\"b\":1}'::json, INTERVAL '1 day 2 hours', ARRAY[1, 2], NULL::text FROM customers",
      ),
      LIMIT,
    );
    assert.deepEqual(rowsOf(run.query), [
      [
        12.5,
        '0.33333333333333333333',
        '9007199254740993',
        6,
        true,
        0.1,
        '2024-01-31',
        '2024-01-31T12:00:00.5',
        '2024-01-31T10:00:00Z',
        '00ff',
        '{"a": [1, 2], "b": 1}',
        '{"b":1}',
        '1 day 02:00:00',
        '{1,2}',
        null,
      ],
    ]);
  });

  it('leaves nothing behind that another connection could see', async (t) => {
    const pg = need(t);
    if (pg === undefined) return;
    const sequence = () =>
      withClient(
        pg.settings,
        async (c) => (await c.query('SELECT last_value::text, is_called FROM events_id_seq')).rows[0] as unknown,
      );
    const seqBefore = await sequence();
    const run = await pg.engine.run(
      plan("INSERT INTO events (what) VALUES ('a'), ('b') RETURNING id", {
        evalQueries: ['DELETE FROM customers', 'DROP TABLE orders'],
      }),
      LIMIT,
    );
    assert.deepEqual(rowsOf(run.query), [[3], [4]]);
    assert.deepEqual(await sequence(), seqBefore, 'the sequence is set back');
    const counts = await withClient(
      pg.settings,
      async (c) =>
        (
          await c.query(
            'SELECT (SELECT count(*) FROM customers)::int AS c, (SELECT count(*) FROM orders)::int AS o, (SELECT count(*) FROM events)::int AS e',
          )
        ).rows[0] as unknown,
    );
    assert.deepEqual(counts, { c: 6, o: 12, e: 2 });
  });

  it('clears what a session keeps past a rollback: prepared statements, advisory locks, settings', async (t) => {
    const pg = need(t);
    if (pg === undefined) return;
    await pg.engine.run(
      plan(
        "PREPARE leftover AS SELECT 1; SELECT pg_advisory_lock(4242); SET search_path = nowhere; SET TIME ZONE 'Asia/Tokyo'",
      ),
      LIMIT,
    );
    const next = await pg.engine.run(
      plan('EXECUTE leftover', {
        evalQueries: ['SELECT count(*) FROM customers', "SELECT TIMESTAMPTZ '2024-01-31 12:00:00+00'"],
      }),
      LIMIT,
    );
    assert.match(errorOf(next.query), /leftover/);
    assert.deepEqual(rowsOf(next.evalQueries?.[0]), [[6]]);
    assert.deepEqual(rowsOf(next.evalQueries?.[1]), [['2024-01-31T12:00:00Z']]);
    const free = await withClient(
      pg.settings,
      async (c) => (await c.query('SELECT pg_try_advisory_lock(4242) AS ok')).rows[0].ok as boolean,
    );
    assert.equal(free, true, 'the advisory lock was released');
  });

  it('still stops a statement when the SQL under test lifts statement_timeout, and cancels it on the server', async (t) => {
    const pg = need(t);
    if (pg === undefined) return;
    const run = await pg.engine.run(
      plan('SET statement_timeout = 0; SELECT pg_sleep(60)', { evalQueries: ['SELECT 1'] }),
      { timeoutMs: 200 },
    );
    assert.equal(errorOf(run.query), 'canceled: the statement exceeded the time limit of 200 ms');
    assert.equal(errorOf(run.evalQueries?.[0]), 'not run: the connection was dropped to stop the statement before');
    await waitFor(
      async () => (await activeQueries(pg.settings, '%pg_sleep(60)%')) === 0,
      'the server stopped the statement',
      10_000,
    );
    assert.deepEqual(rowsOf((await pg.engine.run(plan('SELECT count(*) FROM orders'), LIMIT)).query), [[12]]);
  });

  it('cancels the running statement on the server when the run is aborted', async (t) => {
    const pg = need(t);
    if (pg === undefined) return;
    const controller = new AbortController();
    const running = pg.engine.run(plan('SELECT pg_sleep(60)'), { timeoutMs: 120_000, signal: controller.signal });
    await waitFor(
      async () => (await activeQueries(pg.settings, 'SELECT pg_sleep(60)')) === 1,
      'the statement runs',
      10_000,
    );
    controller.abort();
    await assert.rejects(running, (e: Error) => e.name === 'AbortError');
    await waitFor(
      async () => (await activeQueries(pg.settings, 'SELECT pg_sleep(60)')) === 0,
      'the server stopped the statement',
      10_000,
    );
  });

  it('fails the whole run when the connection is lost, and reconnects for the next', async (t) => {
    const pg = need(t);
    if (pg === undefined) return;
    const running = pg.engine.run(plan('SELECT pg_sleep(60)', { evalQueries: ['SELECT 1'] }), { timeoutMs: 120_000 });
    await waitFor(
      async () => (await activeQueries(pg.settings, 'SELECT pg_sleep(60)')) === 1,
      'the statement runs',
      10_000,
    );
    await withClient(pg.settings, (c) =>
      c.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)'"),
    );
    await assert.rejects(running, /^Error: the connection to PostgreSQL at 127\.0\.0\.1:\d+ was lost during the run: /);
    assert.deepEqual(rowsOf((await pg.engine.run(plan('SELECT count(*) FROM orders'), LIMIT)).query), [[12]]);
  });

  it('names host:port and database when it cannot connect, never the password', async (t) => {
    if (need(t) === undefined) return;
    const settings = { ...postgresSettingsFromUrl(PG_URL ?? ''), port: 1, password: 'sekret-pw-123' };
    await assert.rejects(openPostgres(settings, { connectTimeoutMs: 2000 }), (e: Error) => {
      assert.match(
        e.message,
        /^cannot connect to PostgreSQL at 127\.0\.0\.1:1, database "evallens_test" as user "postgres": /,
      );
      assert.doesNotMatch(e.message, /sekret/);
      return true;
    });
    const missing = { ...postgresSettingsFromUrl(PG_URL ?? ''), database: 'evallens_no_such_database' };
    await assert.rejects(
      openPostgres(missing),
      /database "evallens_no_such_database" as user "postgres": .*does not exist/,
    );
  });
});

describe('PostgreSQL URLs', () => {
  it('read into settings', () => {
    assert.deepEqual(postgresSettingsFromUrl('postgres://postgres@127.0.0.1:54329/evallens_test'), {
      host: '127.0.0.1',
      port: 54329,
      database: 'evallens_test',
      user: 'postgres',
    });
    assert.deepEqual(postgresSettingsFromUrl('postgresql://me:p%40ss@db.local/shop'), {
      host: 'db.local',
      port: 5432,
      database: 'shop',
      user: 'me',
      password: 'p@ss',
    });
    assert.throws(() => postgresSettingsFromUrl('mysql://x@y/z'), /not a PostgreSQL URL/);
  });
});
