import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { openMysql } from '../../../core/sql/mysqlEngine';
import { openPostgres } from '../../../core/sql/postgresEngine';
import type { QueryPlan, SqlEngine } from '../../../core/sql/sqlResult';
import { PG_MISSING, plan } from './engines';
import { MYSQL_MISSING, mysqlSandbox, postgresSandbox, type Sandbox } from './noCommitServers';
import { seededRandom as random } from '../../support/seededRandom';

/**
 * The no-commit rule as a property (issue 13): whatever SQL under test is — quoting styles a splitter
 * may misread, comments (nested or not), escapes, transaction-control words, DDL, DML, split at any
 * point — the database's fingerprint after the run is what it was before, and no file appears on the
 * server. The texts come from a seeded generator (the same texts on every run); a failure names the
 * run's number and its plan.
 */

const SEED = 0x13c0;
const RUNS = 200;
const FILE = `/tmp/atk_evallens_${process.pid}_fuzz`;

interface Vocabulary {
  /** Openings the splitter once read otherwise than the server, so that what follows hid from it. */
  readonly hiders: readonly string[];
  /** Statements that change how the server reads the next texts (run as the query, before the eval query). */
  readonly readers: readonly string[];
  readonly statements: readonly string[];
  readonly control: readonly string[];
  readonly quoting: readonly string[];
}

const POSTGRES: Vocabulary = {
  hiders: [
    "SELECT '\\'';",
    'CREATE VIEW atk_vh AS SELECT begin atomic FROM (SELECT 1 AS begin) s;',
    'CREATE FUNCTION atk_fh() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT s.case FROM (SELECT 1 AS "case") s; END;',
    "SELECT E'\\'';",
    'SELECT 1 /* /* */;',
  ],
  readers: ['SET standard_conforming_strings = off', 'SET standard_conforming_strings = on'],
  statements: [
    'DELETE FROM t',
    'UPDATE t SET x = x + 1',
    "INSERT INTO t (x, note) VALUES (7, 'seven')",
    'DELETE FROM audit',
    'DROP TABLE audit',
    'TRUNCATE t',
    'CREATE TABLE atk_fz (a int)',
    'ALTER TABLE t ADD COLUMN atk int',
    'CREATE FUNCTION atk_fn() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; END',
    'CREATE VIEW atk_vz AS SELECT begin atomic FROM (SELECT 1 AS begin) s',
    'CREATE ROLE atk_fz_role',
    'ALTER ROLE CURRENT_USER SET work_mem = 64',
    `COPY (SELECT 1) TO PROGRAM 'touch ${FILE}'`,
    'DO $$ BEGIN DELETE FROM t; COMMIT; END $$',
    'SELECT count(*) FROM t',
  ],
  control: [
    'COMMIT',
    'BEGIN',
    'END',
    'ABORT',
    'ROLLBACK',
    'ROLLBACK AND CHAIN',
    'COMMIT AND CHAIN',
    'START TRANSACTION',
    'SAVEPOINT s',
    'RELEASE SAVEPOINT evallens_guard',
    'ROLLBACK TO SAVEPOINT evallens_guard',
    "PREPARE TRANSACTION 'atk'",
    'SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE',
    'SET standard_conforming_strings = off',
    'SET standard_conforming_strings = on',
    'SET CONSTRAINTS ALL IMMEDIATE',
  ],
  quoting: [
    "'",
    "E'",
    "\\'",
    "''",
    '$$',
    '$a$',
    '"',
    '/*',
    '/* /*',
    '*/',
    '--',
    "U&'",
    '(',
    ')',
    'CASE',
    'END',
    's.case',
    'begin atomic',
    'BEGIN ATOMIC',
    'DO $$ BEGIN',
    'END $$',
  ],
};

