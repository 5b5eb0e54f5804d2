// Builds the database of the NL2SQL example (examples/nl2sql/) from its SQL text, so that no binary
// database is committed:
//
//   node scripts/build-example-db.mjs                    examples/nl2sql/db/shop.sqlite from setup.sql
//   node scripts/build-example-db.mjs --postgres <url>   the same, and loads setup.sql into that
//                                                        PostgreSQL database (its tables dropped first)
//
// Options: --out-dir <dir> (where shop.sqlite goes; default examples/nl2sql/db), --schema <file>
// (default examples/nl2sql/setup/shop/sqlite/setup.sql, which shop.eval.yaml's run also builds its
// in-memory database from). Running it again gives the same database: the SQLite file is
// rebuilt from scratch (written to a temporary file, then renamed over the old one), and on
// PostgreSQL the tables setup.sql creates are dropped and created again in one transaction.
// SQLite runs on sql.js, PostgreSQL on pg: the project's own dependencies, nothing else.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE =
  'usage: node scripts/build-example-db.mjs [--out-dir <dir>] [--schema <file>] [--postgres <postgres://user@host:port/database>]';

function parseArgs(argv) {
  const options = {
    outDir: join(ROOT, 'examples', 'nl2sql', 'db'),
    schema: join(ROOT, 'examples', 'nl2sql', 'setup', 'shop', 'sqlite', 'setup.sql'),
    postgres: undefined,
  };
  const names = { '--out-dir': 'outDir', '--schema': 'schema', '--postgres': 'postgres' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const name = names[flag];
    if (name === undefined) usageError(`unknown argument ${JSON.stringify(arg)}`);
    const value = inline ?? argv[++i];
    if (value === undefined || value === '') usageError(`${flag} needs a value`);
    options[name] = name === 'postgres' ? value : resolve(value);
  }
  return options;
}

function usageError(message) {
  console.error(`build-example-db: ${message}\n${USAGE}`);
  process.exit(2);
}

/** The tables the schema creates, in the order it creates them. */
function tablesOf(sql) {
  return [...sql.matchAll(/\bCREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?("[^"]+"|\w+)/gi)].map((m) => m[1]);
}

async function buildSqlite(sql, outDir) {
  const initSqlJs = require('sql.js');
  const dist = dirname(require.resolve('sql.js'));
  const SQL = await initSqlJs({ locateFile: (file) => join(dist, file) });
  const db = new SQL.Database();
  let bytes;
  try {
    db.exec(sql);
    bytes = db.export();
  } finally {
    db.close();
  }
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, 'shop.sqlite');
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, bytes);
  renameSync(partial, file);
  return file;
}

async function loadPostgres(sql, url) {
  const { Client } = require('pg');
  const client = new Client({
    connectionString: url,
    application_name: 'evallens-build-example-db',
    connectionTimeoutMillis: 10_000,
  });
  const where = describeUrl(url);
  try {
    await client.connect();
  } catch (e) {
    throw new Error(`cannot connect to PostgreSQL at ${where}: ${e.message}`);
  }
  try {
    await client.query('BEGIN');
    for (const table of tablesOf(sql).reverse()) await client.query(`DROP TABLE IF EXISTS ${table}`);
    await client.query(sql);
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw new Error(`loading the schema into PostgreSQL at ${where} failed (nothing was changed): ${e.message}`);
  } finally {
    await client.end().catch(() => undefined);
  }
  return where;
}

/** host:port/database of a URL, without its user and password. */
function describeUrl(url) {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || 'localhost'}:${parsed.port || 5432}${parsed.pathname}`;
  } catch {
    usageError('--postgres needs a URL such as postgres://postgres@127.0.0.1:54329/evallens_test');
  }
}

const options = parseArgs(process.argv.slice(2));
if (options.postgres !== undefined) describeUrl(options.postgres);
let sql;
try {
  sql = readFileSync(options.schema, 'utf8');
} catch (e) {
  console.error(`build-example-db: cannot read the schema ${options.schema}: ${e.message}`);
  process.exit(1);
}
const tables = tablesOf(sql);
try {
  const file = await buildSqlite(sql, options.outDir);
  console.log(
    `built ${relative(process.cwd(), file) || file} (SQLite: ${tables.join(', ')}) from ${relative(process.cwd(), options.schema)}`,
  );
  if (options.postgres !== undefined) {
    const where = await loadPostgres(sql, options.postgres);
    console.log(
      `loaded ${relative(process.cwd(), options.schema)} into PostgreSQL at ${where} (tables ${tables.join(', ')} dropped and created again)`,
    );
  }
} catch (e) {
  console.error(`build-example-db: ${e.message}`);
  process.exit(1);
}
