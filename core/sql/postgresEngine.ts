import {
  Client,
  DatabaseError,
  Pool,
  type ClientBase,
  type ClientConfig,
  type CustomTypesConfig,
  type PoolClient,
  type QueryArrayConfig,
  type QueryArrayResult,
} from 'pg';
import { abortError, effectiveLimit, guardPlan, timeLimitMessage, type GuardedSql } from './planRules';
import { postgresValue } from './postgresValues';
import { restoreSequences, SEQUENCES_SQL, snapshotSequences, type SequenceState } from './postgresSequences';
import {
  commitGuardSql,
  postgresStatementRefusal,
  ROLE_RIGHTS_SQL,
  superuserRefusal,
  transactionChange,
  transactionEnded,
  type RoleRight,
} from './postgresNoCommit';
import { executeOneStatement, transactionStatus } from './postgresProtocol';
import { runGuardedPlan, type GuardedSession, type SqlPlace } from './runGuardedPlan';
import type { QueryOutcome, QueryPlan, QueryRun, SqlEngine, SqlRows } from './sqlResult';
import { splitStatements } from './sqlStatements';

/**
 * PostgreSQL through `pg`. Every run takes one connection and:
 * BEGIN; SET LOCAL statement_timeout; setup (each under a savepoint, its own transaction control
 * rewritten as savepoints); SAVEPOINT, query; eval queries (each under a savepoint); cleanup; ROLLBACK — always rolled back, on errors too (see planRules.ts for what runs
 * after what). Then, outside the transaction: sequences that the run advanced are set back (nextval
 * is not transactional, and an INSERT under test would otherwise shift the ids every later case
 * sees), and `DISCARD ALL` drops what a session keeps past a rollback (prepared statements, advisory
 * locks, LISTEN). The connection always runs in UTC with ISO dates (values: postgresValues.ts).
 *
 * The time limit is the server's `statement_timeout`, per statement; a client-side read timeout
 * (limit + 2 s) backs it up when SQL under test changes the setting itself, and then cancels the
 * backend and drops the connection (what was left of the plan is reported as not run). Aborting the
 * signal cancels and drops the same way, and the run rejects with an AbortError. A connection that
 * fails (cannot connect, or lost during a run) is a thrown error naming host:port and database,
 * never a query outcome: it says nothing about the SQL. Runs share a pool of `maxConnections`
 * (default 1: runs go one at a time, so sequence values and lock waits cannot interleave between
 * concurrent cases).
 *
 * Setup, query, eval queries and cleanup run one statement at a time through the extended protocol,
 * under a commit guard, with the server's command tag and transaction status checked after each
 * statement; a role with superuser rights is refused unless the config allows it
 * (postgresNoCommit.ts says why SQL run here can never commit).
 */
export interface PostgresSettings {
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly user: string;
  readonly password?: string;
}

export interface PostgresOptions {
  readonly maxConnections?: number;
  readonly connectTimeoutMs?: number;
  /** Run SQL under test as a superuser (or a role that runs programs or writes files on the server): the database config's `allow_superuser: true`. */
  readonly allowSuperuser?: boolean;
}

export async function openPostgres(settings: PostgresSettings, options: PostgresOptions = {}): Promise<SqlEngine> {
  const config = clientConfig(settings, options);
  const pool = new Pool({
    ...config,
    max: options.maxConnections ?? 1,
    idleTimeoutMillis: 30_000,
    allowExitOnIdle: true,
  });
  pool.on('error', () => undefined);
  const engine = new PostgresEngine(pool, config, settings);
  try {
    const client = await engine.connect();
    try {
      const rights = (await client.query<RoleRight>(ROLE_RIGHTS_SQL)).rows;
      if (rights.length > 0 && options.allowSuperuser !== true)
        throw new Error(superuserRefusal(settings.user, settings.database, rights));
    } finally {
      client.release();
    }
  } catch (e) {
    await pool.end().catch(() => undefined);
    throw e;
  }
  return engine;
}

