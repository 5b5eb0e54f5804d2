import {
  abortError,
  effectiveLimit,
  EXCEEDED_TIME_LIMIT,
  guardPlan,
  NOT_RUN_AFTER_SETUP,
  notRunAfterStop,
  setupErrorMessage,
  setupFailedMessage,
  timeLimitMessage,
  type GuardedPlan,
} from './planRules';
import type { QueryOutcome, QueryPlan, QueryRun, SqlEngine, SqlValue } from './sqlResult';
import { planCacheKey, sharedPlanResultCache, type PlanResultCache } from './planResultCache';
import { buildFromSteps } from './setupBuild';
import { runsOnSharedReader } from './sqliteReadOnly';
import type { SetupStep } from './setupFolder';
import { startsAnyStatement } from './sqlStatements';
import {
  DEFAULT_HEAP_LIMIT_MB,
  epochNow,
  SqliteWorker,
  sqlJsAssets,
  type RawOutcome,
  type RawValue,
  type RunningStatement,
  type SqlJsAssets,
  type WorkerPlan,
  type WorkerReply,
} from './sqliteWorker';
import { readBoundedBytes } from '../text/boundedRead';

/**
 * The embedded engine: SQLite compiled to WebAssembly (sql.js), so it runs in VS Code's extension
 * host as it does in Node. The database's bytes are read (or built from SQL text) once; every run
 * opens a fresh in-memory copy of them, runs the plan on it (see planRules.ts) and drops it, so
 * nothing a query does reaches the next run or the file. SQL runs in a worker thread (see
 * sqliteWorker.ts for why, and what it costs); runs of one engine go one at a time, in call order.
 *
 * Up to PIPELINE_DEPTH plans are handed to the worker ahead of the one it runs, so it goes from one
 * plan to the next without waiting for this thread: each hand-over to an idle worker wakes it (on a
 * loaded machine a context switch each way), which cost more than the SQL of a small NL2SQL query
 * (`MessagePort.postMessage` was ~20% of the main thread's samples with every plan distinct). The
 * worker still runs them one at a time, in order, each on its own copy; the time limit watches the
 * oldest plan not yet answered, and the worker's clock names the plan it runs, so a limit can stop
 * only that plan. When a limit, a crash or an abort retires the worker, the plans handed over behind
 * the stopped one had not started (the worker runs them in order) and are handed to the next worker.
 * A plan that writes files (below) is handed over alone: its worker is retired after it.
 *
 * A plan with no setup and no cleanup whose SQL under test holds no word of any statement but a query
 * (sqliteReadOnly.ts) skips the copy: such plans share one connection per worker, opened on the same
 * bytes with `PRAGMA query_only` on, after the worker has checked on SQLite's own parse that each
 * statement is a query. A query changes nothing a later run could see (rows, schema, temporary tables,
 * attached databases and settings all need other statements, which send the plan to a fresh copy),
 * `query_only` refuses any write SQLite would attempt anyway, and a connection that ever reports a row
 * change is closed (sql.js's update hook). Opening the copy (SQLite reads the schema again each time)
 * was most of the worker's time per run on small NL2SQL queries: ~0.7 ms against ~0.02 ms for the
 * query itself (sql.js in a loop, the 28 KB example database).
 *
 * `ATTACH` and `VACUUM INTO` write files into the worker's in-memory file system, where a later run
 * could `ATTACH` them again; a run with either statement retires its worker afterwards (~34 ms for
 * the next run), so no file outlives the run that made it.
 *
 * Values: INTEGER as a number, or as a decimal string beyond ±(2^53 − 1) where a double would lose
 * digits; REAL as a number; TEXT as a string; NULL as null; BLOB as lowercase hex. A query string
 * with several statements runs them all; its result is that of the last statement that has result
 * columns (a SELECT, a PRAGMA that answers, a RETURNING), even with zero rows; with none, no columns
 * and no rows. (EvalBench's SQLite path instead concatenates the rows of every statement that
 * returns rows.) `durationMs` is the query's own time, without setup, eval queries and cleanup.
 */
export interface SqliteSource {
  /** A database file; read once, never written. */
  readonly file?: string;
  /** SQL that builds the database (schema and data), run once on an empty database. */
  readonly sqlText?: string;
  /**
   * Steps that build the database in memory (EvalBench's setup folder, setupFolder.ts), run once on
   * an empty database; the first failing step stops the build with its file:line:col. No file is written.
   */
  readonly setup?: AsyncIterable<SetupStep>;
}

