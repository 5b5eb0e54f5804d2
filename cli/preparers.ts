import { readFileSync } from 'node:fs';
import type { DatabaseConfigRef, RunConfig } from '../core/config/runConfig';
import type { Problem } from '../core/problem';
import type { CasePreparer } from '../core/runner/casePreparer';
import { chainPreparers } from '../core/runner/chainPreparers';
import { loadDatabaseConfig } from '../core/sql/databaseConfig';
import { databasePreparer, type DatabaseEntry } from '../core/sql/databasePreparer';
import { openEngine } from '../core/sql/openEngine';
import { sqlJsAssets } from '../core/sql/sqliteWorker';
import { targetPreparer } from '../core/target/targetPreparer';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The work a run does on each case before scoring: the config's target first (it produces the
 * output), then the NL2SQL execution on the database each case names. Problems come back for the CLI
 * to print. No database is opened here: each opens on the first case that needs it, and one that
 * cannot be opened is an `error` on its cases. `signal` is the run's: cancelling the run stops
 * target calls in flight. `trusted: false` reads no environment variable a database config names.
 */
export async function openPreparers(config: RunConfig, env: Env, signal: AbortSignal, options: { readonly trusted?: boolean } = {}): Promise<{ preparer?: CasePreparer; problems: Problem[] }> {
  const database = databasesOf(config, env, options.trusted ?? true);
  // SQLite's WebAssembly is compiled before the run rather than inside its first cases, where it
  // would compete with their scorers' time limits.
  if (database.sqlite) await sqlJsAssets().catch(() => undefined);
  const target = config.target === undefined ? [] : [targetPreparer(config.target, { env, signal })];
  const preparer = chainPreparers([...target, ...(database.preparer === undefined ? [] : [database.preparer])]);
  return { ...(preparer === undefined ? {} : { preparer }), problems: database.problems };
}

/**
 * The problems of a config's database configs, as `evallens validate` shows them: each is read and
 * checked, nothing is connected to.
 */
export function checkDatabaseConfigs(config: RunConfig, env: Env): Problem[] {
  return loadEntries(config, env, true).problems;
}

function databasesOf(config: RunConfig, env: Env, trusted: boolean): { preparer?: CasePreparer; problems: Problem[]; sqlite?: boolean } {
  const { entries, problems } = loadEntries(config, env, trusted);
  if (entries.length === 0) return { problems };
  const names = config.databaseNames;
  const preparer = databasePreparer(entries, { timeoutMs: config.timeoutMs, env, open: (location, vars) => openEngine(location, vars), ...(names === undefined ? {} : { names }), ...(config.sqlCleanUp === undefined ? {} : { cleanUp: config.sqlCleanUp }) });
  return { preparer, problems, sqlite: entries.some((entry) => entry.config?.engine === 'sqlite') };
}

/**
 * Every `database_configs` entry, read. Without trust a config is read with no environment: one that
 * names a variable is left unread (its cases are skipped as untrusted) rather than read from `env`.
 * A config EvalLens cannot run gets, besides its own warning, a notice on the run config's entry.
 */
function loadEntries(config: RunConfig, env: Env, trusted: boolean): { entries: DatabaseEntry[]; problems: Problem[] } {
  const entries: DatabaseEntry[] = [];
  const problems: Problem[] = [];
  // The run config's entry of each of `entries`, in the same order.
  const refs: DatabaseConfigRef[] = [];
  for (const ref of config.databases ?? []) {
    const loaded = loadDatabaseConfig(ref.configFile, trusted ? env : {});
    const unresolved = loaded.problems.filter((p) => p.code === 'unresolved-variable');
    if (!trusted && unresolved.length > 0) {
      const dialect = declaredDialect(ref.configFile);
      entries.push({ unread: dialect === undefined ? {} : { dialect } });
      refs.push(ref);
      problems.push({ code: 'database-not-read', severity: 'information', message: `the database config ${ref.configFile} names environment variables, which a run without trust does not read: its cases are skipped`, range: ref.range });
      continue;
    }
    problems.push(...loaded.problems);
    if (loaded.config === undefined) continue;
    entries.push({ config: loaded.config });
    refs.push(ref);
    if (loaded.config.engine === 'unsupported') {
      problems.push({ code: 'database-not-supported', severity: 'warning', message: `${loaded.config.reason}; the cases on this database (${loaded.config.dialect}) are errors in a run`, range: ref.range });
    }
  }
  const dialects = new Map<string, string>();
  for (const [i, entry] of entries.entries()) {
    const dialect = entry.config?.dialect;
    const ref = refs[i];
    if (dialect === undefined || ref === undefined) continue;
    const first = dialects.get(dialect);
    if (first === undefined) dialects.set(dialect, ref.configFile);
    else problems.push({ code: 'database-not-run', severity: 'information', message: `EvalLens runs the ${dialect} cases on the first database config of that dialect (${first}); ${ref.configFile} is not used in this run`, range: ref.range });
  }
  return { entries, problems };
}

/** The dialect a config declares in plain text (`dialect:`, else `db_type:`), read without expanding anything; undefined when it has none. */
function declaredDialect(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').slice(0, 65_536);
  } catch {
    return undefined;
  }
  const value = (key: string) => new RegExp(`^${key}[ \\t]*:[ \\t]*([A-Za-z_]+)[ \\t]*(?:#.*)?$`, 'm').exec(text)?.[1];
  return value('dialect') ?? value('db_type');
}
