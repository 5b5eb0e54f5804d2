import type { RunConfig } from '../core/config/runConfig';
import type { Problem } from '../core/problem';
import type { CasePreparer } from '../core/runner/casePreparer';
import { loadDatabaseConfig } from '../core/sql/databaseConfig';
import { nl2sqlPreparer } from '../core/sql/nl2sqlPreparer';
import { openEngine } from '../core/sql/openEngine';

/**
 * The database a NL2SQL config runs its cases on: its first `database_configs` entry (EvalLens runs
 * one database per run; a second entry gets a notice). Problems come back for the CLI to print;
 * a database that cannot be reached is an Error whose message names where it was looked for.
 */
export async function openDatabase(config: RunConfig, env: Readonly<Record<string, string | undefined>>): Promise<{ preparer?: CasePreparer; problems: Problem[] }> {
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
