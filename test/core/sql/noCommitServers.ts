import { createHash } from 'node:crypto';
import { createConnection, type Connection } from 'mysql2/promise';
import { Client } from 'pg';
import type { ServerSettings } from '../../../core/sql/databaseConfig';
import { mysqlSettingsFromUrl } from '../../../core/sql/mysqlEngine';
import { postgresSettingsFromUrl } from '../../../core/sql/postgresEngine';
import { PG_URL, withClient } from './engines';

/**
 * Sandboxes for the no-commit tests: a database of its own on each test server, owned by (or granted
 * to) a login role of its own without superuser rights — the role EvalLens's docs recommend — and a
 * fingerprint of everything SQL under test could change: every user table's rows, the catalog
 * (tables, views, functions, triggers, sequences), the roles and the per-role/per-database settings.
 */
export const MYSQL_URL = process.env['EVALLENS_MYSQL_URL'];
export const MYSQL_MISSING = 'MySQL not available: run scripts/mariadb.sh and set EVALLENS_MYSQL_URL';

export interface Sandbox {
  /** Settings of the non-superuser role on the sandbox database. */
  readonly user: ServerSettings;
  /** Settings of the server's admin (superuser / root) on the sandbox database. */
  readonly admin: ServerSettings;
  fingerprint(): Promise<string>;
  drop(): Promise<void>;
}

let count = 0;
const uniqueName = (kind: string) => `evallens_nc_${kind}_${process.pid}_${++count}`;

const PG_SHOP = `
CREATE TABLE t (id serial PRIMARY KEY, x int NOT NULL, note text);
INSERT INTO t (x, note) VALUES (1, 'one'), (2, 'two'), (3, 'three');
CREATE TABLE audit (id int PRIMARY KEY, what text);
INSERT INTO audit VALUES (1, 'kept');
`;

export async function postgresSandbox(): Promise<Sandbox | undefined> {
  if (PG_URL === undefined) return undefined;
  const root = postgresSettingsFromUrl(PG_URL);
  const name = uniqueName('pg');
  await withClient(root, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.query(`DROP ROLE IF EXISTS ${name}`);
    await c.query(`CREATE ROLE ${name} LOGIN NOSUPERUSER`);
    await c.query(`CREATE DATABASE ${name} OWNER ${name}`);
  });
  const user = { ...root, database: name, user: name };
  await withClient(user, (c) => c.query(PG_SHOP));
  const admin = { ...root, database: name };
  // One admin connection for every fingerprint: the property test takes hundreds.
  const observer = new Client(admin);
  await observer.connect();
  return {
    user,
    admin,
    fingerprint: () => postgresFingerprint(observer),
    drop: () =>
      withClient(root, async (c) => {
        await observer.end();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.query(`DROP ROLE IF EXISTS ${name}`);
      }),
  };
}

/** Everything SQL under test could change on a PostgreSQL database, as text (a diff shows what moved). */
async function postgresFingerprint(c: Client): Promise<string> {
  const userSchemas =
    "n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%' AND n.nspname NOT LIKE 'pg_temp%'";
  const lines: string[] = [];
  const add = async (label: string, sql: string) => {
    const rows = (await c.query({ text: sql, rowMode: 'array' })).rows as unknown[][];
    lines.push(`${label}: ${rows.map((r) => JSON.stringify(r)).join(' | ')}`);
  };
  await add(
    'relations',
    `SELECT n.nspname, c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE ${userSchemas} ORDER BY 1, 2`,
  );
  await add(
    'functions',
    `SELECT n.nspname, p.proname, pg_get_function_identity_arguments(p.oid), md5(coalesce(p.prosrc, '') || coalesce(pg_get_function_sqlbody(p.oid), '')) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE ${userSchemas} ORDER BY 1, 2, 3`,
  );
  await add('triggers', 'SELECT tgrelid::regclass::text, tgname FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1, 2');
  await add('schemas', "SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg_%' ORDER BY 1");
  // Other test suites share the server: only the sandbox's own role and database, and what attacks name `atk…`.
  await add(
    'roles',
    "SELECT rolname, rolsuper, rolcanlogin, rolcreatedb, rolcreaterole, rolbypassrls FROM pg_roles WHERE rolname = current_database() OR rolname LIKE 'atk%' ORDER BY 1",
  );
  await add(
    'settings',
    'SELECT setconfig::text FROM pg_db_role_setting s WHERE s.setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database()) OR s.setrole = (SELECT oid FROM pg_roles WHERE rolname = current_database()) ORDER BY 1',
  );
  await add(
    'databases',
    "SELECT datname, datallowconn, datconnlimit FROM pg_database WHERE datname = current_database() OR datname LIKE 'atk%' ORDER BY 1",
  );
  await add('prepared transactions', 'SELECT gid FROM pg_prepared_xacts ORDER BY 1');
  const tables = (
    await c.query<{ name: string; kind: string }>(
      `SELECT format('%I.%I', n.nspname, c.relname) AS name, c.relkind::text AS kind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE ${userSchemas} AND c.relkind IN ('r', 'p', 'S', 'm') ORDER BY 1`,
    )
  ).rows;
  for (const table of tables) {
    const sql =
      table.kind === 'S'
        ? `SELECT last_value::text || ':' || is_called::text FROM ${table.name}`
        : `SELECT md5(coalesce(string_agg(x::text, E'\\n' ORDER BY x::text), '')) FROM ${table.name} x`;
    await add(`rows of ${table.name}`, sql);
  }
  return lines.join('\n');
}

