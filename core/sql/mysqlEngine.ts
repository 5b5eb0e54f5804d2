import {
  createConnection,
  type Connection,
  type ConnectionOptions,
  type FieldPacket,
  type ResultSetHeader,
  type TypeCastField,
} from 'mysql2/promise';
import type { ServerSettings } from './databaseConfig';
import { abortError, effectiveLimit, guardPlan, timeLimitMessage, type GuardedSql } from './planRules';
import { hasCounters, NO_COUNTERS, readCounters, restoreCounters, type Counters } from './mysqlAutoIncrement';
import { mysqlRightsRefusal, mysqlTransactionEnded } from './mysqlNoCommit';
import { runGuardedPlan, type GuardedSession } from './runGuardedPlan';
import type { QueryOutcome, QueryPlan, QueryRun, SqlEngine, SqlRows, SqlValue } from './sqlResult';
import { splitStatements } from './sqlStatements';

/**
 * MySQL and MariaDB through `mysql2`, with the PostgreSQL engine's guarantees. Every run takes a
 * connection of its own (so nothing a session keeps — temporary tables, user variables, locks —
 * outlives the run) and: autocommit off; START TRANSACTION; setup (each entry under a savepoint, its
 * own BEGIN/START TRANSACTION … COMMIT rewritten as savepoints; one that fails is rolled back,
 * recorded in `setupErrors`, and the run goes on); SAVEPOINT, query; eval queries (each under a
 * savepoint); cleanup; ROLLBACK — always rolled back, on errors too (planRules.ts says what runs
 * after what, for every engine). SQL that MySQL would commit at once (DDL and the like), transaction
 * control in SQL under test, and SET are refused before anything runs (`guardPlan(plan, 'mysql')`,
 * mysqlStatements.ts); with autocommit off, even a transaction the server rolled back itself (a
 * deadlock) cannot turn later statements into commits, and a setup entry after which the
 * transaction was lost stops the run.
 * A database with tables whose changes a rollback cannot undo (MyISAM, Aria, …) is refused when it
 * is opened, and so is an account with SUPER or FILE rights unless the config allows it; each
 * statement goes alone (the client never allows several in one query), and the server's status flags
 * after it say whether the transaction is still open (mysqlNoCommit.ts).
 *
 * The time limit is per statement: the server's own (MariaDB's `max_statement_time`; MySQL's
 * `max_execution_time`, SELECT only) and, 2 s past the limit, `KILL QUERY` from another connection.
 * Aborting the signal kills the query and drops the connection, and the run rejects with an
 * AbortError. A connection that fails is a thrown error naming host:port and database (password
 * masked), never a query outcome.
 *
 * Values: integers as numbers, or their decimal text beyond ±(2^53 − 1); DECIMAL as a number when
 * no digit is lost, else its text; FLOAT/DOUBLE as numbers; DATE as `YYYY-MM-DD`; DATETIME and
 * TIMESTAMP as ISO `YYYY-MM-DDTHH:MM:SS[.fff]` (the session runs in UTC); binary strings as lowercase
 * hex; everything else as the server's text. Runs of one engine go one at a time, in call order.
 */
