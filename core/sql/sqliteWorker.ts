import { readFile } from 'node:fs/promises';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { SetupStep } from './setupFolder';

/**
 * The thread SQLite runs in. sql.js runs SQLite synchronously, and its build exposes neither
 * `sqlite3_progress_handler` nor `sqlite3_interrupt`, so nothing in its own thread can stop a runaway
 * statement. Each SQLite engine therefore keeps one long-lived worker thread holding sql.js and the
 * database bytes; a statement past its time limit is stopped by terminating that worker, and the
 * next run starts a new one. Measured on this repo's machine (2 cores, the fixture shop database, a
 * join of 12 rows): ~0.18 ms per run in-thread, ~0.33 ms per run through the worker with the limit
 * armed (+0.15 ms: the message round trip, the structured copy of the rows, the timer); starting a
 * worker costs ~34 ms, paid once per engine and again only after a limit stopped one. A worker per
 * run would cost those ~34 ms every time. The worker also keeps the caller's thread (VS Code's
 * extension host) free while SQL runs.
 *
 * The worker is plain JavaScript evaluated from a string (`eval: true`), so it works the same from
 * the TypeScript sources and from the esbuild bundles, with no worker file to ship beside them.
 * sql.js and its `.wasm` are found with `require.resolve`; the `.wasm` is compiled once per process
 * and the compiled module is handed to every worker.
 */

/** A plan as the worker runs it: refused pieces are already left out (null: skipped, answered by the caller). */
export interface WorkerPlan {
  readonly setup: readonly (string | null)[];
  readonly query: string | null;
  readonly evalQueries: readonly (string | null)[];
  readonly cleanup: readonly string[];
  /** The plan may run on the worker's shared read-only connection (sqliteReadOnly.ts). */
  readonly sharedReader: boolean;
}

/** Values as sql.js gives them: integers as bigint (`useBigInt`), BLOBs as bytes. */
export type RawValue = null | number | bigint | string | Uint8Array;
export type RawOutcome =
  | { readonly ok: true; readonly columns: string[]; readonly rows: RawValue[][] }
  | { readonly ok: false; readonly error: string };

export type WorkerReply =
  | { readonly type: 'fatal'; readonly error: string }
  | { readonly type: 'built'; readonly bytes: Uint8Array }
  | { readonly type: 'build-failed'; readonly error: string }
  /** One setup step done; `error` (and for rows, `row`: the index in the batch) when it failed. */
  | { readonly type: 'setup-done'; readonly error?: string; readonly row?: number }
  | { readonly type: 'setup-error'; readonly id: number; readonly index: number; readonly error: string }
  | {
      readonly type: 'query';
      readonly id: number;
      readonly outcome: RawOutcome | null;
      readonly ms: number;
      /** The plan's last answer: no eval query or cleanup follows (one message instead of two). */
      readonly done?: true;
    }
  | {
      readonly type: 'eval';
      readonly id: number;
      readonly index: number;
      readonly outcome: RawOutcome | null;
      readonly done?: true;
    }
  | { readonly type: 'done'; readonly id: number };

export type PlanPart = 'setup' | 'query' | 'eval' | 'cleanup';
const PARTS: readonly PlanPart[] = ['setup', 'query', 'eval', 'cleanup'];

/** The statement a worker is running: which plan (its run id), which part of it, and since when (epoch ms). */
export interface RunningStatement {
  readonly job: number;
  readonly part: PlanPart;
  readonly index: number;
  readonly startedAt: number;
}

export interface SqlJsAssets {
  readonly script: string;
  readonly wasm: string;
  readonly module: WebAssembly.Module;
}

let assets: Promise<SqlJsAssets> | undefined;

/** sql.js's script and its WebAssembly module, compiled once per process. */
export function sqlJsAssets(): Promise<SqlJsAssets> {
  assets ??= (async () => {
    const script = require.resolve('sql.js');
    const wasm = require.resolve('sql.js/dist/sql-wasm.wasm');
    return { script, wasm, module: await WebAssembly.compile(await readFile(wasm)) };
  })();
  assets.catch(() => (assets = undefined));
  return assets;
}

/** The current time in epoch milliseconds, comparable across threads. */
export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

/** Memory a worker's JavaScript heap may use by default (rows collected before they are sent back). */
export const DEFAULT_HEAP_LIMIT_MB = 1024;

/**
 * The most one statement's result may hold: its rows, and its values' size (a BLOB counted as the
 * hex text it becomes, a string as UTF-16). sql.js's build cannot lower SQLITE_LIMIT_LENGTH (no
 * `sqlite3_limit`), so `SELECT zeroblob(300000000)` or a recursive CTE that never ends would fill
 * memory or make a string longer than JavaScript allows: the result is cut off at these caps instead
 * and the statement fails with a reason, like any SQL error.
 */
