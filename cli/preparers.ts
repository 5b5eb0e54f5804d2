import { basename } from 'node:path';
import type { DatabaseConfigRef, RunConfig } from '../core/config/runConfig';
import type { Problem } from '../core/problem';
import type { CasePreparer } from '../core/runner/casePreparer';
import { loadDatabaseConfig } from '../core/sql/databaseConfig';
import { databasePreparer, selectDatabase, type DatabaseEntry, type SqlTarget } from '../core/sql/databasePreparer';
import type { TargetOutputStore } from '../core/cache/targetCache';
import { secretSet } from '../shared/text/secretMask';
import { readBoundedTextSync } from '../core/text/boundedRead';
import { isUntrustedEnv, untrustedEnv } from '../core/config/untrustedEnv';

type Env = Readonly<Record<string, string | undefined>>;

/** Where a run keeps its target's answers, and the version that keys them. */
export interface TargetCache {
  readonly store: TargetOutputStore;
  readonly version: string;
}

/**
 * The work a run does on each case before scoring: the config's target first (it produces the
 * output), then the NL2SQL execution on the database each case names. Problems come back for the CLI
 * to print. No database is opened here: each opens on the first case that needs it, and one that
 * cannot be opened is an `error` on its cases. `signal` is the run's: cancelling the run stops
 * target calls in flight. `trusted: false` reads no environment variable a database config names.
 */
export async function openPreparers(
  config: RunConfig,
  given: Env,
  signal: AbortSignal,
  options: { readonly trusted?: boolean; readonly targetCache?: TargetCache } = {},
): Promise<{ preparer?: CasePreparer; problems: Problem[] }> {
  // What only a run uses (SQL engines, targets, the target cache) is loaded here, not with `validate`.
  const [{ sqlJsAssets }, { targetPreparer }, { cachingTarget }, { chainPreparers }] = await Promise.all([
    import('../core/sql/sqliteWorker'),
    import('../core/target/targetPreparer'),
    import('../core/cache/targetCache'),
    import('../core/runner/chainPreparers'),
  ]);
  // Without trust nothing below may read the environment, whatever `given` is.
  const trusted = (options.trusted ?? true) && !isUntrustedEnv(given);
  const env = trusted ? given : isUntrustedEnv(given) ? given : untrustedEnv();
  const database = databasesOf(config, env, trusted);
  // SQLite's WebAssembly is compiled before the run rather than inside its first cases, where it
  // would compete with their scorers' time limits.
  if (database.sqlite) await sqlJsAssets().catch(() => undefined);
  const made = config.target === undefined ? undefined : targetPreparer(config.target, { env, signal });
  // The result cache keeps the target's answers (core/cache/targetCache.ts); never in an untrusted run.
  const cache = trusted ? options.targetCache : undefined;
  const target =
    made === undefined || config.target === undefined
      ? []
      : [
          cache === undefined
            ? made
            : cachingTarget(made, config.target, cache.store, cache.version, secretSet(config.secretValues ?? [])),
        ];
  const preparer = chainPreparers([...target, ...(database.preparer === undefined ? [] : [database.preparer])]);
  return { ...(preparer === undefined ? {} : { preparer }), problems: database.problems };
}

/**
 * The problems of a config's database configs, as `evallens validate` shows them: each is read and
 * checked, nothing is connected to.
 */
export function checkDatabaseConfigs(config: RunConfig, env: Env): Problem[] {
  return loadEntries(config, env, !isUntrustedEnv(env)).problems;
}

/**
 * What a run of `config` reaches through its database configs, read without the environment:
 * `network` when one is a server database (PostgreSQL, MySQL…) or names variables (so it may be one).
 * SQLite files are local and reach nothing. Nothing is connected to.
 */
export function databaseReaches(config: RunConfig): 'network'[] {
  const { entries } = loadEntries(config, untrustedEnv(), false);
  return entries.some(
    (e) =>
      e.unread !== undefined ||
      (e.config !== undefined && e.config.engine !== 'sqlite' && e.config.engine !== 'unsupported'),
  )
    ? ['network']
    : [];
}

/**
 * With `setup_directory`, what a run does with it, said at validate time for the databases the cases
 * name (`targets`): each SQLite database is built in memory from its setup folder (information), a
 * database whose folder is missing makes its cases errors (warning), and a server database's setup
 * is left to the user (information).
 */
export function checkSetupFolders(config: RunConfig, env: Env, targets: readonly SqlTarget[]): Problem[] {
  const setupDirectory = config.setupDirectory;
  if (setupDirectory === undefined) return [];
  const { entries, refs } = loadEntriesWithRefs(config, env, !isUntrustedEnv(env));
  const problems: Problem[] = [];
  const built = new Map<string, { folder: string; range: DatabaseConfigRef['range'] }>();
  const missing = new Map<string, { message: string; range: DatabaseConfigRef['range'] }>();
  const servers = new Set<number>();
  for (const target of targets) {
    const picked = selectDatabase(entries, target, config.databaseNames ?? {}, setupDirectory);
    const index = entries.findIndex(
      (e) => e.config !== undefined && (target.dialect === undefined || e.config.dialect === target.dialect),
    );
    const ref = refs[index < 0 ? 0 : index];
    if (ref === undefined) continue;
    if ('location' in picked && picked.location.engine === 'sqlite' && picked.location.build !== undefined)
      built.set(picked.location.build.folder, { folder: picked.location.build.folder, range: ref.range });
    else if ('location' in picked && picked.location.engine !== 'sqlite') servers.add(index);
    else if ('error' in picked && picked.error.includes('cannot be built'))
      missing.set(picked.error, { message: picked.error, range: ref.range });
  }
  for (const { folder, range } of built.values()) {
    problems.push({
      code: 'database-built',
      severity: 'information',
      message: `the SQLite database ${basename(folder)} is built for the run, in memory, from ${folder} as EvalBench builds it (pre_setup.sql, setup.sql, data/*.csv, post_setup.sql); no database file is read or written`,
      range,
    });
  }
  for (const { message, range } of missing.values())
    problems.push({
      code: 'database-setup-missing',
      severity: 'warning',
      message: `${message}; its cases are errors in a run`,
      range,
    });
  for (const index of servers) {
    const ref = refs[index];
    const config = entries[index]?.config;
    if (ref === undefined || config === undefined) continue;
    problems.push({
      code: 'evalbench-key-not-run',
      severity: 'information',
      message: `EvalLens runs EvalBench's setup scripts (setup_directory) only for SQLite databases: the ${config.dialect} databases of ${ref.configFile} are yours; build them before the run — cases run on them as they are`,
      range: ref.range,
    });
  }
  return problems;
}

