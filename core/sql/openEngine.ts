import { basename } from 'node:path';
import { serverSettingsOf, type DatabaseLocation } from './databaseConfig';
import type { PostgresOptions } from './postgresEngine';
import type { SqlEngine } from './sqlResult';
import { setupSteps } from './setupFolder';
import { openSqlite } from './sqliteEngine';

/**
 * The engine for one database: its SQLite file (or, with a setup folder, an SQLite database built in
 * memory from it, as EvalBench builds it before a run; no file is read or written), or its PostgreSQL (AlloyDB) or MySQL server, with
 * the password read from `env` now, when it is opened.
 */
export async function openEngine(
  location: DatabaseLocation,
  env: Readonly<Record<string, string | undefined>>,
  options: PostgresOptions = {},
): Promise<SqlEngine> {
  if (location.engine === 'sqlite') {
    const build = location.build;
    if (build === undefined) return openSqlite({ file: location.file });
    return openSqlite({ setup: setupSteps(build.folder, build.dbType) }).catch((e: unknown) => {
      throw new Error(
        `cannot build the SQLite database ${basename(build.folder)} from its setup folder ${build.folder} (EvalBench stops a setup at the first failing statement and skips the database's cases): ${e instanceof Error ? e.message : String(e)}`,
      );
    });
  }
  const settings = serverSettingsOf(location, env);
  // A superuser is refused unless the database config says `allow_superuser: true` (postgresNoCommit.ts, mysqlNoCommit.ts).
  const rights = { ...options, allowSuperuser: location.allowSuperuser === true };
  // Each driver is loaded on first use: loaded with the CLI, it cost every command (even `--version`)
  // its start-up time and memory.
  if (location.engine === 'postgres') {
    const { openPostgres } = await import('./postgresEngine');
    return openPostgres(settings, rights);
  }
  const { openMysql } = await import('./mysqlEngine');
  return openMysql(settings, rights);
}
