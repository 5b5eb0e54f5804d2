import { serverSettingsOf, type DatabaseLocation } from './databaseConfig';
import { openMysql } from './mysqlEngine';
import { openPostgres, type PostgresOptions } from './postgresEngine';
import type { SqlEngine } from './sqlResult';
import { openSqlite } from './sqliteEngine';

/**
 * The engine for one database: its SQLite file, or its PostgreSQL (AlloyDB) or MySQL server, with
 * the password read from `env` now, when it is opened.
 */
export function openEngine(location: DatabaseLocation, env: Readonly<Record<string, string | undefined>>, options: PostgresOptions = {}): Promise<SqlEngine> {
  if (location.engine === 'sqlite') return openSqlite({ file: location.file });
  const settings = serverSettingsOf(location, env);
  return location.engine === 'mysql' ? openMysql(settings, options) : openPostgres(settings, options);
}