export interface SqliteOptions {
  /**
   * How much memory (MB) the worker's JavaScript heap may use, mostly for the rows of a result
   * (default 1024). A statement whose rows do not fit gets an error; the process goes on.
   */
  readonly heapLimitMb?: number;
  /** How long building from `setup` steps may take in all (default 5 minutes); past it the build stops with an error. */
  readonly setupTimeLimitMs?: number;
  /**
   * Where the runs of plans that give the same result every time are kept (planResultCache.ts): by
   * default the cache all SQLite engines of the process share; `false` runs every plan.
   */
  readonly resultCache?: PlanResultCache | false;
}

const SETUP_TIME_LIMIT_MS = 5 * 60_000;

export async function openSqlite(source: SqliteSource, options: SqliteOptions = {}): Promise<SqlEngine> {
  if ([source.file, source.sqlText, source.setup].filter((s) => s !== undefined).length !== 1)
    throw new Error('openSqlite needs exactly one of `file`, `sqlText` and `setup`');
  const sqlJs = await sqlJsAssets();
  const heapLimitMb = options.heapLimitMb ?? DEFAULT_HEAP_LIMIT_MB;
  const cache = options.resultCache === false ? undefined : (options.resultCache ?? sharedPlanResultCache);
  if (source.file !== undefined)
    return new SqliteEngine(sqlJs, shared(await readDatabaseFile(source.file)), heapLimitMb, cache);
  if (source.setup !== undefined) {
    const built = await buildFromSteps(
      sqlJs,
      source.setup,
      heapLimitMb,
      options.setupTimeLimitMs ?? SETUP_TIME_LIMIT_MS,
    );
    return new SqliteEngine(sqlJs, shared(built.bytes), heapLimitMb, cache, built.worker);
  }
  const built = await buildDatabase(sqlJs, source.sqlText ?? '', heapLimitMb);
  return new SqliteEngine(sqlJs, shared(built.bytes), heapLimitMb, cache, built.worker);
}

