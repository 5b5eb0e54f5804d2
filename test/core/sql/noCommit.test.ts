import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { after, before, describe, it, type TestContext } from 'node:test';
import { Client } from 'pg';
import { mysqlTransactionEnded, mysqlRightsRefusal } from '../../../core/sql/mysqlNoCommit';
import { openMysql } from '../../../core/sql/mysqlEngine';
import { openPostgres } from '../../../core/sql/postgresEngine';
import { commitGuardSql, transactionChange } from '../../../core/sql/postgresNoCommit';
import type { QueryPlan, QueryRun, SqlEngine } from '../../../core/sql/sqlResult';
import { splitStatements } from '../../../core/sql/sqlStatements';
import { LIMIT, PG_MISSING, plan, rowsOf, withClient } from './engines';
import { MYSQL_MISSING, mysqlSandbox, postgresSandbox, type Sandbox } from './noCommitServers';

/**
 * Issue 13, item 2: SQL under test never changes a database. Each attack below is run through the
 * engine as a role without superuser rights (the sandbox's own), and the database's fingerprint — every
 * user table's rows, the catalog, roles and settings — must be what it was before. The attacks that
 * hide `COMMIT; BEGIN` from EvalLens's splitter committed on PostgreSQL before the fix.
 */

/** A file no attack may create on the (local) database server. */
const PROGRAM_FILE = `/tmp/atk_evallens_${process.pid}_program`;
const OUTFILE = `/tmp/atk_evallens_${process.pid}_outfile`;

const POSTGRES_ATTACKS: readonly (readonly [string, QueryPlan])[] = [
  [
    'standard_conforming_strings = off, then a quote the splitter reads otherwise hides DELETE; COMMIT; BEGIN',
    plan('SET standard_conforming_strings = off', {
      evalQueries: ["SELECT '\\''; DELETE FROM t; COMMIT; BEGIN; SELECT 1 --'"],
    }),
  ],
  [
    'the same in setup SQL',
    plan('SELECT count(*) FROM t', {
      setup: ['SET standard_conforming_strings = off', "SELECT '\\''; DELETE FROM t; COMMIT; BEGIN; SELECT 1 --'"],
    }),
  ],
  [
    'a `begin atomic` column label opens a body the server never sees, hiding COMMIT',
    plan('CREATE VIEW atk_v AS SELECT begin atomic FROM (SELECT 1 AS begin) s; DELETE FROM t; COMMIT; BEGIN; SELECT 1'),
  ],
  [
    'a BEGIN ATOMIC function body with a `.case` the splitter counts as CASE, then COMMIT',
    plan(
      'CREATE FUNCTION atk_f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT s.case FROM (SELECT 1 AS "case") s; END; DELETE FROM t; COMMIT; BEGIN; SELECT 1',
    ),
  ],
  [
    'CREATE FUNCTION … BEGIN ATOMIC … END, then COMMIT',
    plan('CREATE FUNCTION atk_g() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; END; COMMIT'),
  ],
  ['DELETE, then COMMIT', plan('DELETE FROM t; COMMIT')],
  [
    'COMMIT AND CHAIN in an eval query',
    plan('DELETE FROM t', { evalQueries: ['COMMIT AND CHAIN', 'SELECT count(*) FROM t'] }),
  ],
  ['ROLLBACK AND CHAIN, then DELETE and COMMIT', plan('ROLLBACK AND CHAIN; DELETE FROM t; COMMIT')],
  ['END and ABORT', plan('DELETE FROM audit; END', { evalQueries: ['ABORT'] })],
  ['nested comments /* /* */ */ around COMMIT', plan('DELETE FROM t /* /* */ ; COMMIT; */ ; COMMIT; /* */')],
  ["E'' strings with backslash escapes", plan("SELECT E'\\''; DELETE FROM t; COMMIT; BEGIN; SELECT 1 --'")],
  ['dollar quotes', plan('SELECT $a$ $b$; COMMIT; $a$; DELETE FROM t; COMMIT')],
  ['a DO block that commits', plan('DO $$ BEGIN DELETE FROM t; COMMIT; END $$')],
  [
    'a procedure that commits, created in setup',
    plan('CALL atk_p()', {
      setup: ['CREATE PROCEDURE atk_p() LANGUAGE plpgsql AS $$ BEGIN DELETE FROM t; COMMIT; END $$'],
    }),
  ],
  ['PREPARE TRANSACTION', plan("DELETE FROM t; PREPARE TRANSACTION 'atk'")],
  [
    'SAVEPOINT and RELEASE of EvalLens own savepoint',
    plan('RELEASE SAVEPOINT evallens_guard; DELETE FROM t', {
      evalQueries: ['SAVEPOINT atk', 'ROLLBACK TO SAVEPOINT evallens_guard'],
    }),
  ],
  [
    'SET SESSION CHARACTERISTICS, ALTER ROLE / DATABASE SET',
    plan('SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY', {
      evalQueries: ['ALTER ROLE CURRENT_USER SET search_path = nowhere', 'ALTER DATABASE CURRENT SET work_mem = 64'],
    }),
  ],
  [
    'COPY … TO PROGRAM',
    plan(`COPY (SELECT 1) TO PROGRAM 'touch ${PROGRAM_FILE}'`, {
      setup: [`COPY (SELECT 1) TO PROGRAM 'touch ${PROGRAM_FILE}'`],
    }),
  ],
  [
    'DDL and DML that a rollback undoes, sequences included',
    plan('INSERT INTO t (x) VALUES (9) RETURNING id', {
      evalQueries: ['DROP TABLE audit', 'CREATE TABLE atk_t (a int)', 'TRUNCATE t', 'CREATE ROLE atk_role'],
    }),
  ],
];