/** `postgres://user[:password]@host[:port]/database` as settings. */
export function postgresSettingsFromUrl(url: string): PostgresSettings {
  const parsed = new URL(url);
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')
    throw new Error(`not a PostgreSQL URL (expected postgres://user@host:port/database): ${parsed.protocol}`);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  const base = {
    host: parsed.hostname || '127.0.0.1',
    port: parsed.port === '' ? 5432 : Number(parsed.port),
    database: database || 'postgres',
    user: decodeURIComponent(parsed.username) || 'postgres',
  };
  return parsed.password === '' ? base : { ...base, password: decodeURIComponent(parsed.password) };
}

/** Session settings that make values comparable across servers and machines. */
const SESSION_OPTIONS =
  '-c TimeZone=UTC -c DateStyle=ISO,YMD -c IntervalStyle=postgres -c bytea_output=hex -c extra_float_digits=1';

function clientConfig(settings: PostgresSettings, options: PostgresOptions): ClientConfig {
  const base: ClientConfig = {
    host: settings.host,
    port: settings.port,
    database: settings.database,
    user: settings.user,
    options: SESSION_OPTIONS,
    application_name: 'evallens',
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
  };
  return settings.password === undefined ? base : { ...base, password: settings.password };
}

const TYPES: CustomTypesConfig = {
  getTypeParser: ((oid: number) => (text: string) => postgresValue(oid, text)) as CustomTypesConfig['getTypeParser'],
};

/** pg's error when the client-side read timeout fires. */
const READ_TIMEOUT = 'Query read timeout';

/** How long past the limit the client waits for the server before it gives up on the connection. */
const CLIENT_GRACE_MS = 2000;

class PostgresEngine implements SqlEngine {
  readonly dialect = 'postgres' as const;
  private closed = false;

  constructor(
    private readonly pool: Pool,
    private readonly config: ClientConfig,
    private readonly settings: PostgresSettings,
  ) {}

