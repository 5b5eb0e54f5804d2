import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import initSqlJs from 'sql.js';
import { openSqlite, sqliteValue } from '../../../core/sql/sqliteEngine';
import { errorOf, fixtureSql, LIMIT, plan, rowsOf } from './engines';

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('SQLite engine on a database file', () => {
  let dir = '';
  let file = '';
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'evallens-sqlite-'));
    file = join(dir, 'shop.sqlite');
    const SQL = await initSqlJs({ locateFile: () => require.resolve('sql.js/dist/sql-wasm.wasm') });
    const db = new SQL.Database();
    db.exec(fixtureSql('sqlite'));
    writeFileSync(file, db.export());
    db.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the file once and never writes it, whatever the SQL does', async () => {
    const before = sha(file);
    const engine = await openSqlite({ file });
    try {
      for (const sql of [
        'DROP TABLE orders',
        'DELETE FROM customers',
        'VACUUM',
        "ATTACH DATABASE 'other.db' AS other; CREATE TABLE other.x (a INTEGER)",
      ]) {
        await engine.run(plan(sql), LIMIT);
      }
      assert.equal(sha(file), before, 'the file is byte for byte what it was');
      rmSync(file);
      const run = await engine.run(
        plan('SELECT count(*) FROM orders', { evalQueries: ['SELECT count(*) FROM customers'] }),
        LIMIT,
      );
      assert.deepEqual(rowsOf(run.query), [[12]], 'the engine keeps its own copy of the bytes');
      assert.deepEqual(rowsOf(run.evalQueries?.[0]), [[6]]);
    } finally {
      await engine.close();
    }
  });

  it('refuses a missing file and a file that is not SQLite, with the path', async () => {
    await assert.rejects(
      openSqlite({ file: join(dir, 'nope.sqlite') }),
      /cannot open the SQLite database .*nope\.sqlite: no such file/,
    );
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'this is not a database, not at all; it is only some text');
    await assert.rejects(openSqlite({ file: text }), /notes\.txt is not an SQLite database/);
  });

  it('opens an empty file as an empty database (as EvalBench creates them)', async () => {
    const empty = join(dir, 'empty.sqlite');
    writeFileSync(empty, '');
    const engine = await openSqlite({ file: empty });
    const run = await engine.run(plan("SELECT count(*) FROM sqlite_master WHERE type = 'table'"), LIMIT);
    assert.deepEqual(rowsOf(run.query), [[0]]);
    await engine.close();
  });
});

describe('SQLite engine', () => {
  it('maps values: big integers to text, BLOBs to hex', async () => {
    const engine = await openSqlite({ sqlText: '' });
    try {
      const run = await engine.run(
        plan(
          "SELECT 9007199254740991, 9007199254740992, -9223372036854775808, 1.5, 'text', NULL, x'00ff10', 1e308 * 10",
        ),
        LIMIT,
      );
      assert.deepEqual(rowsOf(run.query), [
        [9007199254740991, '9007199254740992', '-9223372036854775808', 1.5, 'text', null, '00ff10', Infinity],
      ]);
    } finally {
      await engine.close();
    }
    assert.equal(sqliteValue(12n), 12);
    assert.equal(sqliteValue(new Uint8Array([0xab, 1])), 'ab01');
  });

  it('keeps no file that ATTACH or VACUUM INTO wrote for a later run', async () => {
    const engine = await openSqlite({ sqlText: 'CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1)' });
    try {
      await engine.run(
        plan("ATTACH DATABASE 'side.db' AS side; CREATE TABLE side.x (a INTEGER); INSERT INTO side.x VALUES (1)"),
        LIMIT,
      );
      await engine.run(plan("VACUUM INTO 'copy.db'"), LIMIT);
      const later = await engine.run(
        plan(
          "ATTACH 'side.db' AS side; ATTACH 'copy.db' AS copy; SELECT (SELECT count(*) FROM side.sqlite_master) + (SELECT count(*) FROM copy.sqlite_master)",
        ),
        LIMIT,
      );
      assert.deepEqual(rowsOf(later.query), [[0]], 'both files are gone');
    } finally {
      await engine.close();
    }
  });

  it('rejects SQL text that does not build a database, and bad sources', async () => {
    await assert.rejects(
      openSqlite({ sqlText: 'CREATE TABLE t (a INTEGER); INSERT INTO nope VALUES (1)' }),
      /the SQL text does not build an SQLite database: no such table: nope/,
    );
    await assert.rejects(openSqlite({}), /exactly one of `file`, `sqlText` and `setup`/);
    await assert.rejects(openSqlite({ file: 'a', sqlText: 'b' }), /exactly one of `file`, `sqlText` and `setup`/);
  });

  it('answers queued runs when closed, and refuses runs after', async () => {
    const engine = await openSqlite({ sqlText: 'CREATE TABLE t (a INTEGER)' });
    const running = engine.run(
      plan(
        'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 1000000000) SELECT count(*) FROM c',
      ),
      LIMIT,
    );
    const queued = engine.run(plan('SELECT 1'), LIMIT);
    await engine.close();
    await assert.rejects(running, /the SQLite engine was closed/);
    await assert.rejects(queued, /the SQLite engine was closed/);
    await assert.rejects(engine.run(plan('SELECT 1'), LIMIT), /the SQLite engine is closed/);
  });

  it('gives a statement whose rows do not fit in memory as an error, and goes on', async () => {
    const engine = await openSqlite({ sqlText: '' }, { heapLimitMb: 16 });
    try {
      const huge =
        "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 100000000) SELECT n, 'a row of text that fills memory' || n FROM c";
      const run = await engine.run(plan(huge, { evalQueries: ['SELECT 2'] }), { timeoutMs: 120_000 });
      assert.match(
        errorOf(run.query),
        /ran out of memory: the rows it returned exceed the 16 MB the SQLite worker may use/,
      );
      assert.deepEqual(rowsOf(run.evalQueries?.[0]), [[2]]);
    } finally {
      await engine.close();
    }
  });
});