describe('SQL under test never changes a PostgreSQL database', () => {
  let sandbox: Sandbox | undefined;
  let engine: SqlEngine | undefined;
  before(async () => {
    sandbox = await postgresSandbox();
    if (sandbox !== undefined) engine = await openPostgres(sandbox.user);
  });
  after(async () => {
    await engine?.close();
    await sandbox?.drop();
    rmSync(PROGRAM_FILE, { force: true });
  });
  const need = (t: TestContext) => {
    if (sandbox === undefined || engine === undefined) t.skip(PG_MISSING);
    return sandbox === undefined || engine === undefined ? undefined : { sandbox, engine };
  };

  for (const [name, attack] of POSTGRES_ATTACKS) {
    it(`${name}: the database is what it was`, async (t) => {
      const pg = need(t);
      if (pg === undefined) return;
      const before = await pg.sandbox.fingerprint();
      await pg.engine.run(attack, LIMIT);
      assert.equal(await pg.sandbox.fingerprint(), before);
      assert.equal(existsSync(PROGRAM_FILE), false, 'no program ran on the server');
      const next = await pg.engine.run(
        plan('SELECT count(*) FROM t', { evalQueries: ['INSERT INTO t (x) VALUES (1) RETURNING x'] }),
        LIMIT,
      );
      assert.deepEqual(rowsOf(next.query), [[3]], 'the next run works, on a clean session');
      assert.deepEqual(rowsOf(next.evalQueries?.[0]), [[1]], 'the next run is not read-only');
    });
  }

  it('a statement the splitter misread fails at the server (one statement per Parse) instead of running two', async (t) => {
    const pg = need(t);
    if (pg === undefined) return;
    const run = await pg.engine.run(POSTGRES_ATTACKS[0]?.[1] ?? plan(''), LIMIT);
    assert.deepEqual(run.evalQueries?.[0], {
      ok: false,
      error: 'cannot insert multiple commands into a prepared statement',
    });
  });

  it('refuses a superuser, or a member of pg_execute_server_program, unless the config allows it; COPY stays refused even then', async (t) => {
    const pg = need(t);
    if (pg === undefined) return;
    await assert.rejects(
      openPostgres(pg.sandbox.admin),
      /the PostgreSQL user "postgres" \(database "evallens_nc_pg_\d+_\d+"\) is a superuser: .*COPY … TO PROGRAM.*allow_superuser: true/,
    );
    await withClient(pg.sandbox.admin, (c) => c.query(`GRANT pg_execute_server_program TO ${pg.sandbox.user.user}`));
    try {
      await assert.rejects(openPostgres(pg.sandbox.user), /is a member of pg_execute_server_program: /);
    } finally {
      await withClient(pg.sandbox.admin, (c) =>
        c.query(`REVOKE pg_execute_server_program FROM ${pg.sandbox.user.user}`),
      );
    }
    const allowed = await openPostgres(pg.sandbox.admin, { allowSuperuser: true });
    try {
      const before = await pg.sandbox.fingerprint();
      const run = await allowed.run(plan(`COPY (SELECT 1) TO PROGRAM 'touch ${PROGRAM_FILE}'`), LIMIT);
      assert.equal(
        run.query.ok ? '' : run.query.error,
        'COPY is not allowed in SQL under test on PostgreSQL: it reads or writes files, or runs programs, on the database server',
      );
      assert.equal(existsSync(PROGRAM_FILE), false);
      await allowed.run(POSTGRES_ATTACKS[2]?.[1] ?? plan(''), LIMIT);
      assert.equal(await pg.sandbox.fingerprint(), before);
    } finally {
      await allowed.close();
    }
  });

  it('refuses a CREATEROLE role: it could grant itself pg_execute_server_program and run COPY … TO PROGRAM from a DO block', async (t) => {
    const pg = need(t);
    if (pg === undefined) return;
    await withClient(pg.sandbox.admin, (c) => c.query(`ALTER ROLE ${pg.sandbox.user.user} CREATEROLE`));
    try {
      const opened = await openPostgres(pg.sandbox.user).catch((e: Error) => e);
      if (!(opened instanceof Error)) {
        await opened.run(
          plan('GRANT pg_execute_server_program TO CURRENT_USER', {
            evalQueries: [`DO $$ BEGIN EXECUTE 'COPY (SELECT 1) TO PROGRAM ''touch ${PROGRAM_FILE}'''; END $$`],
          }),
          LIMIT,
        );
        await opened.close();
      }
      assert.equal(existsSync(PROGRAM_FILE), false, 'no program ran on the server');
      assert.ok(opened instanceof Error, 'a CREATEROLE role is refused');
      assert.match(opened.message, /may create roles \(CREATEROLE\)/);
    } finally {
      await withClient(pg.sandbox.admin, (c) => c.query(`ALTER ROLE ${pg.sandbox.user.user} NOCREATEROLE`));
    }
  });

  it('the commit guard alone makes COMMIT fail, even after its row is deleted', async (t) => {
    const pg = need(t);
    if (pg === undefined) return;
    const before = await pg.sandbox.fingerprint();
    const client = new Client(pg.sandbox.user);
    await client.connect();
    try {
      await client.query(`BEGIN; ${commitGuardSql()}`);
      const guard = (
        await client.query(
          "SELECT relname FROM pg_class WHERE relname LIKE 'evallens_commit_guard_%' AND relpersistence = 't'",
        )
      ).rows[0] as { relname: string };
      await client.query(`DELETE FROM t; DELETE FROM ${guard.relname}; CREATE TABLE atk_t (a int)`);
      await assert.rejects(client.query('COMMIT'), /suppress_redundant_updates_trigger/);
      await client.query('SELECT 1');
      assert.equal(client.getTransactionStatus(), 'I', 'the failed COMMIT ended the transaction: rolled back');
    } finally {
      await client.end();
    }
    assert.equal(await pg.sandbox.fingerprint(), before);
  });

  it('stops the case and drops the connection when SQL breaks the savepoints EvalLens runs it under', async (t) => {
    const pg = need(t);
    if (pg === undefined) return;
    const before = await pg.sandbox.fingerprint();
    const run = await pg.engine.run(
      plan('SELECT count(*) FROM t', { setup: ['DELETE FROM t; RELEASE SAVEPOINT evallens_guard'] }),
      LIMIT,
    );
    assert.match(
      run.query.ok ? '' : run.query.error,
      /^setup_sql #1 failed, so the query did not run: EvalLens could not roll back to its savepoint after this statement \(the SQL released it, or ended the transaction EvalLens opened\); the case stopped here and its connection was closed: /,
    );
    assert.equal(await pg.sandbox.fingerprint(), before);
    assert.deepEqual(
      rowsOf((await pg.engine.run(plan('SELECT count(*) FROM t'), LIMIT)).query),
      [[3]],
      'the next run has a connection of its own',
    );
  });

  it('stops at a transaction-control command tag or a transaction status other than T', () => {
    const [one] = splitStatements('ROLLBACK AND CHAIN', 'postgres');
    const [savepoint] = splitStatements('SAVEPOINT evallens_setup_1', 'postgres');
    assert.ok(one !== undefined && savepoint !== undefined);
    assert.match(
      transactionChange('ROLLBACK', 'T', one, 'under test') ?? '',
      /^the server ran ROLLBACK, which controls the transaction EvalLens rolls back; the case stopped here/,
    );
    assert.match(
      transactionChange('SELECT', 'I', one, 'under test') ?? '',
      /^the server reports no transaction after this statement/,
    );
    assert.equal(
      transactionChange('SAVEPOINT', 'T', savepoint, 'setup'),
      undefined,
      'setup keeps the savepoints its BEGIN … COMMIT became',
    );
    assert.match(transactionChange('SAVEPOINT', 'T', savepoint, 'under test') ?? '', /ran SAVEPOINT/);
    assert.equal(transactionChange('INSERT', 'T', one, 'under test'), undefined);
  });
});

