// The databases of the NL2SQL benchmark without EvalLens: the same plans (setup, query, eval queries,
// cleanup) run on sql.js and on pg directly, in the same isolation EvalLens uses and nothing more.
//
// - SQLite (sql.js, in this thread): every plan opens a fresh in-memory copy of the database file's
//   bytes, runs setup, the query under a savepoint, each eval query under a savepoint, cleanup, and
//   closes the copy. That is what EvalLens's SQLite worker does (core/sql/sqliteWorker.ts), minus the
//   worker thread, the message round trips and the time limit.
// - PostgreSQL (pg, one connection): BEGIN; setup; SAVEPOINT, query, RELEASE (ROLLBACK TO on error);
//   the same for each eval query and cleanup statement; ROLLBACK. EvalLens's engine
//   (core/sql/postgresEngine.ts) adds, per run: SET LOCAL statement_timeout, pg_backend_pid(), the
//   sequence snapshot and restore, DISCARD ALL, a pool checkout, and its value mapping.
//
// Both give outcomes as bench/nl2sql-verdicts.mjs reads them: { ok: true, columns, rows } or
// { ok: false, error }, rows as arrays of null, numbers, strings.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

const NOT_RUN = { ok: false, error: 'not run: setup_sql failed' };

/**
 * sql.js on the database file: `run(plan)` gives { query, evals } on a fresh copy. With `sharedReader`,
 * a plan EvalLens would run on its shared read-only connection (core/sql/sqliteReadOnly.ts: no setup, no
 * cleanup, no word of a statement other than a query) runs on one shared `query_only` connection instead,
 * as EvalLens's worker does since 2026-12-02.
 */
export async function openDirectSqlite(file, { sharedReader = false } = {}) {
  const initSqlJs = require('sql.js');
  const dist = dirname(require.resolve('sql.js'));
  const SQL = await initSqlJs({ locateFile: (name) => join(dist, name) });
  // A plain Uint8Array, not the Buffer readFileSync gives: sql.js copies the bytes into its file system
  // with `slice`, which copies a Uint8Array but not a Buffer (Buffer#slice is a view), and a view would
  // let one plan's writes reach the next plan's "fresh" copy.
  const bytes = new Uint8Array(readFileSync(file));
  const execute = (db, sql) => {
    let last = { columns: [], rows: [] };
    for (const statement of db.iterateStatements(sql)) {
      const columns = statement.getColumnNames();
      const rows = [];
      while (statement.step()) rows.push(statement.get());
      if (columns.length > 0) last = { columns, rows };
    }
    return last;
  };
  const guarded = (db, sql) => {
    db.exec('SAVEPOINT bench_guard');
    try {
      const r = execute(db, sql);
      db.exec('RELEASE bench_guard');
      return { ok: true, columns: r.columns, rows: r.rows };
    } catch (e) {
      try {
        db.exec('ROLLBACK TO bench_guard');
        db.exec('RELEASE bench_guard');
      } catch {
        /* the statement ended the transaction itself */
      }
      return { ok: false, error: e.message };
    }
  };
  let reader;
  return {
    dialect: 'sqlite',
    run(plan) {
      if (sharedReader && readsOnly(plan)) {
        if (reader === undefined) {
          reader = new SQL.Database(bytes);
          reader.exec('PRAGMA query_only = ON');
        }
        return { query: guarded(reader, plan.query), evals: plan.evalQueries.map((sql) => guarded(reader, sql)) };
      }
      const db = new SQL.Database(bytes);
      try {
        for (const [i, sql] of plan.setup.entries()) {
          try {
            execute(db, sql);
          } catch (e) {
            return {
              query: { ok: false, error: `setup_sql #${i + 1} failed: ${e.message}` },
              evals: plan.evalQueries.map(() => NOT_RUN),
            };
          }
        }
        const query = guarded(db, plan.query);
        const evals = plan.evalQueries.map((sql) => guarded(db, sql));
        for (const sql of plan.cleanup) {
          try {
            execute(db, sql);
          } catch {
            /* ignored: the copy is dropped */
          }
        }
        return { query, evals };
      } finally {
        db.close();
      }
    },
    close: async () => undefined,
  };
}

// The same test as core/sql/sqliteReadOnly.ts (kept in step by hand: benchmarks do not import the sources).
const NOT_A_QUERY =
  /\b(?:pragma|attach|detach|vacuum|create|drop|alter|insert|update|delete|reindex|analyze|begin|commit|rollback|savepoint|release|explain|query_only)\b|\breplace\b(?!\s*\()/i;
function readsOnly(plan) {
  if (plan.setup.length > 0 || plan.cleanup.length > 0) return false;
  return [plan.query, ...plan.evalQueries].every((sql) => !NOT_A_QUERY.test(sql));
}

/** Numbers as EvalLens gives them (integers, floats; numeric when no digit is lost); everything else as the server's text. */
const OID = { bool: 16, int8: 20, int2: 21, int4: 23, oid: 26, float4: 700, float8: 701, numeric: 1700 };
function pgValue(oid, text) {
  switch (oid) {
    case OID.bool:
      return text === 't';
    case OID.int2:
    case OID.int4:
    case OID.int8:
    case OID.oid:
    case OID.float4:
    case OID.float8:
      return Number(text);
    case OID.numeric: {
      const n = Number(text);
      const plain = text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
      return String(n) === plain ? n : text;
    }
    default:
      return text;
  }
}

/** pg on one connection: `run(plan)` gives { query, evals } inside a transaction that is rolled back. */
export async function openDirectPostgres(url) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: url, application_name: 'evallens-bench-direct' });
  await client.connect();
  const types = { getTypeParser: (oid) => (text) => pgValue(oid, text) };
  const q = async (sql) => {
    const r = await client.query({ text: sql, rowMode: 'array', types });
    const results = Array.isArray(r) ? r : [r];
    for (let i = results.length - 1; i >= 0; i--) {
      const fields = results[i].fields ?? [];
      if (fields.length > 0) return { columns: fields.map((f) => f.name), rows: results[i].rows };
    }
    return { columns: [], rows: [] };
  };
  const guarded = async (sql) => {
    await client.query('SAVEPOINT bench_guard');
    try {
      const r = await q(sql);
      await client.query('RELEASE SAVEPOINT bench_guard');
      return { ok: true, columns: r.columns, rows: r.rows };
    } catch (e) {
      await client.query('ROLLBACK TO SAVEPOINT bench_guard');
      return { ok: false, error: e.message };
    }
  };
  return {
    dialect: 'postgres',
    async run(plan) {
      await client.query('BEGIN');
      try {
        for (const [i, sql] of plan.setup.entries()) {
          try {
            await q(sql);
          } catch (e) {
            return {
              query: { ok: false, error: `setup_sql #${i + 1} failed: ${e.message}` },
              evals: plan.evalQueries.map(() => NOT_RUN),
            };
          }
        }
        const query = await guarded(plan.query);
        const evals = [];
        for (const sql of plan.evalQueries) evals.push(await guarded(sql));
        for (const sql of plan.cleanup) await guarded(sql);
        return { query, evals };
      } finally {
        await client.query('ROLLBACK');
      }
    },
    close: () => client.end(),
  };
}
