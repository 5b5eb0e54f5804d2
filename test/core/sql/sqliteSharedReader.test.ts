import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openSqlite } from '../../../core/sql/sqliteEngine';
import type { SqlEngine } from '../../../core/sql/sqlResult';
import { errorOf, fixtureSql, LIMIT, plan, rowsOf } from './engines';

/**
 * Plans made only of SELECT statements share one connection per SQLite worker instead of a fresh copy
 * each (sqliteEngine.ts). Every route by which SQL could change what a later run sees must still end
 * with its run: each write below runs first, then a SELECT-only plan that would see it on a shared
 * connection. No result cache, so every plan runs.
 */
async function withEngine(use: (engine: SqlEngine) => Promise<void>): Promise<void> {
  const engine = await openSqlite({ sqlText: fixtureSql('sqlite') }, { resultCache: false });
  try {
    await use(engine);
  } finally {
    await engine.close();
  }
}

const ORDERS = plan('SELECT count(*) FROM orders');
const ordersLeft = async (engine: SqlEngine) => rowsOf((await engine.run(ORDERS, LIMIT)).query);

describe('SQLite: SELECT-only plans on a shared connection see nothing another run did', () => {
  it('DML behind a SELECT, a WITH, a comment or a semicolon in a string reaches no later run', async () => {
    await withEngine(async (engine) => {
      assert.deepEqual(await ordersLeft(engine), [[12]]);
      for (const write of [
        'SELECT 1; DELETE FROM orders',
        'WITH x AS (SELECT 1) DELETE FROM orders',
        "SELECT ';' /* ; */; DELETE FROM orders",
        'SELECT 1 -- ;\n; DELETE FROM orders',
        'select 1; pragma query_only = off; delete from orders',
      ]) {
        const run = await engine.run(plan(write, { evalQueries: ['SELECT count(*) FROM orders'] }), LIMIT);
        assert.deepEqual(rowsOf(run.evalQueries?.[0]), [[0]], `${write}: ran on its own copy, as before`);
        assert.deepEqual(await ordersLeft(engine), [[12]], `${write}: the next SELECT-only plan sees every order`);
      }
      const setupWrite = await engine.run(
        plan('SELECT count(*) FROM orders', { setup: ['DELETE FROM orders'] }),
        LIMIT,
      );
      assert.deepEqual(rowsOf(setupWrite.query), [[0]]);
      assert.deepEqual(await ordersLeft(engine), [[12]], 'a setup that writes reaches no later run');
    });
  });

  it('temporary tables, ATTACH, VACUUM INTO and pragma writes reach no later run', async () => {
    await withEngine(async (engine) => {
      const databases = plan('SELECT name FROM pragma_database_list ORDER BY seq');
      const before = rowsOf((await engine.run(databases, LIMIT)).query);
      await engine.run(plan('SELECT 1; CREATE TEMP TABLE kept AS SELECT 1 AS x'), LIMIT);
      assert.match(errorOf((await engine.run(plan('SELECT x FROM temp.kept'), LIMIT)).query), /no such table/);
      await engine.run(plan("SELECT 1; ATTACH ':memory:' AS extra"), LIMIT);
      assert.deepEqual(rowsOf((await engine.run(databases, LIMIT)).query), before, 'no attached database stays');
      await engine.run(plan("SELECT 1; VACUUM INTO '/evallens-reader-test.db'"), LIMIT);
      assert.deepEqual(rowsOf((await engine.run(databases, LIMIT)).query), before);
      await engine.run(plan('SELECT 1; PRAGMA user_version = 7'), LIMIT);
      assert.deepEqual(rowsOf((await engine.run(plan('SELECT user_version FROM pragma_user_version'), LIMIT)).query), [
        [0],
      ]);
      await engine.run(plan('SELECT 1; PRAGMA case_sensitive_like = ON'), LIMIT);
      assert.deepEqual(rowsOf((await engine.run(plan("SELECT 'a' LIKE 'A'"), LIMIT)).query), [[1]]);
      await engine.run(plan('SELECT 1; PRAGMA foreign_keys = ON'), LIMIT);
      assert.deepEqual(rowsOf((await engine.run(plan('SELECT foreign_keys FROM pragma_foreign_keys'), LIMIT)).query), [
        [0],
      ]);
    });
  });

  it('gives a SELECT-only plan what a fresh copy gives, its own settings included', async () => {
    await withEngine(async (engine) => {
      // The shared connection is query_only; a plan that asks sees a fresh copy's answer.
      const asked = plan('SELECT query_only FROM pragma_query_only');
      for (let i = 0; i < 2; i++) assert.deepEqual(rowsOf((await engine.run(asked, LIMIT)).query), [[0]]);
      for (let i = 0; i < 2; i++)
        assert.deepEqual(rowsOf((await engine.run(plan('SELECT changes(), total_changes()'), LIMIT)).query), [[0, 0]]);
      const failing = await engine.run(plan('SELECT * FROM no_such_table'), LIMIT);
      assert.match(errorOf(failing.query), /no such table/);
      assert.deepEqual(await ordersLeft(engine), [[12]], 'a failed SELECT leaves the connection usable');
    });
  });
});