export const MAX_RESULT_ROWS = 1_000_000;
export const MAX_RESULT_BYTES = 64 * 1024 * 1024;

/**
 * SQLite's own memory while SQL under test runs (`PRAGMA hard_heap_limit`, which SQL can lower but
 * never raise or lift): `printf('%.*c', 1e9, 'x')` is refused as out of memory instead of taking a
 * gigabyte. The database file itself is not in SQLite's heap.
 */
export const SQLITE_HEAP_LIMIT_BYTES = 256 * 1024 * 1024;

/** One worker thread running sql.js; messages arrive through `onReply`, in order. */
export class SqliteWorker {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  /**
   * [0]: start of the running statement (epoch µs, 0 when none), [1]: plan part + 1 (0: none), [2]:
   * index, [3]: the id of the plan being run (several may be handed over ahead of it).
   */
  private readonly clock = new BigInt64Array(new SharedArrayBuffer(4 * 8));
  private retired = false;

  /** Where replies and an unexpected stop (crash, out of memory) go; replaceable when an engine adopts the worker. */
  onReply: (reply: WorkerReply) => void = () => undefined;
  onStop: (error: Error) => void = () => undefined;

  constructor(sqlJs: SqlJsAssets, bytes: Uint8Array | null, heapLimitMb = DEFAULT_HEAP_LIMIT_MB) {
    const channel = new MessageChannel();
    this.port = channel.port1;
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        script: sqlJs.script,
        wasm: sqlJs.wasm,
        module: sqlJs.module,
        bytes,
        clock: this.clock.buffer,
        port: channel.port2,
      },
      transferList: [channel.port2],
      resourceLimits: { maxOldGenerationSizeMb: heapLimitMb },
    });
    // Nothing a retired worker sent is delivered: the plans handed to it behind the stopped one run again elsewhere.
    this.port.on('message', (reply: WorkerReply) => {
      if (!this.retired) this.onReply(reply);
    });
    this.port.unref();
    this.worker.unref();
    this.worker.on('error', (e: Error) => this.onStop(workerError(e, heapLimitMb)));
    this.worker.on('exit', (code) => this.onStop(new Error(`the SQLite worker thread exited (code ${code})`)));
  }

  post(
    message:
      | { type: 'build'; sql: string }
      | { type: 'setup'; step: SetupStep | { readonly kind: 'begin' } | { readonly kind: 'end' } }
      | { type: 'run'; id: number; plan: WorkerPlan },
  ): void {
    this.port.postMessage(message);
  }

  /** Keeps the process alive while a run is in flight, and lets it exit when idle. */
  busy(busy: boolean): void {
    if (busy) this.worker.ref();
    else this.worker.unref();
  }

  /** Hands over the replies already sent but not yet delivered (before deciding a time limit). */
  drain(): void {
    for (let m = receiveMessageOnPort(this.port); m !== undefined && !this.retired; m = receiveMessageOnPort(this.port))
      this.onReply(m.message as WorkerReply);
  }

  running(): RunningStatement | undefined {
    const job = Atomics.load(this.clock, 3);
    const part = PARTS[Number(Atomics.load(this.clock, 1)) - 1];
    const started = Number(Atomics.load(this.clock, 0));
    const index = Number(Atomics.load(this.clock, 2));
    // Read while the worker may move on to the next plan: a plan id that changed meanwhile says nothing.
    if (part === undefined || started === 0 || Atomics.load(this.clock, 3) !== job) return undefined;
    return { job: Number(job), part, index, startedAt: started / 1000 };
  }

  terminate(): void {
    this.retired = true;
    this.worker.removeAllListeners('exit');
    this.worker.removeAllListeners('error');
    this.worker.on('error', () => undefined);
    this.port.close();
    void this.worker.terminate();
  }
}