const MYSQL_ATTACKS: readonly (readonly [string, QueryPlan])[] = [
  ['DELETE, then COMMIT', plan('DELETE FROM t; COMMIT')],
  [
    'DDL, which MySQL commits at once',
    plan('DELETE FROM t', {
      evalQueries: [
        'CREATE TABLE atk_t (a INT)',
        'DROP TABLE audit',
        'TRUNCATE t',
        'ALTER TABLE t ADD COLUMN y INT',
        'RENAME TABLE t TO atk_r',
      ],
    }),
  ],
  [
    'DDL in setup',
    plan('SELECT count(*) FROM t', {
      setup: ['DELETE FROM t', 'CREATE TABLE atk_t (a INT)', 'BEGIN; DELETE FROM audit; COMMIT; DROP TABLE audit'],
    }),
  ],
  [
    'SET autocommit = 1',
    plan('DELETE FROM t; SET autocommit = 1', { evalQueries: ['SET autocommit = 1', 'DELETE FROM audit'] }),
  ],
  [
    'LOCK TABLES and START TRANSACTION inside the transaction',
    plan('DELETE FROM t', { evalQueries: ['LOCK TABLES t WRITE', 'START TRANSACTION', 'BEGIN', 'XA START 0x1'] }),
  ],
  [
    '/*! */ and /*M! */ comments that MySQL runs',
    plan('DELETE FROM t /*!50000 ; COMMIT */', { evalQueries: ['SELECT 1 /*M!100000 ; COMMIT */'] }),
  ],
  [
    'a backslash-escaped quote and # and -- comments around COMMIT',
    plan("SELECT 'a\\'; COMMIT; -- '; DELETE FROM t # ; COMMIT\n; SELECT 1 -- ; COMMIT"),
  ],
  [
    'CREATE USER, GRANT, CREATE DATABASE',
    plan("CREATE USER 'atk_u'@'%'", { evalQueries: ["GRANT ALL ON *.* TO 'atk_u'@'%'", 'CREATE DATABASE atk_db'] }),
  ],
  [
    'SELECT … INTO OUTFILE and LOAD DATA',
    plan(`SELECT * FROM t INTO OUTFILE '${OUTFILE}'`, {
      evalQueries: [`LOAD DATA INFILE '/etc/hostname' INTO TABLE audit`, `SELECT LOAD_FILE('/etc/hostname')`],
    }),
  ],
  [
    'DML and temporary tables that a rollback undoes',
    plan('INSERT INTO t (x) VALUES (9)', {
      evalQueries: ['CREATE TEMPORARY TABLE atk_tmp (a INT)', 'UPDATE audit SET what = NULL', 'DELETE FROM t'],
    }),
  ],
  [
    'MariaDB sequences advanced by NEXTVAL and SETVAL',
    plan('SELECT NEXTVAL(s_ids)', { evalQueries: ['SELECT SETVAL(s_ids, 5000)', 'SELECT NEXTVAL(s_ids)'] }),
  ],
];