const MYSQL: Vocabulary = {
  hiders: ["SELECT '\\'';", 'SELECT "\\"";', 'SELECT 1 /* /* */;', 'SELECT 1 --x;', 'SELECT `a\\`;'],
  readers: ["SET sql_mode = 'NO_BACKSLASH_ESCAPES'", "SET sql_mode = 'ANSI_QUOTES'"],
  statements: [
    'DELETE FROM t',
    'UPDATE t SET x = x + 1',
    "INSERT INTO t (x, note) VALUES (7, 'seven')",
    'DELETE FROM audit',
    'DROP TABLE audit',
    'TRUNCATE t',
    'CREATE TABLE atk_fz (a INT)',
    'ALTER TABLE t ADD COLUMN atk INT',
    'RENAME TABLE audit TO atk_a',
    "CREATE USER 'atk_fz'@'%'",
    'CREATE TEMPORARY TABLE atk_tmp (a INT)',
    `SELECT * FROM t INTO OUTFILE '${FILE}'`,
    'ANALYZE TABLE t',
    'SELECT NEXTVAL(s_ids)',
    'SELECT SETVAL(s_ids, 900)',
    'SELECT count(*) FROM t',
  ],
  control: [
    'COMMIT',
    'BEGIN',
    'START TRANSACTION',
    'ROLLBACK',
    'COMMIT AND CHAIN',
    'ROLLBACK AND CHAIN',
    'SET autocommit = 1',
    'SET @@autocommit = 1',
    "SET sql_mode = 'NO_BACKSLASH_ESCAPES'",
    "SET sql_mode = 'ANSI_QUOTES'",
    "XA START 'atk'",
    'SAVEPOINT s',
    'RELEASE SAVEPOINT evallens_guard',
    'LOCK TABLES t WRITE',
    'UNLOCK TABLES',
    'FLUSH TABLES',
  ],
  quoting: [
    "'",
    '"',
    '`',
    "\\'",
    '\\"',
    '#',
    '-- ',
    '--',
    '/*',
    '*/',
    '/*!',
    '/*!50000',
    '/*M!100000',
    '(',
    ')',
    'BEGIN',
    'END',
  ],
};

const SEPARATORS = ['; ', ';\n', ' ', '\n', ' --x\n', '/**/', ';'];

/** One generated text: statements, transaction control and quoting pieces, joined at random split points. */
function text(next: () => number, words: Vocabulary): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const parts: string[] = next() < 0.4 ? [pick(words.hiders), ' '] : [];
  const count = 2 + Math.floor(next() * 8);
  for (let i = 0; i < count; i++) {
    const roll = next();
    parts.push(roll < 0.35 ? pick(words.statements) : roll < 0.65 ? pick(words.control) : pick(words.quoting));
    parts.push(pick(SEPARATORS));
  }
  return parts.join('');
}

function plans(seed: number, words: Vocabulary): QueryPlan[] {
  const next = random(seed);
  return Array.from({ length: RUNS }, () => {
    const query = next() < 0.3 ? (words.readers[Math.floor(next() * words.readers.length)] ?? '') : text(next, words);
    return plan(query, { evalQueries: [text(next, words)], ...(next() < 0.3 ? { setup: [text(next, words)] } : {}) });
  });
}

/** Runs every plan; after each, the fingerprint must be the one before the first. */
async function holdsOn(
  sandbox: Sandbox,
  engine: SqlEngine,
  seed: number,
  generated: readonly QueryPlan[],
): Promise<void> {
  const before = await sandbox.fingerprint();
  for (const [index, attack] of generated.entries()) {
    await engine.run(attack, { timeoutMs: 5000 });
    assert.equal(
      await sandbox.fingerprint(),
      before,
      `generated run #${index} (seed ${seed}) changed the database: ${JSON.stringify(attack)}`,
    );
    assert.equal(
      existsSync(FILE),
      false,
      `generated run #${index} wrote a file on the server: ${JSON.stringify(attack)}`,
    );
  }
}

describe('no generated SQL changes a database (property, seeded)', () => {
  after(() => rmSync(FILE, { force: true }));

  it(`PostgreSQL: ${RUNS} generated plans`, async (t) => {
    const sandbox = await postgresSandbox();
    if (sandbox === undefined) return t.skip(PG_MISSING);
    const engine = await openPostgres(sandbox.user);
    try {
      await holdsOn(sandbox, engine, SEED, plans(SEED, POSTGRES));
    } finally {
      await engine.close();
      await sandbox.drop();
    }
  });

  it(`MySQL (MariaDB): ${RUNS} generated plans`, async (t) => {
    const sandbox = await mysqlSandbox();
    if (sandbox === undefined) return t.skip(MYSQL_MISSING);
    const engine = await openMysql(sandbox.user);
    try {
      await holdsOn(sandbox, engine, SEED + 1, plans(SEED + 1, MYSQL));
    } finally {
      await engine.close();
      await sandbox.drop();
    }
  });
});