function workerError(e: Error, heapLimitMb: number): Error {
  if ((e as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY')
    return new Error(`ran out of memory: the rows it returned exceed the ${heapLimitMb} MB the SQLite worker may use`);
  return new Error(`the SQLite worker thread failed: ${e.message}`);
}

const WORKER_SOURCE = `
'use strict';
const { workerData } = require('node:worker_threads');
const { port, module } = workerData;
const clock = new BigInt64Array(workerData.clock);
let bytes = workerData.bytes;
const ready = require(workerData.script)({
  locateFile: () => workerData.wasm,
  instantiateWasm(imports, receive) {
    WebAssembly.instantiate(module, imports).then((instance) => receive(instance), (e) => port.postMessage({ type: 'fatal', error: text(e) }));
    return {};
  },
});
ready.catch((e) => port.postMessage({ type: 'fatal', error: text(e) }));

function text(e) { return e && typeof e.message === 'string' ? e.message : String(e); }
function now() { return BigInt(Math.round((performance.timeOrigin + performance.now()) * 1000)); }
function stage(part, index) { Atomics.store(clock, 1, BigInt(part)); Atomics.store(clock, 2, BigInt(index)); }

const MAX_RESULT_ROWS = ${MAX_RESULT_ROWS};
const SQLITE_HEAP_LIMIT_BYTES = ${SQLITE_HEAP_LIMIT_BYTES};
const MAX_RESULT_BYTES = ${MAX_RESULT_BYTES};
function valueSize(value) {
  if (value instanceof Uint8Array) return value.byteLength * 2;
  if (typeof value === 'string') return value.length * 2;
  return 8;
}
// The statement's sqlite3_stmt pointer, found through the database's registry of its statements
// (sql.js's names are minified); undefined when that is not found, and the size is then measured
// after the row is copied out.
let sqlite;
ready.then((SQL) => { sqlite = SQL; }, () => undefined);
function pointerOf(statement) {
  for (const key of Object.keys(statement)) {
    const pointer = statement[key];
    if (typeof pointer !== 'number' || !Number.isInteger(pointer) || pointer <= 0) continue;
    for (const registry of Object.values(statement.db)) {
      if (registry !== null && typeof registry === 'object' && registry[pointer] === statement) return pointer;
    }
  }
  return undefined;
}
// The bytes the current row's values take in SQLite before they are copied out (column_bytes: a BLOB's or text's length).
function rowBytes(pointer) {
  let total = 0;
  const count = sqlite._sqlite3_data_count(pointer);
  for (let i = 0; i < count; i++) total += sqlite._sqlite3_column_bytes(pointer, i) * 2;
  return total;
}
function tooLarge(what) {
  return new Error('the result is too large: ' + what + '; EvalLens keeps at most ' + MAX_RESULT_ROWS + ' rows and ' + MAX_RESULT_BYTES / 1048576 + ' MiB of values per statement');
}

// Runs every statement of sql; the rows of the last one that has result columns are the result.
function execute(db, sql) {
  let last = { columns: [], rows: [] };
  Atomics.store(clock, 0, now());
  try {
    for (const statement of db.iterateStatements(sql)) {
      const columns = statement.getColumnNames();
      const rows = [];
      let size = 0;
      const pointer = sqlite === undefined ? undefined : pointerOf(statement);
      while (statement.step()) {
        if (rows.length >= MAX_RESULT_ROWS) throw tooLarge('more than ' + MAX_RESULT_ROWS + ' rows');
        if (pointer !== undefined && size + rowBytes(pointer) > MAX_RESULT_BYTES) throw tooLarge('its values pass ' + MAX_RESULT_BYTES / 1048576 + ' MiB at row ' + (rows.length + 1));
        const row = statement.get(null, { useBigInt: true });
        for (const value of row) size += valueSize(value);
        if (size > MAX_RESULT_BYTES) throw tooLarge('its values pass ' + MAX_RESULT_BYTES / 1048576 + ' MiB at row ' + (rows.length + 1));
        rows.push(row);
      }
      if (columns.length > 0) last = { columns, rows };
      Atomics.store(clock, 0, now());
    }
  } finally {
    Atomics.store(clock, 0, 0n);
  }
  return last;
}

// Runs sql under a savepoint; on error its partial effects are rolled back.
function guarded(db, sql) {
  db.exec('SAVEPOINT evallens_guard');
  try {
    const result = execute(db, sql);
    db.exec('RELEASE evallens_guard');
    return { ok: true, columns: result.columns, rows: result.rows };
  } catch (e) {
    const error = text(e) === 'out of memory' ? 'out of memory: SQLite may use at most ' + SQLITE_HEAP_LIMIT_BYTES / 1048576 + ' MiB while SQL under test runs' : text(e);
    try { db.exec('ROLLBACK TO evallens_guard'); db.exec('RELEASE evallens_guard'); } catch (_) { /* the statement ended the transaction itself */ }
    return { ok: false, error };
  }
}

// The connection that plans made only of SELECT statements share (sqliteEngine.ts says why that is as
// safe as a fresh copy): opened on the same bytes, query_only, dropped if it ever reports a row change.
let reader;
let readerChanged = false;
// New bytes (a build): the shared connection is on the old ones.
function dropReader() {
  if (reader !== undefined) reader.close();
  reader = undefined;
}
function openReader(SQL) {
  if (reader === undefined) {
    reader = new SQL.Database(bytes);
    reader.exec('PRAGMA hard_heap_limit = ' + SQLITE_HEAP_LIMIT_BYTES);
    reader.exec('PRAGMA query_only = ON');
    readerChanged = false;
    reader.updateHook(() => { readerChanged = true; });
  }
  return reader;
}
// Whether every statement of a plan the engine let through (sqliteReadOnly.ts: no word of any other
// statement, so preparing it changes nothing) is a query as SQLite itself parses it (its normalized text).
function selectsOnly(db, plan) {
  for (const sql of [plan.query, ...plan.evalQueries]) {
    if (sql === null) continue;
    try {
      for (const statement of db.iterateStatements(sql)) {
        const normalized = statement.getNormalizedSQL();
        if (typeof normalized !== 'string' || !/^(?:SELECT|VALUES|WITH)\\b/.test(normalized)) return false;
      }
    } catch (_) {
      return false;
    }
  }
  return true;
}

function run(SQL, id, plan) {
  let db;
  let done = false;
  Atomics.store(clock, 3, BigInt(id));
  try {
    const shared = plan.sharedReader && bytes !== null && selectsOnly(openReader(SQL), plan);
    if (shared) db = reader;
    else {
      db = new SQL.Database(bytes);
      db.exec('PRAGMA hard_heap_limit = ' + SQLITE_HEAP_LIMIT_BYTES);
    }
    // A failing setup statement is rolled back and reported; the plan goes on, as EvalBench's does.
    for (let i = 0; i < plan.setup.length; i++) {
      stage(1, i);
      if (plan.setup[i] === null) continue;
      const outcome = guarded(db, plan.setup[i]);
      if (!outcome.ok) port.postMessage({ type: 'setup-error', id, index: i, error: outcome.error });
    }
    stage(2, 0);
    const started = performance.now();
    const outcome = plan.query === null ? null : guarded(db, plan.query);
    // The last answer says the plan is done (nothing after it can fail or be stopped).
    const queryLast = plan.evalQueries.length === 0 && plan.cleanup.length === 0;
    port.postMessage({ type: 'query', id, outcome, ms: performance.now() - started, ...(queryLast ? { done: true } : {}) });
    done = queryLast;
    for (let i = 0; i < plan.evalQueries.length; i++) {
      stage(3, i);
      const sql = plan.evalQueries[i];
      const answer = { type: 'eval', id, index: i, outcome: sql === null ? null : guarded(db, sql) };
      const last = i === plan.evalQueries.length - 1 && plan.cleanup.length === 0;
      port.postMessage(last ? { ...answer, done: true } : answer);
      done = last;
    }
    for (let i = 0; i < plan.cleanup.length; i++) {
      stage(4, i);
      try { execute(db, plan.cleanup[i]); } catch (_) { /* cleanup errors are ignored: the copy is dropped */ }
    }
  } finally {
    stage(0, 0);
    if (db !== undefined && db !== reader) db.close();
    else if (db === reader && readerChanged) dropReader();
    if (!done) port.postMessage({ type: 'done', id });
  }
}

// The database being built from setup steps (setupFolder.ts), one message per step.
let building;
function setup(SQL, step) {
  if (step.kind === 'begin') { building = new SQL.Database(); return {}; }
  if (step.kind === 'end') {
    dropReader();
    bytes = building.export();
    building.close();
    building = undefined;
    return { bytes };
  }
  // EvalBench runs each phase on a new connection: per-connection settings (foreign_keys) start over.
  if (step.kind === 'phase') { building.exec('PRAGMA foreign_keys = OFF'); return {}; }
  if (step.kind === 'sql') {
    try { execute(building, step.sql); return {}; } catch (e) { return { error: text(e) }; }
  }
  const columns = step.rows[0].length;
  const table = '\x60' + step.table.replaceAll('\x60', '\x60\x60') + '\x60';
  const statement = building.prepare('INSERT INTO ' + table + ' VALUES (' + new Array(columns).fill('?').join(', ') + ')');
  let row = -1;
  building.exec('BEGIN');
  try {
    Atomics.store(clock, 0, now());
    for (row = 0; row < step.rows.length; row++) statement.run(step.rows[row]);
    building.exec('COMMIT');
    return {};
  } catch (e) {
    try { building.exec('ROLLBACK'); } catch (_) { /* already ended */ }
    return { error: text(e), row: row < 0 ? 0 : row };
  } finally {
    Atomics.store(clock, 0, 0n);
    statement.free();
  }
}

port.on('message', async (message) => {
  const SQL = await ready;
  if (message.type === 'setup') {
    let reply;
    try { reply = setup(SQL, message.step); } catch (e) { reply = { error: text(e) }; }
    if (reply.bytes !== undefined) port.postMessage({ type: 'built', bytes: reply.bytes });
    else port.postMessage({ type: 'setup-done', ...reply });
    return;
  }
  if (message.type === 'build') {
    try {
      const db = new SQL.Database();
      try { db.exec(message.sql); dropReader(); bytes = db.export(); } finally { db.close(); }
      port.postMessage({ type: 'built', bytes });
    } catch (e) {
      port.postMessage({ type: 'build-failed', error: text(e) });
    }
  } else if (message.type === 'run') {
    run(SQL, message.id, message.plan);
  }
});
`;