/** An SQLite value as EvalLens compares it (see the module comment). */
export function sqliteValue(value: RawValue): SqlValue {
  if (typeof value === 'bigint') return value >= MIN_SAFE && value <= MAX_SAFE ? Number(value) : value.toString();
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex');
  return value;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = -MAX_SAFE;

const SQLITE_HEADER = 'SQLite format 3\u0000';

async function readDatabaseFile(file: string): Promise<Uint8Array> {
  const read = await readBoundedBytes(file, 'sqliteDatabase');
  if (!read.ok) throw new Error(`cannot open the SQLite database ${file}: ${read.reason}`);
  const bytes = read.bytes;
  if (bytes.length > 0 && Buffer.from(bytes.subarray(0, 16)).toString('latin1') !== SQLITE_HEADER) {
    throw new Error(`${file} is not an SQLite database: it does not start with the SQLite header`);
  }
  return bytes;
}

/** Runs `sqlText` on an empty database in a new worker; the worker keeps the result and is adopted by the engine. */
function buildDatabase(
  sqlJs: SqlJsAssets,
  sqlText: string,
  heapLimitMb: number,
): Promise<{ bytes: Uint8Array; worker: SqliteWorker }> {
  const worker = new SqliteWorker(sqlJs, null, heapLimitMb);
  return new Promise((resolve, reject) => {
    const fail = (message: string) => {
      worker.terminate();
      reject(new Error(message));
    };
    worker.onStop = (e) => fail(`cannot build the SQLite database: ${e.message}`);
    worker.onReply = (reply) => {
      if (reply.type === 'built') {
        worker.busy(false);
        resolve({ bytes: reply.bytes, worker });
      } else if (reply.type === 'build-failed') fail(`the SQL text does not build an SQLite database: ${reply.error}`);
      else if (reply.type === 'fatal') fail(`cannot start SQLite (sql.js): ${reply.error}`);
    };
    worker.busy(true);
    worker.post({ type: 'build', sql: sqlText });
  });
}

/** A copy of the bytes in shared memory, so every worker this engine starts reads the same copy. */
function shared(bytes: Uint8Array): Uint8Array {
  const copy = new Uint8Array(new SharedArrayBuffer(bytes.length));
  copy.set(bytes);
  return copy;
}

interface Job {
  readonly id: number;
  readonly plan: GuardedPlan;
  readonly limit: number | undefined;
  readonly signal: AbortSignal | undefined;
  readonly resolve: (run: QueryRun) => void;
  readonly reject: (e: Error) => void;
  /** The plan writes files (ATTACH, VACUUM INTO): its worker is retired after it. */
  readonly writesFiles: boolean;
  /** The second pass that runs the eval queries after the query was stopped. */
  retry: boolean;
  /** Where the run is kept when it ends by itself (undefined: its result may vary, or no cache). */
  readonly cacheKey: string | undefined;
  /** A time limit or the worker's end stopped a statement: the run is not kept. */
  stopped: boolean;
  /** Aborted after it was handed to the worker: already rejected; the worker's answer is dropped. */
  abandoned: boolean;
  setupError?: string;
  /** Setup statements that failed or were refused, rolled back while the plan went on. */
  readonly setupErrors: string[];
  query?: QueryOutcome;
  queryMs: number;
  readonly evals: (QueryOutcome | undefined)[];
  timer?: NodeJS.Timeout | undefined;
  onAbort?: () => void;
}

class SqliteEngine implements SqlEngine {
  readonly dialect = 'sqlite' as const;
  private worker: SqliteWorker | undefined;
  /** Plans not yet handed to the worker. */
  private readonly queue: Job[] = [];
  /** Plans handed to the worker, in order: the first is the one it runs (or whose answer is on its way). */
  private readonly inFlight: Job[] = [];
  private closed = false;
  private nextId = 0;
  /** This engine's part of the shared result cache. */
  private readonly cacheScope = `sqlite#${++engineCount}\u0000`;

  constructor(
    private readonly sqlJs: SqlJsAssets,
    private readonly bytes: Uint8Array,
    private readonly heapLimitMb: number,
    private readonly cache: PlanResultCache | undefined,
    worker?: SqliteWorker,
  ) {
    if (worker !== undefined) this.adopt(worker);
  }

  run(plan: QueryPlan, options: { readonly timeoutMs: number; readonly signal?: AbortSignal }): Promise<QueryRun> {
    const { signal } = options;
    if (this.closed) return Promise.reject(new Error('the SQLite engine is closed'));
    if (signal?.aborted === true) return Promise.reject(abortError(signal));
    const writesFiles = [...plan.setup, plan.query, ...plan.evalQueries, ...plan.cleanup].some((sql) =>
      startsAnyStatement(sql, 'sqlite', FILE_WRITERS),
    );
    const cacheKey =
      this.cache === undefined || writesFiles ? undefined : planCacheKey(this.cacheScope, plan, options.timeoutMs);
    const kept = cacheKey === undefined ? undefined : this.cache?.get(cacheKey);
    if (kept !== undefined) return Promise.resolve(kept);
    return new Promise<QueryRun>((resolve, reject) => {
      const guarded = guardPlan(plan, 'sqlite');
      const job: Job = {
        id: ++this.nextId,
        plan: guarded,
        limit: effectiveLimit(options.timeoutMs),
        signal,
        resolve,
        reject,
        writesFiles,
        retry: false,
        cacheKey,
        stopped: false,
        abandoned: false,
        queryMs: 0,
        evals: guarded.evalQueries.map(refusal),
        setupErrors: [],
      };
      guarded.setup.forEach((s, index) => {
        if (s.refused !== undefined) job.setupErrors.push(setupErrorMessage(index, s.refused));
      });
      const refused = refusal(guarded.query);
      if (refused !== undefined) job.query = refused;
      if (signal !== undefined) {
        job.onAbort = () => this.abort(job);
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      this.queue.push(job);
      this.pump();
    });
  }

  close(): Promise<void> {
    this.closed = true;
    this.cache?.dropScope(this.cacheScope);
    this.dropWorker();
    const pending = [...this.inFlight.splice(0), ...this.queue.splice(0)];
    for (const job of pending) this.settle(job, () => job.reject(new Error('the SQLite engine was closed')));
    return Promise.resolve();
  }

  /** Hands queued plans to the worker, up to PIPELINE_DEPTH ahead; a plan that writes files goes alone. */
  private pump(): void {
    while (!this.closed && this.inFlight.length < PIPELINE_DEPTH) {
      const job = this.queue[0];
      if (job === undefined) return;
      const last = this.inFlight[this.inFlight.length - 1];
      if (last !== undefined && (last.writesFiles || job.writesFiles)) return;
      this.queue.shift();
      this.inFlight.push(job);
      this.dispatch(job, {
        setup: runnableSetup(job),
        query: job.query === undefined ? job.plan.query.sql : null,
        evalQueries: job.plan.evalQueries.map((q) => (q.refused === undefined ? q.sql : null)),
        cleanup: job.plan.cleanup.filter((s) => s.refused === undefined).map((s) => s.sql),
      });
    }
  }

  private dispatch(job: Job, parts: Omit<WorkerPlan, 'sharedReader'>): void {
    const plan: WorkerPlan = { ...parts, sharedReader: runsOnSharedReader(parts) };
    let worker = this.worker;
    if (worker === undefined) {
      worker = new SqliteWorker(this.sqlJs, this.bytes, this.heapLimitMb);
      this.adopt(worker);
    }
    worker.busy(true);
    worker.post({ type: 'run', id: job.id, plan });
    if (this.inFlight[0] === job) this.arm(job);
  }

  /** Starts watching the time limit of the plan the worker runs now. */
  private arm(job: Job): void {
    if (job.limit !== undefined && job.timer === undefined) this.watch(job, job.limit);
  }

  private adopt(worker: SqliteWorker): void {
    this.worker = worker;
    worker.onReply = (reply) => this.receive(reply);
    worker.onStop = (error) => this.workerStopped(worker, error);
  }

  /** Checks the running statement against the limit; stops the worker when it is past it. */
  private watch(job: Job, limit: number): void {
    const check = () => {
      job.timer = undefined;
      const worker = this.worker;
      if (worker === undefined || this.inFlight[0] !== job) return;
      worker.drain();
      if (this.inFlight[0] !== job) return;
      const running = runningOf(worker, job);
      const elapsed = running === undefined ? 0 : epochNow() - running.startedAt;
      if (running !== undefined && elapsed >= limit) {
        this.stopped(job, running, timeLimitMessage(limit), EXCEEDED_TIME_LIMIT, elapsed);
        return;
      }
      job.timer = setTimeout(check, Math.max(1, limit - elapsed));
    };
    job.timer = setTimeout(check, limit);
  }

  private receive(reply: WorkerReply): void {
    const job = this.inFlight[0];
    if (reply.type === 'fatal') {
      this.dropWorker(job);
      if (job !== undefined) this.fail(job, new Error(`cannot start SQLite (sql.js): ${reply.error}`));
      return;
    }
    if (job === undefined || !('id' in reply) || reply.id !== job.id) return;
    if (reply.type === 'setup-error') {
      if (!job.retry) job.setupErrors.push(setupErrorMessage(reply.index, reply.error));
    } else if (reply.type === 'query' && reply.outcome !== null) {
      job.query = outcome(reply.outcome);
      job.queryMs = reply.ms;
    } else if (reply.type === 'eval' && reply.outcome !== null) {
      job.evals[reply.index] = outcome(reply.outcome);
    }
    // The worker says "done" with the plan's last answer, or alone after a cleanup.
    if (reply.type === 'done' || ((reply.type === 'query' || reply.type === 'eval') && reply.done === true))
      this.finish(job);
  }

  /**
   * The worker was stopped (time limit) or stopped by itself (crash, out of memory) while `job` ran
   * `running`: that statement gets `message`, and the plan goes on as planRules.ts says.
   */
  private stopped(job: Job, running: RunningStatement, message: string, why: string, elapsedMs: number): void {
    this.dropWorker(job);
    job.stopped = true;
    if (job.abandoned) {
      this.complete(job, () => undefined);
      return;
    }
    const error: QueryOutcome = { ok: false, error: message };
    if (running.part === 'setup') {
      if (job.retry) fillEvals(job, NOT_RUN_AFTER_SETUP);
      else job.setupError = setupFailedMessage(running.index, message);
    } else if (running.part === 'query') {
      job.query = error;
      job.queryMs = elapsedMs;
      if (!job.retry && job.evals.some((e) => e === undefined)) {
        // As PostgreSQL rolls back to the savepoint before the query, the eval queries run on a
        // fresh copy with setup applied again.
        job.retry = true;
        clearTimeout(job.timer);
        this.dispatch(job, {
          setup: runnableSetup(job),
          query: null,
          evalQueries: job.plan.evalQueries.map((q, i) => (job.evals[i] === undefined ? q.sql : null)),
          cleanup: job.plan.cleanup.filter((s) => s.refused === undefined).map((s) => s.sql),
        });
        this.pump();
        return;
      }
    } else if (running.part === 'eval') {
      job.evals[running.index] = error;
      fillEvals(job, notRunAfterStop(running.index, why));
    }
    this.finish(job);
  }

  private workerStopped(worker: SqliteWorker, error: Error): void {
    if (worker !== this.worker) return;
    worker.drain();
    const job = this.inFlight[0];
    if (job === undefined) {
      this.dropWorker();
      return;
    }
    const running = runningOf(worker, job);
    if (running === undefined) {
      this.dropWorker(job);
      this.fail(job, error);
      return;
    }
    this.stopped(job, running, error.message, 'stopped the SQLite worker', epochNow() - running.startedAt);
  }

  private abort(job: Job): void {
    if (this.inFlight[0] === job) {
      this.dropWorker(job);
      this.fail(job, abortError(job.signal ?? new AbortController().signal));
      return;
    }
    if (this.inFlight.includes(job)) {
      // Handed over but not started: the worker runs it anyway (in order); its answer is dropped.
      job.abandoned = true;
      this.settle(job, () => job.reject(abortError(job.signal ?? new AbortController().signal)));
      return;
    }
    const at = this.queue.indexOf(job);
    if (at >= 0) {
      this.queue.splice(at, 1);
      this.settle(job, () => job.reject(abortError(job.signal ?? new AbortController().signal)));
    }
  }

  private finish(job: Job): void {
    const query: QueryOutcome =
      job.setupError !== undefined
        ? { ok: false, error: job.setupError }
        : (job.query ?? { ok: false, error: 'the query did not run' });
    const evalQueries = job.evals.map((e): QueryOutcome =>
      job.setupError !== undefined ? NOT_RUN_AFTER_SETUP : (e ?? { ok: false, error: 'not run' }),
    );
    const durationMs = job.queryMs;
    const setupErrors = [...job.setupErrors].sort(bySetupIndex);
    const run: QueryRun = {
      query,
      ...(evalQueries.length === 0 ? {} : { evalQueries }),
      ...(setupErrors.length === 0 ? {} : { setupErrors }),
      durationMs,
    };
    if (job.cacheKey !== undefined && !job.stopped && !this.closed) this.cache?.set(job.cacheKey, run);
    this.complete(job, () => (job.abandoned ? undefined : job.resolve(run)));
  }

  private fail(job: Job, error: Error): void {
    this.complete(job, () => (job.abandoned ? undefined : job.reject(error)));
  }

  /** Ends a job (the oldest in flight) and hands over the next. */
  private complete(job: Job, answer: () => void): void {
    const at = this.inFlight.indexOf(job);
    if (at >= 0) this.inFlight.splice(at, 1);
    if (job.writesFiles) this.dropWorker();
    this.settle(job, answer);
    this.pump();
    const head = this.inFlight[0];
    if (head === undefined) this.worker?.busy(false);
    else this.arm(head);
  }

  private settle(job: Job, answer: () => void): void {
    clearTimeout(job.timer);
    if (job.onAbort !== undefined) job.signal?.removeEventListener('abort', job.onAbort);
    answer();
  }

  /**
   * Retires the worker. The plans handed to it behind `keep` had not started (it runs them in order):
   * they go back to the front of the queue, for the next worker; abandoned ones are dropped.
   */
  private dropWorker(keep?: Job): void {
    this.worker?.terminate();
    this.worker = undefined;
    const behind = this.inFlight.filter((job) => job !== keep);
    this.inFlight.splice(
      0,
      this.inFlight.length,
      ...(keep !== undefined && this.inFlight.includes(keep) ? [keep] : []),
    );
    for (const job of behind) {
      clearTimeout(job.timer);
      job.timer = undefined;
    }
    this.queue.unshift(...behind.filter((job) => !job.abandoned));
  }
}

let engineCount = 0;

/** Plans handed to the worker at most ahead of its answers (see the module comment). */
const PIPELINE_DEPTH = 8;

/** The statement the worker runs, if it belongs to `job`. */
function runningOf(worker: SqliteWorker, job: Job): RunningStatement | undefined {
  const running = worker.running();
  return running !== undefined && running.job === job.id ? running : undefined;
}

/** Statements that leave files in the worker's file system. */
const FILE_WRITERS: ReadonlySet<string> = new Set(['ATTACH', 'VACUUM']);

/** The setup the worker runs: refused statements left out (null), so the worker's indexes stay the plan's. */
function runnableSetup(job: Job): (string | null)[] {
  return job.plan.setup.map((s) => (s.refused === undefined ? s.sql : null));
}

/** Setup errors in plan order (refused ones are known before the worker reports the others). */
function bySetupIndex(a: string, b: string): number {
  return setupNumber(a) - setupNumber(b);
}

function setupNumber(message: string): number {
  return Number(/^setup_sql #(\d+)/.exec(message)?.[1] ?? 0);
}

function refusal(sql: { readonly refused?: string | undefined }): QueryOutcome | undefined {
  return sql.refused === undefined ? undefined : { ok: false, error: sql.refused };
}

function fillEvals(job: Job, outcome: QueryOutcome): void {
  for (let i = 0; i < job.evals.length; i++) job.evals[i] ??= outcome;
}

function outcome(raw: RawOutcome): QueryOutcome {
  if (!raw.ok) return { ok: false, error: raw.error };
  return { ok: true, result: { columns: raw.columns, rows: raw.rows.map((row) => row.map(sqliteValue)) } };
}