  async connect(): Promise<PoolClient> {
    try {
      return await this.pool.connect();
    } catch (e) {
      throw new Error(connectionFailure(this.settings, e));
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  async run(
    plan: QueryPlan,
    options: { readonly timeoutMs: number; readonly signal?: AbortSignal },
  ): Promise<QueryRun> {
    const { signal } = options;
    if (this.closed) throw new Error('the PostgreSQL engine is closed');
    if (signal?.aborted === true) throw abortError(signal);
    const guarded = guardPlan(plan, 'postgres');
    const limit = effectiveLimit(options.timeoutMs);
    const client = await this.connect();
    const session = new Session(client, limit, (pid) => this.cancel(pid));
    let aborted = false;
    const onAbort = () => {
      aborted = true;
      session.abort();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    let snapshot: SequenceState[] = [];
    let run: QueryRun | undefined;
    try {
      const begun = await session.begin();
      snapshot = begun === undefined ? [] : await snapshotSequences((sql) => session.exec(sql), begun);
      run = await runGuardedPlan(session, guarded, limit);
    } catch (e) {
      if (!session.broken) throw e;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      const restored = await session.end(snapshot);
      client.release(session.broken ? true : undefined);
      if (!restored) await this.restore(snapshot);
    }
    if (aborted && signal !== undefined) throw abortError(signal);
    if (session.lost !== undefined || run === undefined) {
      throw new Error(
        `the connection to PostgreSQL at ${this.settings.host}:${this.settings.port} was lost during the run: ${session.lost ?? 'no answer'}`,
      );
    }
    return run;
  }

  /** Sets back the sequences a run advanced whose own connection broke, on another connection (best effort). */
  private async restore(snapshot: readonly SequenceState[]): Promise<void> {
    if (snapshot.length === 0) return;
    const client = await this.pool.connect().catch(() => undefined);
    if (client === undefined) return;
    try {
      await restoreSequences((sql, values) => execOn(client, sql, values), snapshot);
      client.release();
    } catch {
      client.release(true);
    }
  }

  /** Asks the server to cancel what a backend is running, from a connection of its own. */
  private async cancel(pid: number): Promise<void> {
    const client = new Client(this.config);
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SELECT pg_cancel_backend($1)', [pid]);
    } catch {
      // The backend goes when its connection is dropped; the server rolls its transaction back.
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

/** One connection's run: statements, savepoints, the time limit, and what to do when it breaks. */
class Session implements GuardedSession {
  /** The connection can no longer be trusted (lost, read timeout, aborted); it is dropped, not reused. */
  broken = false;
  /** Why the connection was lost, when it was (not a time limit, not an abort): the run then fails as a whole. */
  lost: string | undefined;
  /** How long the last guarded SQL took, savepoint round trips left out. */
  lastMs = 0;
  /** Why the run stopped when a statement touched the transaction (the connection is then broken, and dropped). */
  stopped: string | undefined;
  private pid: number | undefined;
  private readonly onError = (e: Error) => {
    this.lost ??= e.message;
    this.broken = true;
  };

  constructor(
    private readonly client: PoolClient,
    private readonly limit: number | undefined,
    private readonly cancel: (pid: number) => Promise<void>,
  ) {
    client.on('error', this.onError);
  }

  /** Opens the transaction; answers the sequences to watch (their list), or undefined when broken. */
  async begin(): Promise<readonly (readonly unknown[])[] | undefined> {
    const results = await this.exec(
      `BEGIN; SET LOCAL statement_timeout = ${this.limit ?? 0}; SELECT pg_backend_pid(), current_setting('transaction_read_only'); ${SEQUENCES_SQL}`,
    );
    const [pid, readOnly] = results[2]?.rows[0] ?? [];
    this.pid = typeof pid === 'number' ? pid : undefined;
    if (this.broken) return undefined;
    // A read-only transaction (a standby, default_transaction_read_only) has nothing to commit, and cannot hold the guard's table.
    if (readOnly !== 'on') {
      await this.exec(commitGuardSql()).catch((e: unknown) => {
        if (this.broken) throw e;
        throw new Error(
          `EvalLens cannot open its commit guard (a temporary table whose deferred trigger makes any COMMIT fail), so it runs no SQL on this database; the role needs the TEMPORARY privilege on it: ${e instanceof Error ? e.message : String(e)}`,
        );
      });
    }
    return results[3]?.rows ?? [];
  }

  /** Runs SQL; throws the database's error. A read timeout or a lost connection marks the session broken. */
  async exec(sql: string, values?: unknown[]): Promise<QueryArrayResult[]> {
    return this.onConnection((readLimit) => execOn(this.client, sql, values, readLimit));
  }

  /** Whether the transaction EvalLens opened has ended (nothing further may run on this connection). */
  ended(): boolean {
    return transactionStatus(this.client) === 'I';
  }

  cannotGoOn(): boolean {
    return this.broken || this.ended();
  }

  /**
   * SQL under a savepoint, one statement at a time (postgresNoCommit.ts): on error its partial effects
   * are rolled back and the transaction goes on; when a statement touched the transaction itself, the
   * case stops and the connection is dropped.
   */
  async guarded(sql: GuardedSql, limit: number | undefined, place: SqlPlace): Promise<QueryOutcome> {
    if (sql.refused !== undefined) return { ok: false, error: sql.refused };
    if (this.stopped !== undefined)
      return {
        ok: false,
        error: `not run: an earlier statement ended the transaction EvalLens opened (${this.stopped})`,
      };
    if (this.broken) return { ok: false, error: 'not run: the connection was dropped to stop the statement before' };
    const statements = splitStatements(sql.sql, 'postgres');
    for (const statement of statements) {
      const refused = postgresStatementRefusal(statement, place);
      if (refused !== undefined) return { ok: false, error: refused };
    }
    let started = performance.now();
    try {
      await this.exec('SAVEPOINT evallens_guard');
      started = performance.now();
      let rows: SqlRows = { columns: [], rows: [] };
      for (const statement of statements) {
        const result = await this.execOne(sql.sql.slice(statement.start, statement.end));
        const changed = transactionChange(result.command, transactionStatus(this.client), statement, place);
        if (changed !== undefined) {
          this.lastMs = performance.now() - started;
          return { ok: false, error: this.stop(changed) };
        }
        if ((result.fields?.length ?? 0) > 0) rows = { columns: result.fields.map((f) => f.name), rows: result.rows };
      }
      this.lastMs = performance.now() - started;
      await this.exec('RELEASE SAVEPOINT evallens_guard');
      return { ok: true, result: rows };
    } catch (e) {
      this.lastMs = performance.now() - started;
      const error = this.describe(e, limit);
      if (this.broken) return { ok: false, error };
      // pg rejects on the ErrorResponse, before the ReadyForQuery that says whether the transaction survived
      // (a COMMIT the guard failed leaves none): the rollback to the savepoint, and the status after it, say.
      const rolledBack = await this.exec('ROLLBACK TO SAVEPOINT evallens_guard').then(
        () => true,
        () => false,
      );
      if (!this.broken && (!rolledBack || transactionStatus(this.client) !== 'T'))
        return { ok: false, error: `${this.stop(transactionEnded(transactionStatus(this.client)))}: ${error}` };
      return { ok: false, error };
    }
  }

  /** One statement through the extended protocol; a read timeout or a lost connection marks the session broken. */
  private async execOne(sql: string): Promise<QueryArrayResult> {
    return this.onConnection((readLimit) => executeOneStatement(this.client, sql, TYPES, readLimit));
  }

  /**
   * Sends on the session's connection with its read limit; throws the database's error. Any other
   * failure (a read timeout, a lost connection) marks the session broken and drops the connection.
   */
  private async onConnection<T>(send: (readLimit: number | undefined) => Promise<T>): Promise<T> {
    if (this.broken) throw new Error('the connection to PostgreSQL is no longer usable');
    try {
      return await send(this.limit === undefined ? undefined : this.limit + CLIENT_GRACE_MS);
    } catch (e) {
      if (!isServerError(e)) {
        const message = e instanceof Error ? e.message : String(e);
        if (message !== READ_TIMEOUT && !this.broken) this.lost ??= message;
        this.abort();
      }
      throw e;
    }
  }

  /** The transaction EvalLens opened was touched: nothing more runs on this connection, which is dropped. */
  private stop(reason: string): string {
    this.stopped = reason;
    this.broken = true;
    return reason;
  }

  /**
   * Ends the transaction (always a rollback), sets back the sequences that moved and clears the
   * session, unless the connection is broken. Answers whether the sequences were taken care of.
   */
  async end(snapshot: readonly SequenceState[]): Promise<boolean> {
    if (this.broken) {
      this.client.removeListener('error', this.onError);
      return snapshot.length === 0;
    }
    try {
      await this.exec('ROLLBACK');
      if (snapshot.length > 0) await restoreSequences((sql, values) => this.exec(sql, values), snapshot);
      await this.exec('DISCARD ALL');
    } catch {
      this.broken = true;
    }
    this.client.removeListener('error', this.onError);
    return !this.broken || snapshot.length === 0;
  }

  /** Stops what runs now: the backend's statement is canceled and the connection will be dropped. */
  abort(): void {
    if (this.broken) return;
    this.broken = true;
    if (this.pid !== undefined) void this.cancel(this.pid);
  }

  private describe(e: unknown, limit: number | undefined): string {
    const error = e as { code?: unknown; message?: unknown };
    const message = typeof error.message === 'string' ? error.message : String(e);
    if (
      limit !== undefined &&
      ((error.code === '57014' && message.includes('statement timeout')) || message === READ_TIMEOUT)
    )
      return timeLimitMessage(limit);
    return message;
  }
}

/** Runs SQL (one statement or several) with rows as arrays and EvalLens's value mapping; one result per statement. */
async function execOn(
  client: ClientBase,
  sql: string,
  values?: unknown[],
  readTimeoutMs?: number,
): Promise<QueryArrayResult[]> {
  const config: QueryArrayConfig & { query_timeout?: number } = { text: sql, rowMode: 'array', types: TYPES };
  if (values !== undefined) config.values = values;
  if (readTimeoutMs !== undefined) config.query_timeout = readTimeoutMs;
  const result: unknown = await client.query(config);
  return (Array.isArray(result) ? result : [result]) as QueryArrayResult[];
}

/** Whether an error came from the server (it has an SQLSTATE), as opposed to the connection. */
function isServerError(e: unknown): boolean {
  return e instanceof DatabaseError;
}

function connectionFailure(settings: PostgresSettings, e: unknown): string {
  let reason = e instanceof Error ? e.message : String(e);
  if (settings.password !== undefined && settings.password !== '') reason = reason.split(settings.password).join('***');
  if (/SASL|password must be a string/i.test(reason) && settings.password === undefined)
    reason = `the server asks for a password and none was given (name the variable that holds it with \`password: !ENV \${VAR}\` in the database config): ${reason}`;
  return `cannot connect to PostgreSQL at ${settings.host}:${settings.port}, database "${settings.database}" as user "${settings.user}": ${reason}`;
}
