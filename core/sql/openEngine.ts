import { serverSettingsOf, type DatabaseLocation } from './databaseConfig';
import { openPostgres, type PostgresOptions } from './postgresEngine';
import type { SqlEngine } from './sqlResult';
import { openSqlite } from './sqliteEngine';

/**
 * The engine for one database: its SQLite file, or its PostgreSQL (AlloyDB) or MySQL server, with
 * the password read from `env` now, when it is opened.
 */
export async function openEngine(location: DatabaseLocation, env: Readonly<Record<string, string | undefined>>, options: PostgresOptions = {}): Promise<SqlEngine> {
  if (location.engine === 'sqlite') return openSqlite({ file: location.file });
  const settings = serverSettingsOf(location, env);
  if (location.engine === 'postgres') return openPostgres(settings, options);
  // Loaded on first use: the MySQL driver costs every other run its start-up time and memory.
  const { openMysql } = await import('./mysqlEngine');
  return openMysql(settings, options);
}
