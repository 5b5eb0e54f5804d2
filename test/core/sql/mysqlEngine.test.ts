import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import { createConnection } from 'mysql2/promise';
import type { EvalCase, Json } from '../../../core/case';
import { scoreCase } from '../../../core/runner/scoreCase';
import { sqlExactMatch } from '../../../core/scorers/builtin/sql/exactMatch';
import { nl2sqlPreparer } from '../../../core/sql/nl2sqlPreparer';
import { parseDatabaseConfig, type ServerSettings } from '../../../core/sql/databaseConfig';
import { databasePreparer } from '../../../core/sql/databasePreparer';
import { openEngine } from '../../../core/sql/openEngine';
import { mysqlSettingsFromUrl, openMysql } from '../../../core/sql/mysqlEngine';
import { mysqlRefusal } from '../../../core/sql/mysqlStatements';
import { timeLimitMessage } from '../../../core/sql/planRules';
import type { SqlEngine } from '../../../core/sql/sqlResult';
import { errorOf, LIMIT, plan, rowsOf } from './engines';
import { createEngineContext } from '../../../core/engineContext';
import type { LiveScorer } from '../../../core/runner/prepareScorers';

const MYSQL_URL = process.env['EVALLENS_MYSQL_URL'];
const MYSQL_MISSING = 'MySQL not available: run scripts/mariadb.sh and set EVALLENS_MYSQL_URL';

const SHOP = `
CREATE TABLE customers (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, balance DECIMAL(10,2), joined DATETIME, photo VARBINARY(4)) ENGINE=InnoDB;
INSERT INTO customers VALUES (1, 'Ada', 12.50, '2024-01-31 12:00:00', x'00ff'), (2, 'Grace', 0.10, NULL, NULL), (3, 'Linus', NULL, NULL, NULL);
CREATE TABLE events (id INT AUTO_INCREMENT PRIMARY KEY, what VARCHAR(20)) ENGINE=InnoDB;
`;

/** Runs SQL on a database of the test server, on a connection of its own. */
async function onServer<T>(settings: ServerSettings, sql: string): Promise<T> {
  const connection = await createConnection({
    host: settings.host,
    port: settings.port,
    user: settings.user,
    database: settings.database,
    multipleStatements: true,
    ...(settings.password === undefined ? {} : { password: settings.password }),
  });
  try {
    const [rows] = await connection.query({ sql, rowsAsArray: true });
    return rows as T;
  } finally {
    await connection.end();
  }
}

/** A new database on the EVALLENS_MYSQL_URL server, built from `sql`; `drop` removes it. */
async function createDatabase(
  name: string,
  sql: string,
): Promise<{ settings: ServerSettings; drop: () => Promise<void> }> {
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
    assert.equal(
      mysqlRefusal(
        'INSERT INTO t VALUES (1); UPDATE t SET a = 2; DELETE FROM t; CREATE TEMPORARY TABLE tmp (a INT); DROP TEMPORARY TABLE tmp',
      ),
      undefined,
    );
    assert.match(mysqlRefusal('SELECT 1; COMMIT') ?? '', /^COMMIT is not allowed in SQL under test/);
    assert.match(mysqlRefusal('start transaction') ?? '', /^START TRANSACTION is not allowed/);
    assert.match(
      mysqlRefusal('CREATE TABLE t2 (a INT)') ?? '',
      /CREATE is not run on MySQL: MySQL commits DDL at once/,
    );
    assert.match(mysqlRefusal('TRUNCATE t') ?? '', /TRUNCATE is not run on MySQL/);
    assert.match(mysqlRefusal('LOCK TABLES t WRITE') ?? '', /LOCK is not run on MySQL/);
    assert.match(mysqlRefusal('SET autocommit = 1') ?? '', /SET is not allowed/);
    assert.match(mysqlRefusal('SELECT 1 /*!50000 ; COMMIT */') ?? '', /\/\*! … \*\/ comment is not allowed/);
    assert.match(
      mysqlRefusal('SELECT 1--1; DROP TABLE t') ?? '',
      /^DROP is not run on MySQL/,
      '`--` without a space after it is not a comment in MySQL',
    );
    assert.equal(mysqlRefusal('SELECT 1 -- ; DROP TABLE t\nFROM t'), undefined);
    assert.match(mysqlRefusal('XA START 0x1') ?? '', /^XA START is not allowed in SQL under test/);
    assert.match(mysqlRefusal('CREATE TEMPORARY TRIGGER x BEGIN; DROP TABLE t; END') ?? '', /is not run on MySQL/);
    assert.equal(
      mysqlRefusal('SAVEPOINT a; DELETE FROM t; ROLLBACK TO SAVEPOINT a; RELEASE SAVEPOINT a', 'setup'),
      undefined,
      'the savepoints setup transaction control becomes',
    );
    assert.match(mysqlRefusal('SAVEPOINT a', 'under test') ?? '', /^SAVEPOINT is not allowed in SQL under test/);
    assert.match(mysqlRefusal("SELECT * FROM t INTO OUTFILE '/tmp/x'") ?? '', /writes a file on the database server/);
  });
});

