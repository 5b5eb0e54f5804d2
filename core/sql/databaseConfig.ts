import { readConfigFile } from '../config/readConfigFile';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { closestNames, didYouMean } from '../config/closest';
import { YamlSource } from '../config/yamlSource';
import { hasErrors, type Problem } from '../problem';
import type { PostgresSettings } from './postgresEngine';

/**
 * EvalBench database config files (`database_configs:` of a run config), read into what the engines
 * need. EvalBench's keys: `db_type` (or `dialect`), `database_name`, `database_path`,
 * `max_executions_per_minute`, `user_name`, `extension`, `location`; EvalLens adds `host`, `port` and
 * `password_env` for PostgreSQL. `${VAR}` expands from the environment, as in run configs.
 *
 * - SQLite: the database is the file `<database_path>/<database_name><extension>` (extension
 *   `.sqlite` by default, as EvalBench's judges name it; no extension is added when the name already
 *   ends with it). `database_path` is a directory, relative to the config file's folder.
 * - PostgreSQL: `host` (EvalBench's `database_path` names a Cloud SQL instance, which EvalLens does not
 *   connect to), `port` (default 5432), `database_name`, `user_name`.
 *
 * The password never comes from the file: `password:` is refused (an error on its key) and
 * `password_env: VAR` names the environment variable that holds it. EvalBench's
 * `secret_manager_path` is refused too.
 */
export type DatabaseConfig = SqliteDatabaseConfig | PostgresDatabaseConfig;

export interface SqliteDatabaseConfig {
  readonly dialect: 'sqlite';
  /** `database_name`: the name a dataset's cases use for this database. */
  readonly name: string;
  readonly file: string;
  readonly maxExecutionsPerMinute?: number;
}

export interface PostgresDatabaseConfig {
  readonly dialect: 'postgres';
  readonly name: string;
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly user: string;
  /** The environment variable that holds the password; none for trust or peer authentication. */
  readonly passwordEnv?: string;
  readonly maxExecutionsPerMinute?: number;
}

export interface ParsedDatabaseConfig {
  readonly config?: DatabaseConfig;
  readonly problems: readonly Problem[];
}

const KNOWN_KEYS = [
  'db_type',
  'dialect',
  'database_name',
  'database_path',
  'extension',
  'max_executions_per_minute',
  'user_name',
  'host',
  'port',
  'password_env',
  'location',
  'password',
  'secret_manager_path',
];

const DB_TYPES: Readonly<Record<string, 'sqlite' | 'postgres'>> = { sqlite: 'sqlite', sqlite3: 'sqlite', postgres: 'postgres', postgresql: 'postgres' };

/** Reads a database config from disk and parses it; an unreadable file is a problem, not a crash. */
export function loadDatabaseConfig(path: string, env: Readonly<Record<string, string | undefined>>): ParsedDatabaseConfig {
  const read = readConfigFile(path, 'database config');
  if ('problem' in read) return { problems: [read.problem] };
  return parseDatabaseConfig(read.text, read.file, env, { fileExists: existsSync });
}

