import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import { createConnection } from 'mysql2/promise';
import type { EvalCase } from '../../../core/case';
import { parseDatabaseConfig, type ServerSettings } from '../../../core/sql/databaseConfig';
import { databasePreparer } from '../../../core/sql/databasePreparer';
import { openEngine } from '../../../core/sql/openEngine';
import { mysqlSettingsFromUrl, openMysql } from '../../../core/sql/mysqlEngine';
import { mysqlRefusal } from '../../../core/sql/mysqlStatements';
import { timeLimitMessage } from '../../../core/sql/planRules';
import type { SqlEngine } from '../../../core/sql/sqlResult';
import { errorOf, LIMIT, plan, rowsOf } from './engines';

const MYSQL_URL = process.env['EVALLENS_MYSQL_URL'];
const MYSQL_MISSING = 'MySQL not available: run scripts/mariadb.sh and set EVALLENS_MYSQL_URL';

const SHOP = `
CREATE TABLE customers (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, balance DECIMAL(10,2), joined DATETIME, photo VARBINARY(4)) ENGINE=InnoDB;
INSERT INTO customers VALUES (1, 'Ada', 12.50, '2024-01-31 12:00:00', x'00ff'), (2, 'Grace', 0.10, NULL, NULL), (3, 'Linus', NULL, NULL, NULL);
CREATE TABLE events (id INT AUTO_INCREMENT PRIMARY KEY, what VARCHAR(20)) ENGINE=InnoDB;
`;

/** Runs SQL on a database of the test server, on a connection of its own. */
async function onServer<T>(settings: ServerSettings, sql: string): Promise<T> {
  const connection = await createConnection({ host: settings.host, port: settings.port, user: settings.user, database: settings.database, multipleStatements: true, ...(settings.password === undefined ? {} : { password: settings.password }) });
  try {
    const [rows] = await connection.query({ sql, rowsAsArray: true });
    return rows as T;
  } finally {
    await connection.end();
  }
}

/** A new database on the EVALLENS_MYSQL_URL server, built from `sql`; `drop` removes it. */
async function createDatabase(name: string, sql: string): Promise<{ settings: ServerSettings; drop: () => Promise<void> }> {
  const admin = mysqlSettingsFromUrl(MYSQL_URL ?? '');
  const database = `evallens_t_${process.pid}_${name}`;
  await onServer(admin, `DROP DATABASE IF EXISTS ${database}; CREATE DATABASE ${database}`);
  const settings = { ...admin, database };
  await onServer(settings, sql);
  return { settings, drop: () => onServer(admin, `DROP DATABASE IF EXISTS ${database}`) };
}

describe('MySQL statements EvalLens refuses', () => {
  it('refuses what MySQL would commit at once, transaction control and SET, and reads quotes and comments as MySQL does', () => {
    assert.equal(mysqlRefusal("SELECT 'it\\'s; COMMIT' AS a, `x;y` FROM t -- ; COMMIT\n# COMMIT\n"), undefined);
    assert.equal(mysqlRefusal('INSERT INTO t VALUES (1); UPDATE t SET a = 2; DELETE FROM t; CREATE TEMPORARY TABLE tmp (a INT); DROP TEMPORARY TABLE tmp'), undefined);
    assert.match(mysqlRefusal('SELECT 1; COMMIT') ?? '', /^COMMIT is not allowed in SQL under test/);
    assert.match(mysqlRefusal('start transaction') ?? '', /^START TRANSACTION is not allowed/);
    assert.match(mysqlRefusal('CREATE TABLE t2 (a INT)') ?? '', /CREATE is not run on MySQL: MySQL commits DDL at once/);
    assert.match(mysqlRefusal('TRUNCATE t') ?? '', /TRUNCATE is not run on MySQL/);
    assert.match(mysqlRefusal('LOCK TABLES t WRITE') ?? '', /LOCK is not run on MySQL/);
    assert.match(mysqlRefusal('SET autocommit = 1') ?? '', /SET is not allowed/);
    assert.match(mysqlRefusal('SELECT 1 /*!50000 ; COMMIT */') ?? '', /\/\*! … \*\/ comment is not allowed/);
    assert.match(mysqlRefusal("SELECT * FROM t INTO OUTFILE '/tmp/x'") ?? '', /writes a file on the database server/);
  });
});