describe('MySQL engine (MariaDB)', () => {
  let database: { settings: ServerSettings; drop: () => Promise<void> } | undefined;
  let engine: SqlEngine | undefined;
  before(async () => {
    if (MYSQL_URL === undefined) return;
    database = await createDatabase('shop', SHOP);
    engine = await openMysql(database.settings, { allowSuperuser: true });
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
  const customersAndCounts = async (settings: ServerSettings) => ({
    customers: await onServer<unknown[][]>(settings, 'SELECT id, name FROM customers ORDER BY id'),
    events: await onServer<unknown[][]>(settings, 'SELECT id, what FROM events ORDER BY id'),
    tables: await onServer<unknown[][]>(
      settings,
      'SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME',
    ),
  });
  const counts = (settings: ServerSettings) =>
    onServer<unknown[][]>(
      settings,
      'SELECT (SELECT count(*) FROM customers), (SELECT count(*) FROM events), (SELECT count(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE())',
    );

  it("maps the server's types to comparable values", async (t) => {
    const my = need(t);
    if (my === undefined) return;
    const run = await my.engine.run(
      plan(
        'SELECT id, name, balance, joined, photo, 9007199254740993, CAST(1 AS DECIMAL(10,0)) / 3, CAST(12345678901234567890.5 AS DECIMAL(30,1)), 0.1e0, DATE(joined) FROM customers ORDER BY id',
      ),
      LIMIT,
    );
    assert.equal(my.engine.dialect, 'mysql');
    assert.deepEqual(rowsOf(run.query), [
      [
        1,
        'Ada',
        12.5,
        '2024-01-31T12:00:00',
        '00ff',
        '9007199254740993',
        0.3333,
        '12345678901234567890.5',
        0.1,
        '2024-01-31',
      ],
      [2, 'Grace', 0.1, null, null, '9007199254740993', 0.3333, '12345678901234567890.5', 0.1, null],
      [3, 'Linus', null, null, null, '9007199254740993', 0.3333, '12345678901234567890.5', 0.1, null],
    ]);
  });

  it('runs DML and its eval queries in a transaction that is rolled back: the database is untouched afterwards', async (t) => {
    const my = need(t);
    if (my === undefined) return;
    const before = await counts(my.settings);
    const run = await my.engine.run(
      plan("INSERT INTO events (what) VALUES ('a'), ('b'); DELETE FROM customers WHERE id = 3", {
        setup: ["INSERT INTO customers (id, name) VALUES (9, 'Setup')"],
        evalQueries: ['SELECT count(*) FROM customers', 'SELECT count(*) FROM events'],
      }),
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
    const ddl = await my.engine.run(
      plan('DROP TABLE customers', { evalQueries: ['SELECT count(*) FROM customers'] }),
      LIMIT,
    );
    assert.match(errorOf(ddl.query), /DROP is not run on MySQL: MySQL commits DDL at once/);
    assert.deepEqual(rowsOf(ddl.evalQueries?.[0]), [[3]]);
    const commit = await my.engine.run(plan('DELETE FROM customers; COMMIT'), LIMIT);
    assert.match(errorOf(commit.query), /COMMIT is not allowed in SQL under test/);
    assert.deepEqual(await counts(my.settings), before);
  });

  it('runs BEGIN / START TRANSACTION … COMMIT / ROLLBACK in setup as savepoints, and the run leaves nothing behind', async (t) => {
    const my = need(t);
    if (my === undefined) return;
    const before = await customersAndCounts(my.settings);
    const run = await my.engine.run(
      plan('SELECT what FROM events ORDER BY id', {
        setup: [
          "BEGIN; INSERT INTO events (what) VALUES ('begun'); COMMIT;",
          'START TRANSACTION; DELETE FROM customers WHERE id = 3; ROLLBACK',
          "BEGIN WORK; UPDATE customers SET name = 'Changed' WHERE id = 1; COMMIT WORK",
          'COMMIT',
          '-- nothing to do',
        ],
        evalQueries: ['SELECT id, name FROM customers ORDER BY id'],
        cleanup: ['BEGIN; DELETE FROM events; COMMIT'],
      }),
      LIMIT,
    );
    assert.equal(run.setupErrors, undefined);
    assert.deepEqual(rowsOf(run.query), [['begun']]);
    assert.deepEqual(
      rowsOf(run.evalQueries?.[0]),
      [
        [1, 'Changed'],
        [2, 'Grace'],
        [3, 'Linus'],
      ],
      'the rolled-back DELETE removed nothing; the committed UPDATE ran',
    );
    assert.deepEqual(await customersAndCounts(my.settings), before, 'seen from a fresh connection');
  });

  it('records a failing or refused setup statement in setupErrors, rolls it back and goes on with the case', async (t) => {
    const my = need(t);
    if (my === undefined) return;
    const before = await customersAndCounts(my.settings);
    const run = await my.engine.run(
      plan('SELECT what FROM events ORDER BY id', {
        setup: [
          "INSERT INTO events (what) VALUES ('first'); INSERT INTO nowhere VALUES (1)",
          "INSERT INTO events (what) VALUES ('second')",
          'CREATE TABLE sneaky (a INT)',
        ],
        evalQueries: ['SELECT count(*) FROM customers'],
      }),
      LIMIT,
    );
    assert.deepEqual(rowsOf(run.query), [['second']], 'the first entry was rolled back as a whole; the second ran');
    assert.deepEqual(rowsOf(run.evalQueries?.[0]), [[3]]);
    assert.equal(run.setupErrors?.length, 2);
    assert.match(
      run.setupErrors?.[0] ?? '',
      /^setup_sql #1 failed and was rolled back; the case went on, as EvalBench's does: .*nowhere/,
    );
    assert.match(
      run.setupErrors?.[1] ?? '',
      /^setup_sql #3 failed and was rolled back; .*CREATE is not run on MySQL: MySQL commits DDL at once/,
    );
    assert.deepEqual(
      await customersAndCounts(my.settings),
      before,
      'no table sneaky, no events: seen from a fresh connection',
    );
  });

  it('an attacker COMMIT; DROP TABLE in setup or in generated SQL changes nothing (seen from a fresh connection)', async (t) => {
    const my = need(t);
    if (my === undefined) return;
    const before = await customersAndCounts(my.settings);
    const inSetup = await my.engine.run(
      plan('SELECT count(*) FROM customers', {
        setup: [
          'DELETE FROM events; COMMIT; DROP TABLE customers',
          'END; DELETE FROM customers; COMMIT',
          'SELECT 1--1; DROP TABLE events',
          'XA START 0x1',
        ],
      }),
      LIMIT,
    );
    assert.deepEqual(rowsOf(inSetup.query), [[0]], 'the case went on; the DELETE ran inside the run only');
    assert.match(inSetup.setupErrors?.[0] ?? '', /^setup_sql #1 failed .*DROP is not run on MySQL/);
    assert.match(
      inSetup.setupErrors?.[1] ?? '',
      /^setup_sql #3 failed .*DROP is not run on MySQL/,
      '--1 is not a comment in MySQL: the DROP is seen',
    );
    assert.match(
      inSetup.setupErrors?.[2] ?? '',
      /^setup_sql #4 failed .*XA START is not allowed in setup or cleanup SQL on MySQL/,
    );
    const preparer = nl2sqlPreparer(my.engine, { timeoutMs: 10_000 });
    const generated = async (output: string, queryType: string) =>
      (
        await preparer.prepare(
          {
            id: 'g',
            input: 'q',
            output,
            expected: {
              golden_sql: ['SELECT count(*) FROM customers'],
              eval_query: ['SELECT count(*) FROM customers'],
              query_type: queryType,
            },
          },
          new AbortController().signal,
        )
      ).sql;
    const fenced = await generated('```sql\nCOMMIT; DROP TABLE customers\n```', 'dml');
    assert.match(errorOf(fenced?.generated.query), /^COMMIT is not allowed in SQL under test/);
    assert.deepEqual(rowsOf(fenced?.generated.evalQueries?.[0]), [[3]]);
    const dashes = await generated('SELECT 1--1; DROP TABLE customers', 'dml');
    assert.match(errorOf(dashes?.generated.query), /^DROP is not run on MySQL/);
    const first = await generated('SELECT 1--1; DROP TABLE customers', 'dql');
    assert.deepEqual(
      rowsOf(first?.generated.query),
      [[2]],
      'a DQL item runs the first statement as MySQL reads it: 1 - (-1), not a comment',
    );
    assert.deepEqual(await customersAndCounts(my.settings), before);
  });

  it('makes a DDL item an error with the reason, before anything runs, instead of a 0 for "both queries failed"', async (t) => {
    const my = need(t);
    if (my === undefined) return;
    const made = sqlExactMatch.create(
      {},
      { engine: createEngineContext(), configDir: process.cwd(), timeoutMs: 10_000, env: {} },
    );
    assert.ok(made.ok);
    const scorers: LiveScorer[] = [
      {
        name: 'exact_match',
        definition: sqlExactMatch,
        options: {},
        context: { engine: createEngineContext(), configDir: process.cwd(), timeoutMs: 10_000, env: {} },
        scorer: made.scorer,
        weight: 1,
        lowerIsBetter: false,
        timeoutMs: 10_000,
        range: {
          file: 'mysql-ddl.yaml',
          start: { offset: 0, line: 1, column: 1 },
          end: { offset: 0, line: 1, column: 1 },
        },
      },
    ];
    const preparer = nl2sqlPreparer(my.engine, { timeoutMs: 10_000 });
    const ddlCase = (expected: { [key: string]: Json }): EvalCase => ({
      id: 'ddl',
      input: 'add an email column',
      output: 'ALTER TABLE customers ADD COLUMN email TEXT',
      expected,
    });
    const [ddl] = await scoreCase(
      ddlCase({
        golden_sql: ['ALTER TABLE customers ADD COLUMN email TEXT'],
        eval_query: ['SELECT 1'],
        query_type: 'ddl',
      }),
      scorers,
      1,
      { now: () => 0, preparer },
    );
    assert.equal(ddl?.status, 'error');
    assert.match(
      ddl?.reason ?? '',
      /^a DDL item \(query_type ddl\) cannot be scored on MySQL: ALTER is not run on MySQL: MySQL commits DDL at once/,
    );
    const [untyped] = await scoreCase(ddlCase({ golden_sql: ['CREATE TABLE emails (a INT)'] }), scorers, 1, {
      now: () => 0,
      preparer,
    });
    assert.equal(untyped?.status, 'error');
    assert.match(
      untyped?.reason ?? '',
      /^an item whose golden SQL holds DDL cannot be scored on MySQL: CREATE is not run/,
    );
  });

  it('rolls a failing query back to its savepoint and goes on with the eval queries', async (t) => {
    const my = need(t);
    if (my === undefined) return;
    const run = await my.engine.run(
      plan("INSERT INTO events (what) VALUES ('kept'); SELECT nope FROM customers", {
        setup: ["INSERT INTO events (what) VALUES ('setup')"],
        evalQueries: ['SELECT what FROM events ORDER BY id'],
      }),
      LIMIT,
    );
    assert.match(errorOf(run.query), /Unknown column 'nope'/);
    assert.deepEqual(rowsOf(run.evalQueries?.[0]), [['setup']]);
  });

  it('leaves no session state to the next run: a temporary table is gone with its connection', async (t) => {
    const my = need(t);
    if (my === undefined) return;
    const first = await my.engine.run(
      plan('CREATE TEMPORARY TABLE leftover (a INT); INSERT INTO leftover VALUES (1); SELECT a FROM leftover'),
      LIMIT,
    );
    assert.deepEqual(rowsOf(first.query), [[1]]);
    const next = await my.engine.run(plan('SELECT a FROM leftover'), LIMIT);
    assert.match(errorOf(next.query), /leftover' doesn't exist/);
  });

  it('stops a statement at the time limit and stops the eval queries after one that exceeds it', async (t) => {
    const my = need(t);
    if (my === undefined) return;
    const run = await my.engine.run(plan('SELECT SLEEP(60)', { evalQueries: ['SELECT SLEEP(60)', 'SELECT 1'] }), {
      timeoutMs: 300,
    });
    assert.equal(errorOf(run.query), timeLimitMessage(300));
    assert.equal(errorOf(run.evalQueries?.[0]), timeLimitMessage(300));
    assert.equal(errorOf(run.evalQueries?.[1]), 'not run: eval query #1 exceeded the time limit');
  });

  it('stops the statement on the server and rejects with an AbortError when the run is aborted', async (t) => {
    const my = need(t);
    if (my === undefined) return;
    const controller = new AbortController();
    const running = my.engine.run(plan('SELECT SLEEP(60) AS evallens_abort_probe'), {
      timeoutMs: 120_000,
      signal: controller.signal,
    });
    const sleeping = async () =>
      (
        await onServer<unknown[][]>(
          my.settings,
          "SELECT count(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE 'SELECT SLEEP(60) AS evallens_abort_probe%'",
        )
      )[0]?.[0];
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
    const myisam = await createDatabase(
      'myisam',
      'CREATE TABLE logbook (a INT) ENGINE=MyISAM; CREATE TABLE fine (a INT) ENGINE=InnoDB',
    );
    try {
      await assert.rejects(
        openMysql(myisam.settings, { allowSuperuser: true }),
        /tables whose changes a rollback cannot undo: logbook \(MyISAM\); .*convert them to InnoDB/,
      );
    } finally {
      await myisam.drop();
    }
  });

  it('runs each case on the MySQL database its item names, through a database config (db_name_mappings as EvalBench maps names)', async (t) => {
    if (MYSQL_URL === undefined) return t.skip(MYSQL_MISSING);
    const admin = mysqlSettingsFromUrl(MYSQL_URL);
    const first = await createDatabase(
      'first',
      "CREATE TABLE t (a VARCHAR(10)) ENGINE=InnoDB; INSERT INTO t VALUES ('first')",
    );
    const second = await createDatabase(
      'second',
      "CREATE TABLE t (a VARCHAR(10)) ENGINE=InnoDB; INSERT INTO t VALUES ('second')",
    );
    const parsed = parseDatabaseConfig(
      `db_type: mysql\ndialect: mysql\ndatabase_name: evallens_test\ndatabase_path: ${admin.host}:${admin.port}\nuser_name: ${admin.user}\nallow_superuser: true\n`,
      '/work/mysql.yaml',
      {},
    );
    assert.deepEqual(
      parsed.problems.map((p) => p.code),
      ['superuser-allowed'],
      'the test server runs as root',
    );
    assert.ok(parsed.config !== undefined);
    const preparer = databasePreparer([{ config: parsed.config }], {
      timeoutMs: 5000,
      env: {},
      names: { mappings: { mysql: `evallens_t_${process.pid}_{db_id}` } },
      open: (location, env) => openEngine(location, env),
    });
    try {
      const sqlCase = (database: string): EvalCase => ({
        id: database,
        input: 'q',
        output: 'SELECT a FROM t',
        expected: { golden_sql: ['SELECT a FROM t'], dialect: 'mysql', database },
      });
      for (const database of ['first', 'second']) {
        const prepared = await preparer.prepare(sqlCase(database), new AbortController().signal);
        assert.equal(prepared.sql?.dialect, 'mysql');
        assert.deepEqual(rowsOf(prepared.sql?.generated.query), [[database]]);
      }
      await assert.rejects(
        preparer.prepare(sqlCase('third'), new AbortController().signal),
        /cannot connect to MySQL at .*database "evallens_t_\d+_third".*Unknown database/,
      );
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
      assert.match(
        e.message,
        /^cannot connect to MySQL at 127\.0\.0\.1:\d+, database "evallens_test" as user "nobody_here": /,
      );
      assert.doesNotMatch(e.message, /pa55-secret/);
      return true;
    });
  });
});