export function parseDatabaseConfig(
  text: string,
  file: string,
  env: Readonly<Record<string, string | undefined>>,
  options: { readonly fileExists?: (path: string) => boolean } = {},
): ParsedDatabaseConfig {
  const source = new YamlSource(text, file);
  const syntax = source.syntaxProblems();
  if (hasErrors(syntax)) return { problems: syntax };
  const problems: Problem[] = [...syntax, ...source.expandEnvironment(env)];
  const asData = source.toData();
  if (hasErrors(asData.problems)) return { problems: [...problems, ...asData.problems] };
  const root = asData.value;
  const problem = (code: string, message: string, path: readonly string[], onKey = false, suggestions?: readonly string[]): void => {
    const range = onKey ? source.keyRange(path) : source.valueRange(path);
    problems.push(suggestions === undefined ? { code, severity: 'error', message, range } : { code, severity: 'error', message, range, suggestions });
  };
  if (root === null || root === undefined) {
    problem('empty-config', 'the database config is empty: expected a mapping with `db_type` and `database_name`', []);
    return { problems };
  }
  if (typeof root !== 'object' || Array.isArray(root)) {
    problem('schema', `a database config must be a mapping of keys (db_type, database_name, …), not ${Array.isArray(root) ? 'a list' : 'a single value'}`, []);
    return { problems };
  }
  const data = root as Record<string, unknown>;

  for (const key of Object.keys(data)) {
    if (KNOWN_KEYS.includes(key)) continue;
    const suggestions = closestNames(key, KNOWN_KEYS.filter((k) => k !== 'password' && k !== 'secret_manager_path'));
    problems.push({ code: 'unknown-key', severity: 'warning', message: `unknown database config key "${key}"${didYouMean(suggestions)}`, range: source.keyRange([key]), suggestions });
  }
  if ('password' in data) {
    problem('password-in-config', 'a password is never read from a database config (files end up in version control): put it in an environment variable and name that variable with `password_env: <VAR>`', ['password'], true, ['password_env']);
  }
  if ('secret_manager_path' in data) {
    problem('unsupported-key', 'secret_manager_path (Google Secret Manager) is not supported: put the password in an environment variable and name that variable with `password_env: <VAR>`', ['secret_manager_path'], true, ['password_env']);
  }

  const stringAt = (key: string): string | undefined => {
    const value = data[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    problem('schema', `\`${key}\` must be a non-empty string, not ${describe(value)}`, [key]);
    return undefined;
  };
  const positive = (key: string, max = Number.MAX_SAFE_INTEGER): number | undefined => {
    const value = data[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= max) return value;
    problem('schema', `\`${key}\` must be a whole number from 1 to ${max}, not ${describe(value)}`, [key]);
    return undefined;
  };
  const absent = (key: string): boolean => data[key] === undefined || data[key] === null;
  const required = (key: string, why: string): void => problem('missing-required', `\`${key}\` is missing: ${why}`, [], false, [key]);

  const typeKey = data['db_type'] !== undefined ? 'db_type' : 'dialect';
  const typeName = stringAt(typeKey);
  const dialect = typeName === undefined ? undefined : DB_TYPES[typeName.toLowerCase()];
  if (absent(typeKey)) required('db_type', 'expected `sqlite` or `postgres`');
  else if (typeName !== undefined && dialect === undefined) problem('unsupported-database', `${typeKey} "${typeName}" is not supported: EvalLens runs SQL on \`sqlite\` and \`postgres\``, [typeKey]);
  const declared = typeKey === 'db_type' ? stringAt('dialect') : undefined;
  if (dialect !== undefined && declared !== undefined && DB_TYPES[declared.toLowerCase()] !== dialect) {
    problems.push({ code: 'conflicting-options', severity: 'warning', message: `dialect "${declared}" does not match db_type "${typeName}"; the database is run as ${dialect}`, range: source.valueRange(['dialect']) });
  }
  const name = stringAt('database_name');
  if (absent('database_name')) required('database_name', 'the name of the database the cases run on');
  const rate = positive('max_executions_per_minute');
  const limits = rate === undefined ? {} : { maxExecutionsPerMinute: rate };
  const dir = dirname(file);

  if (dialect === 'sqlite') {
    const folder = stringAt('database_path');
    if (absent('database_path')) required('database_path', 'the directory that holds `<database_name>.sqlite`, relative to this file');
    const rawExtension = stringAt('extension') ?? '.sqlite';
    const extension = rawExtension.startsWith('.') ? rawExtension : `.${rawExtension}`;
    if (folder === undefined || name === undefined || hasErrors(problems)) return { problems };
    const sqliteFile = resolve(dir, folder, name.endsWith(extension) ? name : `${name}${extension}`);
    if (options.fileExists !== undefined && !options.fileExists(sqliteFile)) {
      problems.push({ code: 'missing-file', severity: 'error', message: `the SQLite database ${sqliteFile} does not exist (database_path + database_name + extension)`, range: source.valueRange(['database_path']) });
      return { problems };
    }
    return { config: { dialect, name, file: sqliteFile, ...limits }, problems };
  }

  if (dialect === 'postgres') {
    const host = stringAt('host');
    if (absent('host')) {
      required('host', `the PostgreSQL server's host name or address${data['database_path'] !== undefined ? ' (EvalBench\'s database_path names a Cloud SQL instance, which EvalLens does not connect to)' : ''}`);
    }
    const port = positive('port', 65535) ?? 5432;
    const user = stringAt('user_name');
    if (absent('user_name')) required('user_name', 'the role to connect as');
    const passwordEnv = stringAt('password_env');
    if (passwordEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(passwordEnv)) {
      problem('schema', `\`password_env\` names an environment variable (letters, digits, _), not "${passwordEnv}"`, ['password_env']);
    }
    if (host === undefined || user === undefined || name === undefined || hasErrors(problems)) return { problems };
    const base = { dialect, name, host, port, database: name, user, ...limits };
    return { config: passwordEnv === undefined ? base : { ...base, passwordEnv }, problems };
  }
  return { problems };
}

/** The connection settings of a PostgreSQL config, with the password read from its environment variable. */
export function postgresSettingsOf(config: PostgresDatabaseConfig, env: Readonly<Record<string, string | undefined>>): PostgresSettings {
  const base = { host: config.host, port: config.port, database: config.database, user: config.user };
  if (config.passwordEnv === undefined) return base;
  const password = env[config.passwordEnv];
  if (password === undefined) throw new Error(`the environment variable ${config.passwordEnv} (password_env of database ${config.name}) is not set`);
  return { ...base, password };
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object' && value !== null) return 'a mapping';
  if (typeof value === 'string') return 'an empty string';
  return `${typeof value} ${JSON.stringify(value)}`;
}