describe('MySQL engine (MariaDB)', () => {
  let database: { settings: ServerSettings; drop: () => Promise<void> } | undefined;
  let engine: SqlEngine | undefined;
  before(async () => {
    if (MYSQL_URL === undefined) return;
    database = await createDatabase('shop', SHOP);
    engine = await openMysql(database.settings);
  });
  after(async () => {
    await engine?.close();
    await database?.drop();
  });
  const need = (t: TestContext): { engine: SqlEngine; settings: ServerSettings } | undefined => {
    if (engine === undefined || database === undefined) {
      t.skip(MYSQL_MISSING);
      return undefined;
    }
    return { engine, settings: database.settings };
  };
  const counts = (settings: ServerSettings) => onServer<unknown[][]>(settings, "SELECT (SELECT count(*) FROM customers), (SELECT count(*) FROM events), (SELECT count(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE())");

  it("maps the server's types to comparable values", async (t) => {
    const my = need(t);
    if (my === undefined) return;
    const run = await my.engine.run(plan('SELECT id, name, balance, joined, photo, 9007199254740993, CAST(1 AS DECIMAL(10,0)) / 3, CAST(12345678901234567890.5 AS DECIMAL(30,1)), 0.1e0, DATE(joined) FROM customers ORDER BY id'), LIMIT);
    assert.equal(my.engine.dialect, 'mysql');
    assert.deepEqual(rowsOf(run.query), [
      [1, 'Ada', 12.5, '2024-01-31T12:00:00', '00ff', '9007199254740993', 0.3333, '12345678901234567890.5', 0.1, '2024-01-31'],
      [2, 'Grace', 0.1, null, null, '9007199254740993', 0.3333, '12345678901234567890.5', 0.1, null],
      [3, 'Linus', null, null, null, '9007199254740993', 0.3333, '12345678901234567890.5', 0.1, null],
    ]);
  });

  it('runs DML and its eval queries in a transaction that is rolled back: the database is untouched afterwards', async (t) => {
    const my = need(t);
    if (my === undefined) return;
    const before = await counts(my.settings);
    const run = await my.engine.run(
      plan("INSERT INTO events (what) VALUES ('a'), ('b'); DELETE FROM customers WHERE id = 3", { setup: ["INSERT INTO customers (id, name) VALUES (9, 'Setup')"], evalQueries: ['SELECT count(*) FROM customers', 'SELECT count(*) FROM events'] }),
      LIMIT,
    );
    assert.equal(run.query.ok, true, run.query.ok ? '' : run.query.error);
    assert.deepEqual(rowsOf(run.evalQueries?.[0]), [[3]]);
    assert.deepEqual(rowsOf(run.evalQueries?.[1]), [[2]]);
    assert.deepEqual(await counts(my.settings), before);
  });

  it('refuses DDL and COMMIT in SQL under test, so the database keeps its tables and rows', async (t) => {
    const my = need(t);
    if (my === undefined) return;
    const before = await counts(my.settings);
    const ddl = await my.engine.run(plan('DROP TABLE customers', { evalQueries: ['SELECT count(*) FROM customers'] }), LIMIT);
    assert.match(errorOf(ddl.query), /DROP is not run on MySQL: MySQL commits DDL at once/);
    assert.deepEqual(rowsOf(ddl.evalQueries?.[0]), [[3]]);
    const commit = await my.engine.run(plan("DELETE FROM customers; COMMIT"), LIMIT);
    assert.match(errorOf(commit.query), /COMMIT is not allowed in SQL under test/);
    const setup = await my.engine.run(plan('SELECT 1', { setup: ['CREATE TABLE sneaky (a INT)'], evalQueries: ['SELECT 1'] }), LIMIT);
    assert.match(errorOf(setup.query), /^setup_sql #1 failed, so the query did not run: CREATE is not run on MySQL/);
    assert.deepEqual(await counts(my.settings), before);
  });

  it('rolls a failing query back to its savepoint and goes on with the eval queries', async (t) => {
    const my = need(t);
    if (my === undefined) return;
    const run = await my.engine.run(plan("INSERT INTO events (what) VALUES ('kept'); SELECT nope FROM customers", { setup: ["INSERT INTO events (what) VALUES ('setup')"], evalQueries: ['SELECT what FROM events ORDER BY id'] }), LIMIT);
    assert.match(errorOf(run.query), /Unknown column 'nope'/);
    assert.deepEqual(rowsOf(run.evalQueries?.[0]), [['setup']]);
  });

  it('leaves no session state to the next run: a temporary table is gone with its connection', async (t) => {
    const my = need(t);
    if (my === undefined) return;
    const first = await my.engine.run(plan('CREATE TEMPORARY TABLE leftover (a INT); INSERT INTO leftover VALUES (1); SELECT a FROM leftover'), LIMIT);
    assert.deepEqual(rowsOf(first.query), [[1]]);
    const next = await my.engine.run(plan('SELECT a FROM leftover'), LIMIT);
    assert.match(errorOf(next.query), /leftover' doesn't exist/);
  });

  it('stops a statement at the time limit and stops the eval queries after one that exceeds it', async (t) => {
    const my = need(t);
    if (my === undefined) return;
    const run = await my.engine.run(plan('SELECT SLEEP(60)', { evalQueries: ['SELECT SLEEP(60)', 'SELECT 1'] }), { timeoutMs: 300 });
    assert.equal(errorOf(run.query), timeLimitMessage(300));
    assert.equal(errorOf(run.evalQueries?.[0]), timeLimitMessage(300));
    assert.equal(errorOf(run.evalQueries?.[1]), 'not run: eval query #1 exceeded the time limit');
  });

  it('stops the statement on the server and rejects with an AbortError when the run is aborted', async (t) => {
    const my = need(t);
    if (my === undefined) return;
    const controller = new AbortController();
    const running = my.engine.run(plan('SELECT SLEEP(60) AS evallens_abort_probe'), { timeoutMs: 120_000, signal: controller.signal });
    const sleeping = async () => (await onServer<unknown[][]>(my.settings, "SELECT count(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE 'SELECT SLEEP(60) AS evallens_abort_probe%'"))[0]?.[0];
    for (let i = 0; i < 200 && Number(await sleeping()) === 0; i++) await new Promise((r) => setTimeout(r, 25));
    controller.abort();
    await assert.rejects(running, { name: 'AbortError' });
    let left = 1;
    for (let i = 0; i < 200 && left > 0; i++) {
      left = Number(await sleeping());
      if (left > 0) await new Promise((r) => setTimeout(r, 25));
    }
    assert.equal(left, 0, 'the server no longer runs the statement');
    const after = await my.engine.run(plan('SELECT count(*) FROM customers'), LIMIT);
    assert.deepEqual(rowsOf(after.query), [[3]], 'the engine goes on');
  });

  it('refuses a database whose tables a rollback cannot undo, naming them', async (t) => {
    if (MYSQL_URL === undefined) return t.skip(MYSQL_MISSING);
    const myisam = await createDatabase('myisam', 'CREATE TABLE logbook (a INT) ENGINE=MyISAM; CREATE TABLE fine (a INT) ENGINE=InnoDB');
    try {
      await assert.rejects(openMysql(myisam.settings), /tables whose changes a rollback cannot undo: logbook \(MyISAM\); .*convert them to InnoDB/);
    } finally {
      await myisam.drop();
    }
  });

  it('runs each case on the MySQL database its item names, through a database config (db_name_mappings as EvalBench maps names)', async (t) => {
    if (MYSQL_URL === undefined) return t.skip(MYSQL_MISSING);
    const admin = mysqlSettingsFromUrl(MYSQL_URL);
    const first = await createDatabase('first', "CREATE TABLE t (a VARCHAR(10)) ENGINE=InnoDB; INSERT INTO t VALUES ('first')");
    const second = await createDatabase('second', "CREATE TABLE t (a VARCHAR(10)) ENGINE=InnoDB; INSERT INTO t VALUES ('second')");
    const parsed = parseDatabaseConfig(`db_type: mysql\ndialect: mysql\ndatabase_name: evallens_test\ndatabase_path: ${admin.host}:${admin.port}\nuser_name: ${admin.user}\n`, '/work/mysql.yaml', {});
    assert.deepEqual(parsed.problems, []);
    assert.ok(parsed.config !== undefined);
    const preparer = databasePreparer([{ config: parsed.config }], { timeoutMs: 5000, env: {}, names: { mappings: { mysql: `evallens_t_${process.pid}_{db_id}` } }, open: (location, env) => openEngine(location, env) });
    try {
      const sqlCase = (database: string): EvalCase => ({ id: database, input: 'q', output: 'SELECT a FROM t', expected: { golden_sql: ['SELECT a FROM t'], dialect: 'mysql', database } });
      for (const database of ['first', 'second']) {
        const prepared = await preparer.prepare(sqlCase(database), new AbortController().signal);
        assert.equal(prepared.sql?.dialect, 'mysql');
        assert.deepEqual(rowsOf(prepared.sql?.generated.query), [[database]]);
      }
      await assert.rejects(preparer.prepare(sqlCase('third'), new AbortController().signal), /cannot connect to MySQL at .*database "evallens_t_\d+_third".*Unknown database/);
    } finally {
      await preparer.close();
      await first.drop();
      await second.drop();
    }
  });

  it('names the server when it cannot connect, without the password', async (t) => {
    if (MYSQL_URL === undefined) return t.skip(MYSQL_MISSING);
    const settings = { ...mysqlSettingsFromUrl(MYSQL_URL), user: 'nobody_here', password: 'pa55-secret' };
    await assert.rejects(openMysql(settings), (e: Error) => {
      assert.match(e.message, /^cannot connect to MySQL at 127\.0\.0\.1:\d+, database "evallens_test" as user "nobody_here": /);
      assert.doesNotMatch(e.message, /pa55-secret/);
      return true;
    });
  });
});
