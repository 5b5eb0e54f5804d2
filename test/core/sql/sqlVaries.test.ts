import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planCacheKey, PlanResultCache } from '../../../core/sql/planResultCache';
import { openSqlite } from '../../../core/sql/sqliteEngine';
import { fixtureSql, LIMIT, plan, rowsOf } from './engines';

const keyOf = (query: string) => planCacheKey('s', plan(query), 1000);

describe('SQLite SQL whose result may vary between runs (no cached result)', () => {
  it('sees the clock, random numbers and the connection state however they are written', () => {
    for (const varies of [
      // 'now' as SQLite reads it: single- or double-quoted (a double-quoted word naming no column is a
      // string literal), any case, padded, as a blob.
      "SELECT date('now')",
      'SELECT date("now")',
      'SELECT strftime(\'%s\', "NOW")',
      "SELECT julianday('Now')",
      "SELECT datetime(' now ')",
      "SELECT date(x'6e6f77')",
      "SELECT date(X'6E6F77', '+1 day')",
      "SELECT * FROM orders WHERE ordered_on < date('now', '-1 year')",
      // Date functions with no time value read the clock: comments and spaces between the tokens.
      'SELECT date()',
      'SELECT DATE ( )',
      'SELECT date/* the day */(/* nothing */)',
      'SELECT date--\n()',
      "SELECT strftime('%s')",
      "SELECT StrFTime ( '%Y' /* format only */ )",
      'SELECT unixepoch()',
      'SELECT julianday()',
      'SELECT timediff()',
      'SELECT CURRENT_TIMESTAMP',
      'SELECT current_date',
      'SELECT Current_Time',
      // Random numbers and the connection's own history, under any case, quoting or comment.
      'SELECT random()',
      'SELECT RANDOM ()',
      'SELECT random/**/()',
      'SELECT "random"()',
      'SELECT [random]()',
      'SELECT `RANDOM`()',
      'SELECT hex(RandomBlob(4))',
      'SELECT changes()',
      'SELECT total_changes()',
      'SELECT last_insert_rowid()',
      'INSERT INTO orders (customer_id) VALUES (1); SELECT Last_Insert_RowId /* id */ ( )',
    ])
      assert.equal(keyOf(varies), undefined, varies);
  });

  it('still keeps plans that give the same result every time', () => {
    for (const same of [
      'SELECT 1',
      "SELECT strftime('%Y-%m', ordered_on) FROM orders",
      'SELECT date(ordered_on) FROM orders',
      "SELECT date('2026-01-01', '+1 day')",
      "SELECT strftime('%Y', '2026-01-01')",
      'SELECT julianday(2460000.5)',
      "SELECT 'the date()' AS label",
      'SELECT id FROM orders -- not random()',
      "SELECT name FROM customers WHERE name = 'nowhere'",
      'SELECT randomness FROM t',
    ])
      assert.notEqual(keyOf(same), undefined, same);
    assert.equal(planCacheKey('s', plan('SELECT 1', { setup: ['SELECT "now"'] }), 1000), undefined, 'setup counts');
    assert.equal(planCacheKey('s', plan('SELECT 1', { evalQueries: ['SELECT random()'] }), 1000), undefined);
  });

  it('runs a double-quoted "now" every time instead of answering from the cache', async () => {
    const cache = new PlanResultCache();
    const engine = await openSqlite({ sqlText: fixtureSql('sqlite') }, { resultCache: cache });
    try {
      const clock = plan('SELECT strftime(\'%Y-%m-%d %H:%M:%f\', "now") AS at');
      const year = new Date().getUTCFullYear();
      for (let i = 0; i < 3; i++) {
        const at = rowsOf((await engine.run(clock, LIMIT)).query)[0]?.[0];
        assert.match(String(at), new RegExp(`^${year}|^${year + 1}`), 'SQLite read "now" as the current time');
      }
      assert.equal(cache.hits, 0, 'no run was answered from the cache');
      assert.equal(cache.size, 0);
    } finally {
      await engine.close();
    }
  });
});