export async function openMysql(
  settings: ServerSettings,
  options: { readonly connectTimeoutMs?: number; readonly allowSuperuser?: boolean } = {},
): Promise<SqlEngine> {
  const config = connectionOptions(settings, options.connectTimeoutMs ?? 10_000);
  const connection = await connect(config, settings);
  try {
    const [grants] = await connection.query({ sql: 'SHOW GRANTS', rowsAsArray: true });
    const refused = mysqlRightsRefusal(
      settings,
      (grants as unknown[][]).map((row) => String(row[0])),
    );
    if (refused !== undefined && options.allowSuperuser !== true) throw new Error(refused);
    const [rows] = await connection.query({ sql: 'SELECT VERSION()', rowsAsArray: true });
    const version = String((rows as unknown[][])[0]?.[0] ?? '');
    const [tables] = await connection.query({
      sql: "SELECT TABLE_NAME, ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE' AND ENGINE NOT IN ('InnoDB', 'XtraDB') ORDER BY TABLE_NAME LIMIT 6",
      rowsAsArray: true,
    });
    const kept = (tables as [string, string][]).map(([name, engine]) => `${name} (${engine})`);
    if (kept.length > 0) {
      throw new Error(
        `the MySQL database "${settings.database}" has tables whose changes a rollback cannot undo: ${kept.slice(0, 5).join(', ')}${kept.length > 5 ? ', …' : ''}; EvalLens runs every case in a transaction it rolls back, so convert them to InnoDB (ALTER TABLE … ENGINE=InnoDB)`,
      );
    }
    return new MysqlEngine(config, settings, version.includes('MariaDB'));
  } finally {
    await connection.end().catch(() => connection.destroy());
  }
}

