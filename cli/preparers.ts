import type { RunConfig } from '../core/config/runConfig';
import type { Problem } from '../core/problem';
import type { CasePreparer } from '../core/runner/casePreparer';
import { chainPreparers } from '../core/runner/chainPreparers';
import { loadDatabaseConfig } from '../core/sql/databaseConfig';
import { nl2sqlPreparer } from '../core/sql/nl2sqlPreparer';
import { openEngine } from '../core/sql/openEngine';
import { targetPreparer } from '../core/target/targetPreparer';

/**
 * The work a run does on each case before scoring: the config's target first (it produces the
 * output), then the NL2SQL execution on its database. Problems come back for the CLI to print; a
 * database that cannot be reached is an Error whose message names where it was looked for.
 * `signal` is the run's: cancelling the run stops target calls in flight.
 */
export async function openPreparers(
  config: RunConfig,
  env: Readonly<Record<string, string | undefined>>,
  signal: AbortSignal,
): Promise<{ preparer?: CasePreparer; problems: Problem[] }> {
  const database = await openDatabase(config, env);
  const target = config.target === undefined ? [] : [targetPreparer(config.target, { env, signal })];
  const preparer = chainPreparers([...target, ...(database.preparer === undefined ? [] : [database.preparer])]);
  return { ...(preparer === undefined ? {} : { preparer }), problems: database.problems };
}

/**
 * The database a NL2SQL config runs its cases on: its first `database_configs` entry (EvalLens runs
 * one database per run; a second entry gets a notice).
 */
async function openDatabase(config: RunConfig, env: Readonly<Record<string, string | undefined>>): Promise<{ preparer?: CasePreparer; problems: Problem[] }> {
  const [first, ...others] = config.databases ?? [];
  if (first === undefined) return { problems: [] };
  const problems: Problem[] = others.map((ref) => ({
    code: 'database-not-run',
    severity: 'information',
    message: `EvalLens runs a config's cases on its first database config; ${ref.configFile} is not used in this run`,
    range: ref.range,
  }));
  const loaded = loadDatabaseConfig(first.configFile, env);
  problems.push(...loaded.problems);
  if (loaded.config === undefined) return { problems };
  const engine = await openEngine(loaded.config, env);
  return { preparer: nl2sqlPreparer(engine, { timeoutMs: config.timeoutMs }), problems };
}
