import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openSqlite } from '../../../core/sql/sqliteEngine';
import type { SqlEngine } from '../../../core/sql/sqlResult';
import { errorOf, fixtureSql, LIMIT, plan, rowsOf } from './engines';

// The SQLite engine hands several plans to its worker ahead of the one it runs (sqliteEngine.ts):
// a time limit, a crash or an abort that retires the worker must not lose, repeat or mix up the
// plans handed over behind the stopped one, and each plan still runs in isolation.

const RUNAWAY =
  'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 1000000000) SELECT count(*) FROM c';

/** A plan that deletes some orders and counts what is left: 12 − n on its own copy, whatever ran before. */
const deleting = (n: number) =>
  plan(`DELETE FROM orders WHERE id <= ${n}`, { evalQueries: ['SELECT count(*) FROM orders'] });

async function withEngine(use: (engine: SqlEngine) => Promise<void>): Promise<void> {
  const engine = await openSqlite({ sqlText: fixtureSql('sqlite') }, { resultCache: false });
  try {
    await use(engine);
  } finally {
    await engine.close();
  }
}

describe('SQLite engine: plans handed over ahead', () => {
  it(
    'a time limit stops only its plan; the plans behind it run on the next worker, in isolation',
    { timeout: 60_000 },
    async () => {
      await withEngine(async (engine) => {
        const limit = { timeoutMs: 300 };
        const runs = await Promise.all([
          engine.run(deleting(1), limit),
          engine.run(plan('SELECT count(*) FROM customers'), limit),
          engine.run(plan(RUNAWAY, { evalQueries: ['SELECT count(*) FROM orders'] }), limit),
          engine.run(deleting(2), limit),
          engine.run(plan('SELECT 1', { evalQueries: ['SELECT 2', RUNAWAY, 'SELECT 3'] }), limit),
          engine.run(deleting(3), limit),
          engine.run(plan('SELECT 7 * 6'), limit),
        ]);
        const [first, customers, runaway, second, inEval, third, products] = runs;
        assert.deepEqual(rowsOf(first?.evalQueries?.[0]), [[11]]);
        assert.deepEqual(rowsOf(customers?.query), [[6]]);
        assert.equal(errorOf(runaway?.query), 'canceled: the statement exceeded the time limit of 300 ms');
        assert.deepEqual(rowsOf(runaway?.evalQueries?.[0]), [[12]], 'its eval queries still run, on a fresh copy');
        assert.deepEqual(
          rowsOf(second?.evalQueries?.[0]),
          [[10]],
          'handed over behind the stopped plan: run once, alone',
        );
        assert.deepEqual(rowsOf(inEval?.query), [[1]], 'the answer sent before the limit is kept');
        assert.deepEqual(rowsOf(inEval?.evalQueries?.[0]), [[2]]);
        assert.match(errorOf(inEval?.evalQueries?.[1]), /time limit of 300 ms/);
        assert.equal(errorOf(inEval?.evalQueries?.[2]), 'not run: eval query #2 exceeded the time limit');
        assert.deepEqual(rowsOf(third?.evalQueries?.[0]), [[9]]);
        assert.deepEqual(rowsOf(products?.query), [[42]]);
      });
    },
  );

  it(
    'an abort of a plan handed over but not started rejects it alone; the others are answered',
    { timeout: 60_000 },
    async () => {
      await withEngine(async (engine) => {
        const controller = new AbortController();
        const slowish =
          'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 300000) SELECT count(*) FROM c';
        const before = engine.run(plan(slowish), LIMIT);
        const aborted = engine.run(deleting(4), { ...LIMIT, signal: controller.signal });
        const after = engine.run(deleting(5), LIMIT);
        controller.abort();
        await assert.rejects(aborted, (e: Error) => e.name === 'AbortError');
        assert.deepEqual(rowsOf((await before).query), [[300000]]);
        assert.deepEqual(rowsOf((await after).evalQueries?.[0]), [[7]]);
        // An aborted plan that reaches the worker still runs (it was handed over); its time limit still stops it.
        const stuck = new AbortController();
        const head = engine.run(plan(slowish), LIMIT);
        const gone = engine.run(plan(RUNAWAY), { timeoutMs: 300, signal: stuck.signal });
        const last = engine.run(plan('SELECT count(*) FROM orders'), LIMIT);
        stuck.abort();
        await assert.rejects(gone, (e: Error) => e.name === 'AbortError');
        assert.deepEqual(rowsOf((await head).query), [[300000]]);
        assert.deepEqual(rowsOf((await last).query), [[12]]);
      });
    },
  );

  it(
    'a plan that writes files runs alone: no plan handed over with it sees its files',
    { timeout: 60_000 },
    async () => {
      await withEngine(async (engine) => {
        const sides = await Promise.all([
          engine.run(plan('SELECT 1'), LIMIT),
          engine.run(plan("ATTACH DATABASE 'side.db' AS side; CREATE TABLE side.x (a INTEGER)"), LIMIT),
          engine.run(plan("ATTACH 'side.db' AS side; SELECT count(*) FROM side.sqlite_master"), LIMIT),
          engine.run(plan("VACUUM INTO 'copy.db'"), LIMIT),
          engine.run(plan("ATTACH 'copy.db' AS copy; SELECT count(*) FROM copy.sqlite_master"), LIMIT),
        ]);
        assert.deepEqual(rowsOf(sides[2]?.query), [[0]], 'side.db is gone');
        assert.deepEqual(rowsOf(sides[4]?.query), [[0]], 'copy.db is gone');
      });
    },
  );

  it(
    'many plans called together are each answered with their own result, in call order',
    { timeout: 60_000 },
    async () => {
      await withEngine(async (engine) => {
        const order: number[] = [];
        const runs = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            engine
              .run(i % 3 === 0 ? deleting(i % 12) : plan(`SELECT ${i}, count(*) FROM customers`), LIMIT)
              .then((run) => {
                order.push(i);
                return run;
              }),
          ),
        );
        runs.forEach((run, i) => {
          if (i % 3 === 0) assert.deepEqual(rowsOf(run.evalQueries?.[0]), [[12 - (i % 12)]]);
          else assert.deepEqual(rowsOf(run.query), [[i, 6]]);
        });
        assert.deepEqual(
          order,
          Array.from({ length: 40 }, (_, i) => i),
        );
      });
    },
  );
});
