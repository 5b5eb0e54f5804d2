import { postgresSettingsOf, type DatabaseConfig } from './databaseConfig';
import { openPostgres, type PostgresOptions } from './postgresEngine';
import type { SqlEngine } from './sqlResult';
import { openSqlite } from './sqliteEngine';

/** The engine a database config describes: its SQLite file, or its PostgreSQL server (password from `env`). */
export function openEngine(config: DatabaseConfig, env: Readonly<Record<string, string | undefined>>, options: PostgresOptions = {}): Promise<SqlEngine> {
  if (config.dialect === 'sqlite') return openSqlite({ file: config.file });
  return openPostgres(postgresSettingsOf(config, env), options);
}