/** `mysql://user[:password]@host[:port]/database` as settings. */
export function mysqlSettingsFromUrl(url: string): ServerSettings {
  const parsed = new URL(url);
  if (parsed.protocol !== 'mysql:')
    throw new Error(`not a MySQL URL (expected mysql://user@host:port/database): ${parsed.protocol}`);
  const base = {
    host: parsed.hostname || '127.0.0.1',
    port: parsed.port === '' ? 3306 : Number(parsed.port),
    database: decodeURIComponent(parsed.pathname.replace(/^\//, '')),
    user: decodeURIComponent(parsed.username) || 'root',
  };
  return parsed.password === '' ? base : { ...base, password: decodeURIComponent(parsed.password) };
}

/** How long past the limit the client waits for the server before it kills the query itself. */
const CLIENT_GRACE_MS = 2000;
/** MariaDB's max_statement_time, MySQL's max_execution_time, and KILL QUERY's interruption. */
const TIMEOUT_ERRORS = new Set([1969, 3024, 1317]);

class MysqlEngine implements SqlEngine {
  readonly dialect = 'mysql' as const;
  private closed = false;
  /** Runs go one at a time: each waits for the one before. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly config: ConnectionOptions,
    private readonly settings: ServerSettings,
    private readonly mariadb: boolean,
  ) {}

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }

  run(plan: QueryPlan, options: { readonly timeoutMs: number; readonly signal?: AbortSignal }): Promise<QueryRun> {
    const next = this.queue.then(() => this.runNow(plan, options));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async runNow(
    plan: QueryPlan,
    options: { readonly timeoutMs: number; readonly signal?: AbortSignal },
  ): Promise<QueryRun> {
    const { signal } = options;
    if (this.closed) throw new Error('the MySQL engine is closed');
    if (signal?.aborted === true) throw abortError(signal);
    const guarded = guardPlan(plan, 'mysql');
    const limit = effectiveLimit(options.timeoutMs);
    const connection = await connect(this.config, this.settings);
    const session = new Session(connection, limit, () => this.kill(connection.threadId));
    let aborted = false;
    const onAbort = () => {
      aborted = true;
      session.abort();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    let run: QueryRun | undefined;
    let counters: Counters = NO_COUNTERS;
    try {
      await session.exec(
        `SET SESSION autocommit = 0, time_zone = '+00:00', sql_mode = 'STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION'${this.timeLimitSetting(limit)}`,
      );
      if (!this.mariadb) await session.exec('SET SESSION information_schema_stats_expiry = 0');
      counters = await readCounters(async (sql) => (await session.exec(sql)).rows);
      await session.exec('START TRANSACTION');
      run = await runGuardedPlan(session, guarded, limit);
    } catch (e) {
      if (!session.broken) throw e;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      const restored = await session.end(counters);
      if (!restored) await this.restoreCounters(counters);
    }
    if (aborted && signal !== undefined) throw abortError(signal);
    if (session.lost !== undefined || run === undefined) {
      throw new Error(
        `the connection to MySQL at ${this.settings.host}:${this.settings.port} was lost during the run: ${mask(session.lost ?? 'no answer', this.settings)}`,
      );
    }
    return run;
  }

  private timeLimitSetting(limit: number | undefined): string {
    if (limit === undefined) return '';
    return this.mariadb ? `, max_statement_time = ${limit / 1000}` : `, max_execution_time = ${limit}`;
  }

  /** Sets back the AUTO_INCREMENT counters and sequences a run whose connection was dropped advanced, on a connection of its own (best effort). */
  private async restoreCounters(counters: Counters): Promise<void> {
    if (!hasCounters(counters)) return;
    const connection = await connect(this.config, this.settings).catch(() => undefined);
    if (connection === undefined) return;
    try {
      if (!this.mariadb) await connection.query('SET SESSION information_schema_stats_expiry = 0');
      const now = await readCounters(
        async (sql) => (await connection.query({ sql, rowsAsArray: true }))[0] as unknown[][],
      );
      for (const sql of restoreCounters(counters, now)) await connection.query(sql);
    } catch {
      // Best effort: the counter only decides which ids later INSERTs get.
    } finally {
      await connection.end().catch(() => connection.destroy());
    }
  }

  /** Stops the statement a connection runs, from a connection of its own (best effort). */
  private async kill(threadId: number): Promise<void> {
    const killer = await connect(this.config, this.settings).catch(() => undefined);
    if (killer === undefined) return;
    try {
      await killer.query(`KILL QUERY ${Number(threadId)}`);
    } catch {
      // The statement ends when its connection is dropped; the server rolls its transaction back.
    } finally {
      await killer.end().catch(() => killer.destroy());
    }
  }
}

/** One connection's run: statements, savepoints, the time limit, and what to do when it breaks. */
class Session implements GuardedSession {
  /** The connection can no longer be used (lost, aborted); it is dropped. */
  broken = false;
  /** Why the connection was lost, when it was (not an abort): the run then fails as a whole. */
  lost: string | undefined;
  /** How long the last guarded SQL took, savepoint round trips left out. */
  lastMs = 0;
  /** A failing statement could not be rolled back to its savepoint: the server rolled the whole transaction back (a deadlock). */
  transactionLost = false;
  /** Why the run stopped when a statement ended the transaction (the connection is then dropped). */
  stopped: string | undefined;

  constructor(
    private readonly connection: Connection,
    private readonly limit: number | undefined,
    private readonly kill: () => Promise<void>,
  ) {
    connection.on('error', (e: Error) => {
      this.lost ??= e.message;
      this.broken = true;
    });
  }

  /** Runs one statement of EvalLens's own; throws the server's error. */
  async exec(sql: string): Promise<SqlRows> {
    const [results, fields] = await this.query(sql);
    return lastRows(results, fields);
  }

  /** Runs one statement; throws the server's error. The client kills a statement that outlives the limit by the grace. */
  private async query(sql: string): Promise<[unknown, unknown]> {
    if (this.broken) throw new Error('the connection to MySQL is no longer usable');
    const timer =
      this.limit === undefined ? undefined : setTimeout(() => void this.kill(), this.limit + CLIENT_GRACE_MS);
    try {
      const [results, fields] = await this.connection.query({ sql, rowsAsArray: true, typeCast });
      return [results, fields];
    } catch (e) {
      if (!isServerError(e)) {
        this.lost ??= e instanceof Error ? e.message : String(e);
        this.broken = true;
      }
      throw e;
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
  }

  cannotGoOn(): boolean {
    return this.broken || this.transactionLost;
  }

  /** SQL under a savepoint: on error its partial effects are rolled back and the transaction goes on. */
  async guarded(sql: GuardedSql, limit: number | undefined): Promise<QueryOutcome> {
    if (sql.refused !== undefined) return { ok: false, error: sql.refused };
    if (this.stopped !== undefined)
      return {
        ok: false,
        error: `not run: an earlier statement ended the transaction EvalLens opened (${this.stopped})`,
      };
    if (this.broken) return { ok: false, error: 'not run: the connection was dropped to stop the statement before' };
    // MySQL refuses text without a statement ("Query was empty"); PostgreSQL and SQLite run it as nothing,
    // and a setup entry that was only `COMMIT` is left empty once its transaction control is rewritten.
    if (splitStatements(sql.sql, 'mysql').length === 0) return { ok: true, result: { columns: [], rows: [] } };
    let started = performance.now();
    try {
      await this.exec('SAVEPOINT evallens_guard');
      started = performance.now();
      let result: SqlRows = { columns: [], rows: [] };
      for (const statement of splitStatements(sql.sql, 'mysql')) {
        const [rows, fields] = await this.query(sql.sql.slice(statement.start, statement.end));
        const ended = mysqlTransactionEnded(await this.statusAfter(rows));
        if (ended !== undefined) {
          this.lastMs = performance.now() - started;
          this.stopped = ended;
          this.broken = true;
          this.connection.destroy();
          return { ok: false, error: ended };
        }
        const answer = lastRows(rows, fields);
        if (answer.columns.length > 0) result = answer;
      }
      this.lastMs = performance.now() - started;
      await this.exec('RELEASE SAVEPOINT evallens_guard');
      return { ok: true, result };
    } catch (e) {
      this.lastMs = performance.now() - started;
      const error = describe(e, limit);
      // A deadlock rolls the whole transaction back and the savepoint with it; autocommit stays off.
      if (!this.broken) {
        await this.exec('ROLLBACK TO SAVEPOINT evallens_guard').catch(() => {
          this.transactionLost = true;
        });
      }
      return { ok: false, error };
    }
  }

  /**
   * The server's status flags after a statement: from its OK packet, or, after rows (mysql2 does not
   * give the flags of their closing packet), from a `DO 0`, which starts no transaction of its own.
   */
  private async statusAfter(rows: unknown): Promise<number | undefined> {
    if (!Array.isArray(rows)) return (rows as ResultSetHeader).serverStatus;
    const [probe] = await this.query('DO 0');
    return Array.isArray(probe) ? undefined : (probe as ResultSetHeader).serverStatus;
  }

  /**
   * Rolls back, sets back the AUTO_INCREMENT counters that moved, and closes the connection; a broken
   * one is destroyed (the server rolls it back). Answers whether the counters were taken care of
   * (else the engine does it on another connection).
   */
  async end(counters: Counters): Promise<boolean> {
    if (!this.broken) {
      try {
        await this.exec('ROLLBACK');
        // Outside any transaction now: ALTER TABLE's implicit commit has nothing to commit.
        const now = await readCounters(async (sql) => (await this.exec(sql)).rows);
        for (const sql of restoreCounters(counters, now)) await this.exec(sql).catch(() => undefined);
        await this.connection.end();
        return true;
      } catch {
        // Dropped below.
      }
    }
    this.connection.destroy();
    return !hasCounters(counters);
  }

  /** Stops what runs now: the statement is killed and the connection dropped. */
  abort(): void {
    if (this.broken) return;
    this.broken = true;
    void this.kill().finally(() => this.connection.destroy());
  }
}

function connectionOptions(settings: ServerSettings, connectTimeout: number): ConnectionOptions {
  const base: ConnectionOptions = {
    host: settings.host,
    port: settings.port,
    user: settings.user,
    database: settings.database,
    connectTimeout,
    // One statement per query, at the server's word: a text our splitter misread fails instead of running two.
    multipleStatements: false,
    supportBigNumbers: true,
    dateStrings: true,
    timezone: 'Z',
  };
  return settings.password === undefined ? base : { ...base, password: settings.password };
}

async function connect(config: ConnectionOptions, settings: ServerSettings): Promise<Connection> {
  try {
    const connection = await createConnection(config);
    connection.on('error', () => undefined);
    return connection;
  } catch (e) {
    const reason = mask(e instanceof Error ? e.message : String(e), settings);
    throw new Error(
      `cannot connect to MySQL at ${settings.host}:${settings.port}, database "${settings.database}" as user "${settings.user}": ${reason}`,
    );
  }
}

function mask(text: string, settings: ServerSettings): string {
  return settings.password === undefined || settings.password === '' ? text : text.split(settings.password).join('***');
}

/** Whether an error came from the server (it has an error number), as opposed to the connection. */
function isServerError(e: unknown): boolean {
  const error = e as { errno?: unknown; fatal?: unknown };
  return typeof error.errno === 'number' && error.fatal !== true;
}

function describe(e: unknown, limit: number | undefined): string {
  const error = e as { errno?: unknown; message?: unknown };
  if (limit !== undefined && typeof error.errno === 'number' && TIMEOUT_ERRORS.has(error.errno))
    return timeLimitMessage(limit);
  return typeof error.message === 'string' ? error.message : String(e);
}

/** The rows of the last result that has columns (several statements give several results), or none. */
function lastRows(results: unknown, fields: unknown): SqlRows {
  const many =
    Array.isArray(fields) &&
    fields.length > 0 &&
    (Array.isArray(fields[0]) || fields[0] === undefined || fields[0] === null);
  const pairs: [unknown, FieldPacket[] | undefined][] = many
    ? (results as unknown[]).map((r, i) => [r, (fields as (FieldPacket[] | undefined)[])[i]])
    : [[results, fields as FieldPacket[] | undefined]];
  for (let i = pairs.length - 1; i >= 0; i--) {
    const [rows, columns] = pairs[i] ?? [];
    if (Array.isArray(columns) && columns.length > 0 && Array.isArray(rows))
      return { columns: columns.map((f) => f.name), rows: (rows as unknown[][]).map((row) => row.map(binaryAsHex)) };
  }
  return { columns: [], rows: [] };
}

/** Binary strings and BIT values (mysql2 gives them as Buffers) as lowercase hex, as SQLite BLOBs are given. */
function binaryAsHex(value: unknown): SqlValue {
  return Buffer.isBuffer(value) ? value.toString('hex') : (value as SqlValue);
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A value as EvalLens compares it (see the module comment). */
function typeCast(field: TypeCastField, next: () => unknown): unknown {
  switch (field.type) {
    case 'TINY':
    case 'SHORT':
    case 'LONG':
    case 'INT24':
    case 'YEAR':
    case 'LONGLONG': {
      const text = field.string();
      if (text === null) return null;
      const big = BigInt(text);
      return big <= MAX_SAFE && big >= -MAX_SAFE ? Number(big) : text;
    }
    case 'FLOAT':
    case 'DOUBLE': {
      const text = field.string();
      return text === null ? null : Number(text);
    }
    case 'NEWDECIMAL':
    case 'DECIMAL': {
      const text = field.string();
      if (text === null) return null;
      const number = Number(text);
      return Number.isFinite(number) && sameDecimal(String(number), text) ? number : text;
    }
    case 'DATETIME':
    case 'TIMESTAMP': {
      const text = field.string();
      return text === null ? null : text.replace(' ', 'T');
    }
    default:
      return next();
  }
}

/** Whether two decimal texts are the same value (`12.50` and `12.5`). */
function sameDecimal(a: string, b: string): boolean {
  const normal = (text: string) => {
    let t = text.startsWith('+') ? text.slice(1) : text;
    if (t.includes('.')) t = t.replace(/0+$/, '').replace(/\.$/, '');
    return t === '-0' ? '0' : t;
  };
  return normal(a) === normal(b);
}
