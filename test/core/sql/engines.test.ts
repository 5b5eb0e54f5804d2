import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dump, ENGINE_KINDS, errorOf, LIMIT, onEngine, openFixture, plan, rowsOf, type Fixture } from './engines';

/** A statement that runs far longer than any limit below: a recursive CTE counting to 10^9. */
const RUNAWAY =
  'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 1000000000) SELECT count(*) FROM c';

// The same tests on both engines: what a dataset scores must not depend on where its SQL ran.
for (const kind of ENGINE_KINDS) {
  describe(`${kind} engine`, () => {
    let fixture: Fixture | undefined;
    before(async () => {
      fixture = await openFixture(kind);
    });
    after(async () => {
      await fixture?.close();
    });
    const test = (name: string, body: Parameters<typeof onEngine>[1]) =>
      it(
        name,
        onEngine(() => fixture, body),
      );

    test('gives rows as arrays, columns in the order the query names them', async (engine) => {
      const run = await engine.run(plan('SELECT name, id, city FROM customers WHERE id <= 2 ORDER BY id'), LIMIT);
      assert.deepEqual(run.query, {
        ok: true,
        result: {
          columns: ['name', 'id', 'city'],
          rows: [
            ['Ada', 1, 'London'],
            ['Grace', 2, 'New York'],
          ],
        },
      });
      assert.equal(run.evalQueries, undefined);
      assert.ok(run.durationMs >= 0);
    });

    test('keeps duplicate rows and duplicate column names', async (engine) => {
      const run = await engine.run(plan("SELECT status, status FROM orders WHERE status = 'pending'"), LIMIT);
      assert.ok(run.query.ok);
      assert.deepEqual(run.query.result.columns, ['status', 'status']);
      assert.deepEqual(run.query.result.rows, [
        ['pending', 'pending'],
        ['pending', 'pending'],
        ['pending', 'pending'],
      ]);
    });

    test('gives NULL as null, dates as ISO text, and numbers as numbers', async (engine) => {
      const run = await engine.run(
        plan(
          'SELECT c.city, c.since, o.amount, count(*) AS n FROM customers c JOIN orders o ON o.customer_id = c.id WHERE c.id = 3 GROUP BY c.city, c.since, o.amount ORDER BY o.amount',
        ),
        LIMIT,
      );
      assert.deepEqual(rowsOf(run.query), [
        [null, '2022-01-10', 7.75, 1],
        [null, '2022-01-10', 12.5, 1],
      ]);
    });

    test('keeps the columns of a result with no rows', async (engine) => {
      const run = await engine.run(plan('SELECT id, name FROM customers WHERE id > 100'), LIMIT);
      assert.deepEqual(run.query, { ok: true, result: { columns: ['id', 'name'], rows: [] } });
    });

    test("gives a failing query as {ok: false} with the database's message", async (engine) => {
      const run = await engine.run(plan('SELECT * FROM no_such_table'), LIMIT);
      assert.match(errorOf(run.query), /no_such_table/);
      assert.doesNotMatch(errorOf(run.query), /\n\s+at /, 'no stack trace');
    });

    test('answers the last statement that has result columns', async (engine) => {
      const run = await engine.run(
        plan(
          'SELECT 1 AS a; DELETE FROM orders WHERE id = 1; SELECT count(*) AS n FROM orders; UPDATE orders SET amount = 0',
        ),
        LIMIT,
      );
      assert.deepEqual(run.query, { ok: true, result: { columns: ['n'], rows: [[11]] } });
      const dml = await engine.run(plan('DELETE FROM orders'), LIMIT);
      assert.deepEqual(dml.query, { ok: true, result: { columns: [], rows: [] } });
    });

    test('DML: the eval queries see the change, the next run sees the original data', async (engine) => {
      const run = await engine.run(
        plan("DELETE FROM orders WHERE status = 'shipped'", {
          evalQueries: ['SELECT count(*) FROM orders', 'SELECT id FROM orders ORDER BY id'],
        }),
        LIMIT,
      );
      assert.ok(run.query.ok);
      assert.deepEqual(rowsOf(run.evalQueries?.[0]), [[5]]);
      assert.deepEqual(rowsOf(run.evalQueries?.[1]), [[3], [4], [6], [8], [10]]);
      const next = await engine.run(plan('SELECT count(*) FROM orders'), LIMIT);
      assert.deepEqual(rowsOf(next.query), [[12]]);
    });

    test('DELETE and DROP TABLE leave the database exactly as it was', async (engine, kind) => {
      const before = await dump(engine, kind);
      for (const sql of [
        'DELETE FROM customers',
        'DROP TABLE orders',
        'DROP TABLE customers; DROP TABLE events',
        "UPDATE customers SET city = 'Nowhere'",
        'CREATE TABLE extra (x INTEGER); ALTER TABLE events ADD COLUMN note TEXT',
      ]) {
        const run = await engine.run(plan(sql, { evalQueries: ['SELECT count(*) FROM orders'] }), LIMIT);
        assert.ok(run.query.ok, `${sql}: ${JSON.stringify(run.query)}`);
      }
      const dropped = await engine.run(
        plan('DROP TABLE orders', { evalQueries: ['SELECT count(*) FROM orders'] }),
        LIMIT,
      );
      assert.match(errorOf(dropped.evalQueries?.[0]), /orders/, 'within the run, the table is gone');
      assert.deepEqual(await dump(engine, kind), before);
    });

    test('INSERT … RETURNING gives the same id on every run (ids handed out are taken back)', async (engine, kind) => {
      const insert = plan("INSERT INTO events (what) VALUES ('refunded') RETURNING id", {
        evalQueries: ['SELECT max(id) FROM events'],
      });
      const first = await engine.run(insert, LIMIT);
      const second = await engine.run(insert, LIMIT);
      assert.deepEqual(rowsOf(first.query), [[3]]);
      assert.deepEqual(rowsOf(second.query), [[3]]);
      assert.deepEqual(rowsOf(second.evalQueries?.[0]), [[3]]);
      assert.deepEqual(await dump(engine, kind), await dump(engine, kind));
    });

    test('runs setup_sql before and cleanup_sql after the query, and keeps neither', async (engine) => {
      const run = await engine.run(
        plan('SELECT body FROM notes ORDER BY id', {
          setup: [
            'CREATE TABLE notes (id INTEGER, body TEXT)',
            "INSERT INTO notes VALUES (1, 'first'); INSERT INTO notes VALUES (2, 'second')",
          ],
          evalQueries: ['SELECT count(*) FROM notes'],
          cleanup: ['DELETE FROM notes', 'SELECT * FROM cleanup_may_fail', 'DROP TABLE notes'],
        }),
        LIMIT,
      );
      assert.deepEqual(rowsOf(run.query), [['first'], ['second']]);
      assert.deepEqual(rowsOf(run.evalQueries?.[0]), [[2]], 'eval queries run before cleanup');
      const later = await engine.run(plan('SELECT * FROM notes'), LIMIT);
      assert.match(errorOf(later.query), /notes/, 'what setup made is gone');
    });

    test('a failing setup_sql is rolled back and recorded, and the plan goes on (as EvalBench does)', async (engine) => {
      const run = await engine.run(
        plan('SELECT count(*) FROM ok_table', {
          setup: [
            'CREATE TABLE ok_table (x INTEGER)',
            'INSERT INTO ok_table VALUES (1); INSERT INTO missing_table VALUES (1)',
            'INSERT INTO ok_table VALUES (2)',
          ],
          evalQueries: ['SELECT 2'],
        }),
        LIMIT,
      );
      assert.deepEqual(rowsOf(run.query), [[1]], 'the failing setup statement left nothing; the others ran');
      assert.deepEqual(rowsOf(run.evalQueries?.[0]), [[2]]);
      assert.equal(run.setupErrors?.length, 1);
      assert.match(
        run.setupErrors?.[0] ?? '',
        /^setup_sql #2 failed and was rolled back; the case went on, as EvalBench's does: .*missing_table/,
      );
    });

    test('a failing query is rolled back, and the eval queries run on the data setup left', async (engine) => {
      const run = await engine.run(
        plan('DELETE FROM orders; SELECT * FROM no_such_table', {
          evalQueries: ['SELECT count(*) FROM orders', 'SELECT nonsense(', 'SELECT count(*) FROM customers'],
        }),
        LIMIT,
      );
      assert.match(errorOf(run.query), /no_such_table/);
      assert.deepEqual(rowsOf(run.evalQueries?.[0]), [[12]]);
      errorOf(run.evalQueries?.[1]);
      assert.deepEqual(rowsOf(run.evalQueries?.[2]), [[6]], 'a failing eval query does not stop the next');
    });

    test('refuses transaction control in SQL under test, and changes nothing', async (engine, kind) => {
      const before = await dump(engine, kind);
      for (const sql of [
        'COMMIT',
        'DELETE FROM orders; COMMIT;',
        'BEGIN; DELETE FROM orders; END',
        'ROLLBACK',
        '/* x */ savepoint s',
        'release s',
      ]) {
        const run = await engine.run(plan(sql, { evalQueries: ['SELECT count(*) FROM orders'] }), LIMIT);
        assert.match(errorOf(run.query), /is not allowed in SQL under test/, sql);
        assert.deepEqual(rowsOf(run.evalQueries?.[0]), [[12]], sql);
      }
      const inSetup = await engine.run(
        plan('SELECT count(*) FROM orders', { setup: ['DELETE FROM orders; COMMIT'] }),
        LIMIT,
      );
      assert.deepEqual(
        rowsOf(inSetup.query),
        [[0]],
        'setup may hold COMMIT: it does nothing there, and the DELETE stays inside the run',
      );
      assert.equal(inSetup.setupErrors, undefined);
      assert.deepEqual(await dump(engine, kind), before);
    });

    test('stops a statement past the time limit, names the limit, and goes on', async (engine) => {
      const run = await engine.run(plan(RUNAWAY, { evalQueries: ['SELECT count(*) FROM orders'] }), { timeoutMs: 300 });
      assert.equal(errorOf(run.query), 'canceled: the statement exceeded the time limit of 300 ms');
      assert.deepEqual(rowsOf(run.evalQueries?.[0]), [[12]], 'eval queries still run after a stopped query');
      const inEval = await engine.run(plan('SELECT 1', { evalQueries: ['SELECT 2', RUNAWAY, 'SELECT 3'] }), {
        timeoutMs: 300,
      });
      assert.deepEqual(rowsOf(inEval.evalQueries?.[0]), [[2]]);
      assert.match(errorOf(inEval.evalQueries?.[1]), /time limit of 300 ms/);
      assert.equal(errorOf(inEval.evalQueries?.[2]), 'not run: eval query #2 exceeded the time limit');
      const inSetup = await engine.run(plan('SELECT 1', { setup: [RUNAWAY] }), { timeoutMs: 300 });
      assert.equal(
        errorOf(inSetup.query),
        'setup_sql #1 failed, so the query did not run: canceled: the statement exceeded the time limit of 300 ms',
      );
      const next = await engine.run(plan('SELECT count(*) FROM customers'), LIMIT);
      assert.deepEqual(rowsOf(next.query), [[6]]);
    });

    test('the limit is per statement: several statements may together take longer', async (engine) => {
      const slowish =
        'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 20000) SELECT count(*) FROM c';
      const run = await engine.run(plan(slowish, { setup: [slowish, slowish], evalQueries: [slowish, slowish] }), {
        timeoutMs: 5000,
      });
      assert.deepEqual(rowsOf(run.query), [[20000]]);
    });

    test('an aborted run rejects, and the engine goes on', async (engine) => {
      const controller = new AbortController();
      const running = engine.run(plan(RUNAWAY), { timeoutMs: 60_000, signal: controller.signal });
      setImmediate(() => controller.abort());
      await assert.rejects(running, (e: Error) => e.name === 'AbortError');
      await assert.rejects(
        engine.run(plan('SELECT 1'), { timeoutMs: 1000, signal: AbortSignal.abort() }),
        (e: Error) => e.name === 'AbortError',
      );
      const next = await engine.run(plan('SELECT count(*) FROM orders'), LIMIT);
      assert.deepEqual(rowsOf(next.query), [[12]]);
    });

    test('runs called together are all answered, each in isolation', async (engine) => {
      const runs = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          engine.run(
            plan(`DELETE FROM orders WHERE id <= ${i}`, { evalQueries: ['SELECT count(*) FROM orders'] }),
            LIMIT,
          ),
        ),
      );
      assert.deepEqual(
        runs.map((r) => rowsOf(r.evalQueries?.[0])),
        [[[12]], [[11]], [[10]], [[9]], [[8]], [[7]]],
      );
    });
  });
}
