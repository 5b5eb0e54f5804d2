import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planCacheKey, PlanResultCache } from '../../../core/sql/planResultCache';
import { openSqlite } from '../../../core/sql/sqliteEngine';
import type { QueryRun } from '../../../core/sql/sqlResult';
import { errorOf, fixtureSql, LIMIT, plan, rowsOf } from './engines';

const RUNAWAY =
  'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 1000000000) SELECT count(*) FROM c';

const rowsRun = (text: string, rows: number): QueryRun => ({
  query: { ok: true, result: { columns: ['v'], rows: Array.from({ length: rows }, () => [text]) } },
  durationMs: 1,
});

describe('SQLite plan result cache', () => {
  it('stays within its byte bound, drops the least recently used first, and never keeps a run over the entry cap', () => {
    const cache = new PlanResultCache(20_000, 8_000);
    const keep = (key: string, run: QueryRun) => {
      cache.set(key, run);
      cache.set(key, run);
    };
    for (let i = 0; i < 10; i++) keep(`k${i}`, rowsRun('x'.repeat(100), 20));
    assert.ok(cache.usedBytes <= 20_000, `${cache.usedBytes} bytes kept`);
    assert.ok(cache.size < 10 && cache.size > 0, `${cache.size} runs kept`);
    assert.equal(cache.get('k0'), undefined, 'the oldest went first');
    assert.notEqual(cache.get('k9'), undefined, 'the newest is kept');
    keep('huge', rowsRun('y'.repeat(1000), 10));
    assert.equal(cache.get('huge'), undefined, 'a run over the entry cap is not kept');
  });

  it('keeps a run only when its plan is seen the second time', () => {
    const cache = new PlanResultCache();
    cache.set('a', rowsRun('x', 1));
    assert.equal(cache.get('a'), undefined, 'seen once: not kept');
    cache.set('a', rowsRun('x', 1));
    assert.notEqual(cache.get('a'), undefined, 'seen twice: kept');
  });

  it('keys only plans that give the same result on every run', () => {
    const key = (query: string) => planCacheKey('s', plan(query), 1000);
    assert.notEqual(key("SELECT strftime('%Y-%m', ordered_on) FROM orders"), undefined);
    assert.notEqual(key('SELECT date(ordered_on) FROM orders'), undefined);
    for (const varies of [
      'SELECT random()',
      'SELECT hex(randomblob(4))',
      "SELECT date('now')",
      'SELECT CURRENT_TIMESTAMP',
      'SELECT date()',
      "SELECT strftime('%s')",
      'SELECT unixepoch()',
    ])
      assert.equal(key(varies), undefined, varies);
    assert.equal(planCacheKey('s', plan('SELECT 1', { setup: ['SELECT random()'] }), 1000), undefined);
    assert.notEqual(planCacheKey('s', plan('SELECT 1'), 1000), planCacheKey('s', plan('SELECT 1'), 2000));
    assert.notEqual(planCacheKey('a', plan('SELECT 1'), 1000), planCacheKey('b', plan('SELECT 1'), 1000));
  });

  it('answers a repeated plan from the cache with the same run, and runs the others', async () => {
    const cache = new PlanResultCache();
    const engine = await openSqlite({ sqlText: fixtureSql('sqlite') }, { resultCache: cache });
    try {
      const golden = plan('SELECT id FROM customers ORDER BY id');
      const first = await engine.run(golden, LIMIT);
      const second = await engine.run(golden, LIMIT);
      const third = await engine.run(golden, LIMIT);
      assert.deepEqual(second.query, first.query);
      assert.equal(third, second, 'the third run is the kept one');
      assert.equal(cache.hits, 1);
      const dml = plan('DELETE FROM orders', { evalQueries: ['SELECT count(*) FROM orders'] });
      for (let i = 0; i < 3; i++) assert.deepEqual(rowsOf((await engine.run(dml, LIMIT)).evalQueries?.[0]), [[0]]);
      assert.deepEqual(
        rowsOf((await engine.run(plan('SELECT count(*) FROM orders'), LIMIT)).query),
        [[12]],
        'every run still starts from a fresh copy: the DELETE reached no other run',
      );
      const draws = new Set<unknown>();
      for (let i = 0; i < 3; i++) draws.add(rowsOf((await engine.run(plan('SELECT random()'), LIMIT)).query)[0]?.[0]);
      assert.equal(draws.size, 3, 'random() runs each time');
      assert.equal(cache.hits, 2);
    } finally {
      await engine.close();
    }
    assert.equal(cache.size, 0, 'a closed engine leaves nothing in the cache');
  });

  it('does not keep a run a time limit stopped', async () => {
    const cache = new PlanResultCache();
    const engine = await openSqlite({ sqlText: fixtureSql('sqlite') }, { resultCache: cache });
    try {
      for (let i = 0; i < 3; i++) {
        const run = await engine.run(plan(RUNAWAY), { timeoutMs: 200 });
        assert.match(errorOf(run.query), /time limit/);
      }
      assert.equal(cache.hits, 0);
      assert.equal(cache.size, 0);
    } finally {
      await engine.close();
    }
  });

  it('can be turned off', async () => {
    const engine = await openSqlite({ sqlText: fixtureSql('sqlite') }, { resultCache: false });
    try {
      const a = await engine.run(plan('SELECT 1'), LIMIT);
      const b = await engine.run(plan('SELECT 1'), LIMIT);
      assert.deepEqual(rowsOf(a.query), rowsOf(b.query));
      assert.notEqual(a, b, 'each run is its own');
    } finally {
      await engine.close();
    }
  });
});