function databasesOf(
  config: RunConfig,
  env: Env,
  trusted: boolean,
): { preparer?: CasePreparer; problems: Problem[]; sqlite?: boolean } {
  const { entries, problems } = loadEntries(config, env, trusted);
  if (entries.length === 0) return { problems };
  const names = config.databaseNames;
  const setup = config.setupDirectory === undefined ? {} : { setupDirectory: config.setupDirectory };
  const cleanUp = config.sqlCleanUp === undefined ? {} : { cleanUp: config.sqlCleanUp };
  const preparer = databasePreparer(entries, {
    timeoutMs: config.timeoutMs,
    env,
    open: async (location, vars) => (await import('../core/sql/openEngine')).openEngine(location, vars),
    ...(names === undefined ? {} : { names }),
    ...setup,
    ...cleanUp,
  });
  return { preparer, problems, sqlite: entries.some((entry) => entry.config?.engine === 'sqlite') };
}

/**
 * Every `database_configs` entry, read. Without trust a config is read with no environment: one that
 * names a variable is left unread (its cases are skipped as untrusted) rather than read from `env`.
 * A config EvalLens cannot run gets, besides its own warning, a notice on the run config's entry.
 */
function loadEntries(config: RunConfig, env: Env, trusted: boolean): { entries: DatabaseEntry[]; problems: Problem[] } {
  const { entries, problems } = loadEntriesWithRefs(config, env, trusted);
  return { entries, problems };
}

function loadEntriesWithRefs(
  config: RunConfig,
  env: Env,
  trusted: boolean,
): { entries: DatabaseEntry[]; refs: DatabaseConfigRef[]; problems: Problem[] } {
  const entries: DatabaseEntry[] = [];
  const problems: Problem[] = [];
  // The run config's entry of each of `entries`, in the same order.
  const refs: DatabaseConfigRef[] = [];
  for (const ref of config.databases ?? []) {
    const loaded = loadDatabaseConfig(ref.configFile, trusted ? env : isUntrustedEnv(env) ? env : untrustedEnv());
    const unresolved = loaded.problems.filter((p) => p.code === 'unresolved-variable');
    if (!trusted && unresolved.length > 0) {
      const dialect = declaredDialect(ref.configFile);
      entries.push({ unread: dialect === undefined ? {} : { dialect } });
      refs.push(ref);
      problems.push({
        code: 'database-not-read',
        severity: 'information',
        message: `the database config ${ref.configFile} names environment variables, which a run without trust does not read: its cases are skipped`,
        range: ref.range,
      });
      continue;
    }
    // With a setup folder an SQLite database is built in memory, so its database_path folder need not exist (EvalBench creates it).
    const built = config.setupDirectory !== undefined && loaded.config?.engine === 'sqlite';
    problems.push(
      ...(built
        ? loaded.problems.filter((p) => !(p.code === 'missing-file' && p.message.includes('(database_path)')))
        : loaded.problems),
    );
    if (loaded.config === undefined) continue;
    entries.push({ config: loaded.config });
    refs.push(ref);
    if (loaded.config.engine === 'unsupported') {
      problems.push({
        code: 'database-not-supported',
        severity: 'warning',
        message: `${loaded.config.reason}; the cases on this database (${loaded.config.dialect}) are errors in a run`,
        range: ref.range,
      });
    }
  }
  const dialects = new Map<string, string>();
  for (const [i, entry] of entries.entries()) {
    const dialect = entry.config?.dialect;
    const ref = refs[i];
    if (dialect === undefined || ref === undefined) continue;
    const first = dialects.get(dialect);
    if (first === undefined) dialects.set(dialect, ref.configFile);
    else
      problems.push({
        code: 'database-not-run',
        severity: 'information',
        message: `EvalLens runs the ${dialect} cases on the first database config of that dialect (${first}); ${ref.configFile} is not used in this run`,
        range: ref.range,
      });
  }
  return { entries, refs, problems };
}

/** The dialect a config declares in plain text (`dialect:`, else `db_type:`), read without expanding anything; undefined when it has none. */
function declaredDialect(file: string): string | undefined {
  const read = readBoundedTextSync(file, 'config');
  if (!read.ok) return undefined;
  const text = read.text.slice(0, 65_536);
  const value = (key: string) => new RegExp(`^${key}[ \\t]*:[ \\t]*([A-Za-z_]+)[ \\t]*(?:#.*)?$`, 'm').exec(text)?.[1];
  return value('dialect') ?? value('db_type');
}