describe('SQL under test never changes a MySQL (MariaDB) database', () => {
  let sandbox: Sandbox | undefined;
  let engine: SqlEngine | undefined;
  before(async () => {
    sandbox = await mysqlSandbox();
    if (sandbox !== undefined) engine = await openMysql(sandbox.user);
  });
  after(async () => {
    await engine?.close();
    await sandbox?.drop();
  });
  const need = (t: TestContext) => {
    if (sandbox === undefined || engine === undefined) t.skip(MYSQL_MISSING);
    return sandbox === undefined || engine === undefined ? undefined : { sandbox, engine };
  };

  for (const [name, attack] of MYSQL_ATTACKS) {
    it(`${name}: the database is what it was`, async (t) => {
      const my = need(t);
      if (my === undefined) return;
      const before = await my.sandbox.fingerprint();
      const run: QueryRun = await my.engine.run(attack, LIMIT);
      assert.ok(run.query !== undefined);
      assert.equal(await my.sandbox.fingerprint(), before);
      assert.equal(existsSync(OUTFILE), false, 'no file was written on the server');
      const next = await my.engine.run(plan('SELECT count(*) FROM t'), LIMIT);
      assert.deepEqual(rowsOf(next.query), [[3]]);
    });
  }

  it('refuses root (ALL PRIVILEGES) and a FILE account unless the config allows it', async (t) => {
    const my = need(t);
    if (my === undefined) return;
    await assert.rejects(
      openMysql(my.sandbox.admin),
      /the MySQL user "root" \(database "evallens_nc_my_\d+_\d+"\) has ALL PRIVILEGES on \*\.\*: .*allow_superuser: true/,
    );
    const allowed = await openMysql(my.sandbox.admin, { allowSuperuser: true });
    await allowed.close();
    assert.equal(
      mysqlRightsRefusal(my.sandbox.user, [
        'GRANT USAGE ON *.* TO `u`@`%`',
        'GRANT ALL PRIVILEGES ON `shop`.* TO `u`@`%`',
      ]),
      undefined,
      'rights on one database are not global',
    );
    assert.match(
      mysqlRightsRefusal(my.sandbox.user, ['GRANT SELECT, FILE ON *.* TO `u`@`%`']) ?? '',
      /has FILE on \*\.\*/,
    );
  });

  it("stops when the server's status flags say the transaction ended", () => {
    assert.equal(mysqlTransactionEnded(1 | 2), undefined, 'SERVER_STATUS_IN_TRANS | AUTOCOMMIT');
    assert.match(mysqlTransactionEnded(2) ?? '', /^the server reports no open transaction after this statement/);
  });
});
