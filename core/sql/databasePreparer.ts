import type { SqlCleanUp } from './sanitizeSql';
import { existsSync } from 'node:fs';
import { basename, extname } from 'node:path';
import type { EvalCase, Json } from '../case';
import type { CasePreparer } from '../runner/casePreparer';
import { databaseNameFor, locationOf, type DatabaseConfig, type DatabaseLocation } from './databaseConfig';
import { nl2sqlPreparer } from './nl2sqlPreparer';
import { missingSetup, setupFolderOf } from './setupFolder';
import type { SqlEngine } from './sqlResult';
import { maskSecretText, readSecretEnv } from '../../shared/text/secretMask';

/**
 * The NL2SQL preparer of a run with several databases, as EvalBench runs them: each case on the
 * database its item names (`expected.database`, from the item's `database` or BIRD's `db_id`), with
 * the first database config that serves the item's dialect (`expected.dialect`; a case of no dialect
 * takes the first config). Database names go through the run config's `db_name_overrides` /
 * `db_name_mappings` as in EvalBench, then `databaseNameFor` (suffix, or `database_name` for an item
 * that names none).
 *
 * Engines open lazily, one per database, on the first case that needs it, and all close at the end.
 * A case whose database cannot be used (no config for its dialect, an engine EvalLens does not run,
 * no such SQLite file, a server that does not answer) throws, which makes it an `error` on that case
 * with the reason; there is no fallback to another database. A case without golden SQL is returned
 * as it is, as `nl2sqlPreparer` does.
 *
 * `reaches`: a server database is a socket the workspace chose; a run without trust never prepares a
 * case that would open one (nor reads its password variable), and still runs SQLite cases.
 */
export interface DatabaseEntry {
  /** The config, when it could be read. */
  readonly config?: DatabaseConfig;
  /**
   * Set in a run without trust for a config that names environment variables: it was not read, so
   * its cases (those of `dialect`, or all when the dialect is unknown) are left to trust.
   */
  readonly unread?: { readonly dialect?: string };
}

export interface DatabaseNames {
  /** `db_name_overrides`: dialect → item database → database. */
  readonly overrides?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** `db_name_mappings`: dialect → pattern with `{db_id}`. */
  readonly mappings?: Readonly<Record<string, string>>;
}

export interface DatabasePreparerOptions {
  readonly timeoutMs: number;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly names?: DatabaseNames;
  /** How generated SQL is cleaned up before it runs (the run config's EvalBench `dialect`, `prompt_generator`). */
  readonly cleanUp?: SqlCleanUp;
  /**
   * EvalBench's `setup_directory` (absolute): each SQLite database is then built in memory from
   * `<setup_directory>/<database>` for the run (setupFolder.ts), as EvalBench builds it before a run,
   * instead of read from its file. Server databases are the user's and are used as they are.
   */
  readonly setupDirectory?: string;
  /** Opens an engine (openEngine.ts); a test passes its own to count what is opened. */
  readonly open: (location: DatabaseLocation, env: Readonly<Record<string, string | undefined>>) => Promise<SqlEngine>;
}

export function databasePreparer(entries: readonly DatabaseEntry[], options: DatabasePreparerOptions): CasePreparer {
  const engines = new Map<string, Promise<{ engine: SqlEngine; preparer: CasePreparer }>>();
  const pick = (evalCase: EvalCase) =>
    selectDatabase(entries, sqlTarget(evalCase), options.names, options.setupDirectory);
  const network = entries.some(
    (entry) =>
      entry.unread !== undefined ||
      (entry.config !== undefined && (entry.config.engine === 'postgres' || entry.config.engine === 'mysql')),
  );
  return {
    ...(network ? { reaches: 'network' as const } : {}),
    reachesFor(evalCase) {
      const target = sqlTarget(evalCase);
      if (target === undefined) return false;
      const picked = pick(evalCase);
      return 'unread' in picked || ('location' in picked && picked.location.engine !== 'sqlite');
    },
    async prepare(evalCase, signal) {
      if (sqlTarget(evalCase) === undefined) return evalCase;
      const picked = pick(evalCase);
      if ('error' in picked) throw new Error(picked.error);
      if ('unread' in picked)
        throw new Error('the database config names environment variables, which a run without trust does not read');
      const key = JSON.stringify(picked.location);
      let opened = engines.get(key);
      if (opened === undefined) {
        opened = options.open(picked.location, options.env).then(
          (engine) => ({
            engine,
            preparer: nl2sqlPreparer(engine, {
              timeoutMs: options.timeoutMs,
              ...(options.cleanUp === undefined ? {} : { cleanUp: options.cleanUp }),
            }),
          }),
          (e: unknown) => {
            // The engine's own words (pg, mysql2): a DSN, a conninfo's password=…, the password itself.
            throw new Error(
              `${maskSecretText(e instanceof Error ? e.message : String(e), passwordOf(picked.location, options.env))}${otherExtensionHint(picked.location)}`,
            );
          },
        );
        // A database that cannot be opened is said on every case of it, without trying again for each.
        opened.catch(() => undefined);
        engines.set(key, opened);
      }
      const { preparer } = await opened;
      try {
        return await preparer.prepare(evalCase, signal);
      } catch (e) {
        // Where an engine's error becomes a case's reason: masked before anything cuts it.
        if (e instanceof Error) e.message = maskSecretText(e.message, passwordOf(picked.location, options.env));
        throw e;
      }
    },
    async close() {
      const settled = await Promise.allSettled([...engines.values()]);
      engines.clear();
      const closed = await Promise.allSettled(
        settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value.engine.close()] : [])),
      );
      const failed = closed.find((c): c is PromiseRejectedResult => c.status === 'rejected');
      if (failed !== undefined) throw failed.reason;
    },
  };
}