const MYSQL_SHOP = [
  'CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, x INT NOT NULL, note VARCHAR(20)) ENGINE=InnoDB',
  "INSERT INTO t (x, note) VALUES (1, 'one'), (2, 'two'), (3, 'three')",
  'CREATE TABLE audit (id INT PRIMARY KEY, what VARCHAR(20)) ENGINE=InnoDB',
  "INSERT INTO audit VALUES (1, 'kept')",
];

export async function mysqlSandbox(): Promise<Sandbox | undefined> {
  if (MYSQL_URL === undefined) return undefined;
  const root = mysqlSettingsFromUrl(MYSQL_URL);
  const name = uniqueName('my');
  await onMysql(root, [
    `DROP DATABASE IF EXISTS ${name}`,
    `DROP USER IF EXISTS '${name}'@'%'`,
    `CREATE DATABASE ${name}`,
    `CREATE USER '${name}'@'%'`,
    `GRANT ALL PRIVILEGES ON ${name}.* TO '${name}'@'%'`,
  ]);
  const admin = { ...root, database: name };
  await onMysql(admin, MYSQL_SHOP);
  // MariaDB's sequences advance outside transactions, as PostgreSQL's do (MySQL has none).
  if (String((await onMysql(admin, ['SELECT VERSION()']))[0]?.[0]?.[0]).includes('MariaDB'))
    await onMysql(admin, ['CREATE SEQUENCE s_ids']);
  const observer = await createConnection(connectionOf(admin));
  return {
    user: { ...root, database: name, user: name },
    admin,
    fingerprint: () => mysqlFingerprint(observer, name),
    drop: async () => {
      await observer.end();
      await onMysql(root, [`DROP DATABASE IF EXISTS ${name}`, `DROP USER IF EXISTS '${name}'@'%'`]);
    },
  };
}

/** Runs statements one by one on a connection of its own; answers the rows of each. */
export async function onMysql(settings: ServerSettings, statements: readonly string[]): Promise<unknown[][][]> {
  const connection = await createConnection(connectionOf(settings));
  try {
    return await each(connection, statements);
  } finally {
    await connection.end();
  }
}

function connectionOf(settings: ServerSettings) {
  return {
    host: settings.host,
    port: settings.port,
    user: settings.user,
    database: settings.database,
    ...(settings.password === undefined ? {} : { password: settings.password }),
  };
}

async function each(connection: Connection, statements: readonly string[]): Promise<unknown[][][]> {
  const answers: unknown[][][] = [];
  for (const sql of statements) answers.push((await connection.query({ sql, rowsAsArray: true }))[0] as unknown[][]);
  return answers;
}

async function mysqlFingerprint(connection: Connection, db: string): Promise<string> {
  const [tables, views, routines, triggers, events, users, databases] = await each(connection, [
    `SELECT TABLE_NAME, TABLE_TYPE, ENGINE, AUTO_INCREMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = '${db}' ORDER BY 1`,
    `SELECT TABLE_NAME, MD5(VIEW_DEFINITION) FROM information_schema.VIEWS WHERE TABLE_SCHEMA = '${db}' ORDER BY 1`,
    `SELECT ROUTINE_NAME, ROUTINE_TYPE, MD5(ROUTINE_DEFINITION) FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = '${db}' ORDER BY 1`,
    `SELECT TRIGGER_NAME FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = '${db}' ORDER BY 1`,
    `SELECT EVENT_NAME FROM information_schema.EVENTS WHERE EVENT_SCHEMA = '${db}' ORDER BY 1`,
    `SELECT User, Host, Super_priv, File_priv FROM mysql.user WHERE User = '${db}' OR User LIKE 'atk%' ORDER BY 1, 2`,
    `SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '${db}' OR SCHEMA_NAME LIKE 'atk%' ORDER BY 1`,
  ]);
  const lines = [tables, views, routines, triggers, events, users, databases].map(
    (rows, i) => `${i}: ${JSON.stringify(rows)}`,
  );
  for (const [table, type] of (tables ?? []) as [string, string][]) {
    if (type !== 'BASE TABLE' && type !== 'SEQUENCE') continue;
    const [rows] = await each(connection, [`SELECT * FROM \`${table}\``]);
    const text = (rows ?? [])
      .map((r) => JSON.stringify(r))
      .sort()
      .join('\n');
    lines.push(`rows of ${table}: ${createHash('sha256').update(text).digest('hex')}`);
  }
  return lines.join('\n');
}
