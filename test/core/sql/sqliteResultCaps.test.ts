/**
 * SQL under test that makes a result too large to hold (issue 13, item 8): before, `SELECT
 * zeroblob(300000000)` came back whole and its hex text passed what a JavaScript string can hold; the
 * run threw (a stack trace, no report). Each is now that statement's error, with the cap in words,
 * and the engine goes on with the next statement.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openSqlite } from '../../../core/sql/sqliteEngine';
import { MAX_RESULT_ROWS } from '../../../core/sql/sqliteWorker';
import { errorOf, plan, rowsOf } from './engines';

const LIMIT = { timeoutMs: 120_000 };

const HOSTILE: readonly [string, string, RegExp][] = [
  [
    'a 300 MB zeroblob',
    'SELECT zeroblob(300000000) AS b',
    /out of memory: SQLite may use at most 256 MiB|the result is too large/,
  ],
  [
    'a 300 MB randomblob',
    'SELECT randomblob(300000000) AS b',
    /out of memory: SQLite may use at most 256 MiB|the result is too large/,
  ],
  [
    'printf of a billion characters',
    "SELECT printf('%.*c', 1000000000, 'x') AS b",
    /out of memory: SQLite may use at most 256 MiB/,
  ],
  [
    'replace() amplification',
    "SELECT replace(replace(replace(hex(zeroblob(40000)), '0', '0000000000'), '0', '0000000000'), '0', '0000000000') AS b",
    /out of memory: SQLite may use at most 256 MiB|the result is too large/,
  ],
  [
    'many 1 MB rows',
    'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 200) SELECT zeroblob(1000000) FROM r',
    /the result is too large: its values pass 64 MiB at row \d+/,
  ],
  [
    'a recursive CTE that never ends',
    'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r',
    new RegExp(`the result is too large: more than ${MAX_RESULT_ROWS} rows`),
  ],
];

describe('SQLite results past their caps', () => {
  for (const [what, sql, expected] of HOSTILE) {
    it(`${what}: the statement fails with the cap, the next one runs`, async () => {
      const engine = await openSqlite({ sqlText: 'CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);' });
      try {
        const run = await engine.run(plan(sql, { evalQueries: ['SELECT x FROM t'] }), LIMIT);
        assert.match(errorOf(run.query), expected);
        assert.deepEqual(rowsOf(run.evalQueries?.[0]), [[1]]);
        const next = await engine.run(plan('SELECT length(zeroblob(1000)) AS n'), LIMIT);
        assert.deepEqual(rowsOf(next.query), [[1000]]);
      } finally {
        await engine.close();
      }
    });
  }

  it('SQL under test cannot lift the memory cap', async () => {
    const engine = await openSqlite({ sqlText: '' });
    try {
      const run = await engine.run(
        plan(
          "PRAGMA hard_heap_limit = 0; PRAGMA hard_heap_limit = 99999999999; SELECT printf('%.*c', 1000000000, 'x')",
        ),
        LIMIT,
      );
      assert.match(errorOf(run.query), /out of memory: SQLite may use at most 256 MiB/);
    } finally {
      await engine.close();
    }
  });
});