/** The password a server database is opened with, to mask (already remembered when the engine read it). */
function passwordOf(location: DatabaseLocation, env: Readonly<Record<string, string | undefined>>): string[] {
  return location.engine === 'sqlite' || location.passwordEnv === undefined
    ? []
    : [readSecretEnv(env, location.passwordEnv) ?? ''];
}

/**
 * For an SQLite file that is not there when the same name with another usual extension is: EvalBench's
 * default extension is `.db`, and a config written for `.sqlite` files needs `extension: .sqlite`.
 */
function otherExtensionHint(location: DatabaseLocation): string {
  if (location.engine !== 'sqlite' || location.build !== undefined || existsSync(location.file)) return '';
  const ext = extname(location.file);
  const other = ['.db', '.sqlite', '.sqlite3'].find(
    (candidate) =>
      candidate !== ext && existsSync(`${location.file.slice(0, location.file.length - ext.length)}${candidate}`),
  );
  return other === undefined
    ? ''
    : ` (${basename(location.file, ext)}${other} is there: add \`extension: ${other}\` to the database config; EvalBench's default is .db)`;
}

export interface SqlTarget {
  readonly database?: string;
  readonly dialect?: string;
}

/** The database and dialect a case names, when it has golden SQL to run; undefined otherwise. */
export function sqlTarget(evalCase: EvalCase): SqlTarget | undefined {
  const expected = evalCase.expected;
  if (expected === null || typeof expected !== 'object' || Array.isArray(expected)) return undefined;
  const record = expected as { readonly [key: string]: Json };
  const golden = record['golden_sql'];
  const hasGolden =
    (typeof golden === 'string' && golden.trim() !== '') ||
    (Array.isArray(golden) && golden.some((g) => typeof g === 'string' && g.trim() !== ''));
  if (!hasGolden) return undefined;
  const database = record['database'];
  const dialect = record['dialect'];
  return { ...(typeof database === 'string' ? { database } : {}), ...(typeof dialect === 'string' ? { dialect } : {}) };
}

type Selection = { readonly location: DatabaseLocation } | { readonly error: string } | { readonly unread: true };

/**
 * The database a case runs on, or why it has none. With `setupDirectory`, an SQLite database is built
 * from `<setupDirectory>/<database>` (EvalBench's name after `db_name_overrides` / `db_name_mappings`,
 * before the suffix, as EvalBench names the folder); a database with no setup folder is an error.
 */
export function selectDatabase(
  entries: readonly DatabaseEntry[],
  target: SqlTarget | undefined,
  names: DatabaseNames = {},
  setupDirectory?: string,
): Selection {
  const dialect = target?.dialect;
  const serves = (entryDialect: string | undefined) =>
    dialect === undefined || entryDialect === undefined || entryDialect === dialect;
  const entry = entries.find((e) => serves(e.config?.dialect ?? e.unread?.dialect));
  if (entry === undefined) {
    const served = [...new Set(entries.flatMap((e) => (e.config === undefined ? [] : [e.config.dialect])))].join(', ');
    return {
      error: `no database config serves the ${dialect ?? ''} dialect of this case (the run's database configs serve ${served === '' ? 'none' : served})`,
    };
  }
  if (entry.unread !== undefined || entry.config === undefined) return { unread: true };
  const config = entry.config;
  if (config.engine === 'unsupported')
    return { error: `the database config ${config.file} cannot be run here: ${config.reason}` };
  const mapped = mappedName(target?.database, config.dialect, names);
  const database = databaseNameFor(config, mapped);
  if (database === '')
    return { error: `the case names no database and the database config ${config.file} has no database_name` };
  const location = locationOf(config, database);
  if (setupDirectory === undefined || location.engine !== 'sqlite') return { location };
  const folder = setupFolderOf(setupDirectory, mapped !== undefined && mapped !== '' ? mapped : config.name);
  const missing = missingSetup(folder, config.dbType);
  if (missing !== undefined) return { error: `the SQLite database ${basename(folder)} cannot be built: ${missing}` };
  return { location: { ...location, build: { folder, dbType: config.dbType } } };
}

/** EvalBench's `db_name_overrides[dialect][db]`, else `db_name_mappings[dialect]` with `{db_id}` replaced. */
function mappedName(database: string | undefined, dialect: string, names: DatabaseNames): string | undefined {
  if (database === undefined || database === '') return database;
  const override = names.overrides?.[dialect]?.[database];
  if (override !== undefined) return override;
  const pattern = names.mappings?.[dialect];
  return pattern === undefined ? database : pattern.replaceAll('{db_id}', database);
}
