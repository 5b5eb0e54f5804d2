import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { isScalar } from 'yaml';
import { readConfigFile } from '../config/readConfigFile';
import { closestNames, didYouMean } from '../config/closest';
import { maskProblems, readSecretEnv } from '../../shared/text/secretMask';
import { YamlSource } from '../config/yamlSource';
import { hasErrors, type Problem } from '../problem';

/**
 * EvalBench database config files (`database_configs:` of a run config), read as EvalBench reads
 * them. A config is a template: EvalBench connects, for each dataset item, to the database the item
 * names (`database`, BIRD's `db_id`) plus `db_name_suffix`, and to `database_name` only when the item
 * names none (see `databaseNameFor`). The config's `dialect` (default: its `db_type`) says which
 * items it serves.
 *
 * - SQLite (`sqlite`): the file `<database_path>/<database><suffix><extension>`; `extension` defaults
 *   to `.db` as in EvalBench and is not added twice. EvalBench resolves `database_path` from the
 *   folder it runs in (its repository root); EvalLens resolves it as it resolves the paths of an
 *   EvalBench run config: from the database config's folder, else from the nearest folder above it
 *   that has it.
 * - PostgreSQL protocol (`postgres`, `alloydb`, `alloydb_omni`): `host` and `port`, or EvalBench's
 *   `database_path` when it is `host[:port]` (a path with two colons names a Cloud SQL instance,
 *   reached through Google's connector, which EvalLens does not use); AlloyDB Omni defaults to
 *   localhost:5432 as in EvalBench. `user_name`.
 * - MySQL (`mysql`): as PostgreSQL, default port 3306.
 * - Everything else EvalBench connects to (BigQuery, Spanner, SQL Server, MongoDB, Bigtable), and a
 *   server EvalLens cannot reach (Cloud SQL, an AlloyDB instance path without `host`, a password in
 *   Secret Manager): an `unsupported` config, with a warning that says why; its cases are `error`
 *   at run time with that reason.
 *
 * The password never sits in the file: `password: !ENV ${VAR}` (EvalBench's pattern) or
 * `password_env: VAR` names the environment variable that holds it, read only when the database is
 * opened (never at load, never in a run without trust); a literal `password:` is refused.
 */
export type DatabaseConfig = SqliteDatabaseConfig | ServerDatabaseConfig | UnsupportedDatabaseConfig;

interface DatabaseConfigBase {
  /** The database config file. */
  readonly file: string;
  /** `db_type` as written, lowercased (`sqlite`, `alloydb_omni`, `bigquery`, …). */
  readonly dbType: string;
  /** `dialect` (default: `db_type`): the dialect of the items this config serves. */
  readonly dialect: string;
  /** `database_name`: the database of items that name none. */
  readonly name: string;
  /** `db_name_suffix`: appended to an item's database name. */
  readonly nameSuffix: string;
  readonly maxExecutionsPerMinute?: number;
}

export interface SqliteDatabaseConfig extends DatabaseConfigBase {
  readonly engine: 'sqlite';
  /** `database_path`, absolute. */
  readonly folder: string;
  /** `extension`, with its dot. */
  readonly extension: string;
}

export interface ServerDatabaseConfig extends DatabaseConfigBase {
  readonly engine: 'postgres' | 'mysql';
  readonly host: string;
  readonly port: number;
  readonly user: string;
  /** The environment variable that holds the password; none for trust or peer authentication. */
  readonly passwordEnv?: string;
  /** `allow_superuser: true`: run SQL under test even when the user has superuser (PostgreSQL) or SUPER/FILE (MySQL) rights. */
  readonly allowSuperuser?: boolean;
}

export interface UnsupportedDatabaseConfig extends DatabaseConfigBase {
  readonly engine: 'unsupported';
  /** Why EvalLens does not run SQL on it, for the warning and for each case's error. */
  readonly reason: string;
}

/** Connection settings of a server database (PostgreSQL or MySQL). */
export interface ServerSettings {
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly user: string;
  readonly password?: string;
}

/** Where one database of a config is: an SQLite file, or a database on a server. */
export type DatabaseLocation =
  | {
      readonly engine: 'sqlite';
      readonly file: string;
      /** Set when the run config has `setup_directory`: the database is built in memory from `folder` (`<setup_directory>/<database>`) for `dbType`, and `file` is not read. */
      readonly build?: { readonly folder: string; readonly dbType: string };
    }
  | {
      readonly engine: 'postgres' | 'mysql';
      readonly host: string;
      readonly port: number;
      readonly database: string;
      readonly user: string;
      readonly passwordEnv?: string;
      readonly allowSuperuser?: boolean;
    };

export interface ParsedDatabaseConfig {
  readonly config?: DatabaseConfig;
  readonly problems: readonly Problem[];
}

/** Keys EvalLens reads. */
const READ_KEYS = [
  'db_type',
  'dialect',
  'database_name',
  'database_path',
  'extension',
  'db_name_suffix',
  'max_executions_per_minute',
  'user_name',
  'host',
  'port',
  'password',
  'password_env',
  'allow_superuser',
];
/** Keys of EvalBench's database configs that do not change where SQL runs here: accepted as they are. */
const IGNORED_KEYS = [
  'location',
  'nl_config',
  'gcp_project_id',
  'gcp_region',
  'use_cloud_sql',
  'is_tmp_db',
  'connection_string',
  'secret_manager_path',
];
const KNOWN_KEYS = [...READ_KEYS, ...IGNORED_KEYS];

/** EvalBench's `db_type`s (databases/__init__.py) and the engine that runs each here. */
const ENGINES: Readonly<Record<string, 'sqlite' | 'postgres' | 'mysql' | 'unsupported'>> = {
  sqlite: 'sqlite',
  postgres: 'postgres',
  alloydb: 'postgres',
  alloydb_omni: 'postgres',
  mysql: 'mysql',
  bigquery: 'unsupported',
  spanner: 'unsupported',
  sqlserver: 'unsupported',
  mongodb: 'unsupported',
  bigtable: 'unsupported',
};
/** Spellings EvalLens has accepted before, kept. */
const ALIASES: Readonly<Record<string, string>> = { sqlite3: 'sqlite', postgresql: 'postgres' };
const PRODUCT: Readonly<Record<string, string>> = {
  bigquery: 'BigQuery',
  spanner: 'Spanner',
  sqlserver: 'SQL Server',
  mongodb: 'MongoDB',
  bigtable: 'Bigtable',
};
const DEFAULT_PORTS = { postgres: 5432, mysql: 3306 } as const;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** `${NAME}`, all of a value: a password that comes from the environment. */
const WHOLE_PLACEHOLDER = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** Reads a database config from disk and parses it; an unreadable file is a problem, not a crash. */
export function loadDatabaseConfig(
  path: string,
  env: Readonly<Record<string, string | undefined>>,
): ParsedDatabaseConfig {
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
  const parsed = parseDatabaseSource(source, file, env, options);
  // No diagnostic quotes a value `${VAR}` brought in (a host, a user, a password).
  return { ...parsed, problems: maskProblems([...parsed.problems], source.expandedValues) };
}

function parseDatabaseSource(
  source: YamlSource,
  file: string,
  env: Readonly<Record<string, string | undefined>>,
  options: { readonly fileExists?: (path: string) => boolean },
): ParsedDatabaseConfig {
  const syntax = source.syntaxProblems();
  if (hasErrors(syntax)) return { problems: syntax };
  // The password is read before `${VAR}` expansion, so that its variable is only named here, never read.
  const password = passwordSource(source);
  const problems: Problem[] = [...syntax, ...withoutIgnoredVariables(source, source.expandEnvironment(env))];
  const asData = source.toData();
  if (hasErrors(asData.problems)) return { problems: [...problems, ...asData.problems] };
  const root = asData.value;
  const problem = (
    code: string,
    message: string,
    path: readonly string[],
    onKey = false,
    suggestions?: readonly string[],
  ): void => {
    const range = onKey ? source.keyRange(path) : source.valueRange(path);
    problems.push(
      suggestions === undefined
        ? { code, severity: 'error', message, range }
        : { code, severity: 'error', message, range, suggestions },
    );
  };
  const warn = (code: string, message: string, path: readonly string[]): void => {
    problems.push({ code, severity: 'warning', message, range: source.valueRange(path) });
  };
  if (root === null || root === undefined) {
    problem('empty-config', 'the database config is empty: expected a mapping with `db_type` and `database_name`', []);
    return { problems };
  }
  if (typeof root !== 'object' || Array.isArray(root)) {
    problem(
      'schema',
      `a database config must be a mapping of keys (db_type, database_name, …), not ${Array.isArray(root) ? 'a list' : 'a single value'}`,
      [],
    );
    return { problems };
  }
  const data = root as Record<string, unknown>;

  for (const key of Object.keys(data)) {
    if (KNOWN_KEYS.includes(key)) continue;
    const suggestions = closestNames(
      key,
      READ_KEYS.filter((k) => k !== 'password'),
    );
    problems.push({
      code: 'unknown-key',
      severity: 'warning',
      message: `unknown database config key "${key}"${didYouMean(suggestions)}`,
      range: source.keyRange([key]),
      suggestions,
    });
  }
  if (password.kind === 'literal') {
    problem(
      'password-in-config',
      'a password is never read from a database config (files end up in version control): put it in an environment variable and name it here with `password: !ENV ${VAR}` (as EvalBench does) or `password_env: VAR`',
      ['password'],
      true,
      ['password_env'],
    );
  }

  const stringAt = (key: string): string | undefined => {
    const value = data[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    if (typeof value === 'string') return undefined;
    problem('schema', `\`${key}\` must be a string, not ${describe(value)}`, [key]);
    return undefined;
  };
  const positive = (key: string, max = Number.MAX_SAFE_INTEGER): number | undefined => {
    const value = data[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= max) return value;
    if (typeof value === 'string' && /^\d+$/.test(value) && Number(value) > 0 && Number(value) <= max)
      return Number(value);
    problem('schema', `\`${key}\` must be a whole number from 1 to ${max}, not ${describe(value)}`, [key]);
    return undefined;
  };
  const required = (key: string, why: string): void =>
    problem('missing-required', `\`${key}\` is missing: ${why}`, [], false, [key]);

  const typeKey = data['db_type'] !== undefined ? 'db_type' : 'dialect';
  const typeName = stringAt(typeKey)?.toLowerCase();
  const dbType = typeName === undefined ? undefined : (ALIASES[typeName] ?? typeName);
  const engine = dbType === undefined ? undefined : ENGINES[dbType];
  if (typeName === undefined) required('db_type', `expected one of ${Object.keys(ENGINES).join(', ')}`);
  else if (engine === undefined)
    problem(
      'unsupported-database',
      `${typeKey} "${typeName}" is not a database EvalBench knows: expected one of ${Object.keys(ENGINES).join(', ')}`,
      [typeKey],
    );
  const dialect = stringAt('dialect') ?? dbType ?? '';
  const name = stringAt('database_name') ?? '';
  const nameSuffix = typeof data['db_name_suffix'] === 'string' ? data['db_name_suffix'] : '';
  const rate = positive('max_executions_per_minute');
  const limits = rate === undefined ? {} : { maxExecutionsPerMinute: rate };
  if (dbType === undefined || engine === undefined) return { problems };
  const base = { file, dbType, dialect, name, nameSuffix, ...limits };

  const unsupported = (reason: string, path: readonly string[]): ParsedDatabaseConfig => {
    if (hasErrors(problems)) return { problems };
    warn('database-not-supported', `${reason}; every case on this database is an error in a run`, path);
    return { config: { ...base, engine: 'unsupported', reason }, problems };
  };
  if (engine === 'unsupported')
    return unsupported(
      `EvalLens does not run SQL on ${PRODUCT[dbType] ?? dbType} (db_type ${dbType}): it runs SQLite, PostgreSQL (and AlloyDB) and MySQL`,
      [typeKey],
    );

  if (engine === 'sqlite') {
    const folder = stringAt('database_path');
    if (folder === undefined)
      required('database_path', 'the folder that holds the SQLite files (`<database_path>/<database><extension>`)');
    const rawExtension = stringAt('extension') ?? '.db';
    const extension = rawExtension.startsWith('.') ? rawExtension : `.${rawExtension}`;
    if (folder === undefined || hasErrors(problems)) return { problems };
    const found = resolveFolder(folder, dirname(file), options.fileExists);
    if (options.fileExists !== undefined && !options.fileExists(found)) {
      warn(
        'missing-file',
        `the folder ${found} (database_path) does not exist here, nor in a folder above this config: every case on this database is an error in a run`,
        ['database_path'],
      );
    }
    return { config: { ...base, engine, folder: found, extension }, problems };
  }

  if (password.kind === 'placeholder') {
    return unsupported(
      'the password is a placeholder (`<…>`), not a password: put the password in an environment variable and name it here with `password: !ENV ${VAR}`',
      ['password'],
    );
  }
  if ('secret_manager_path' in data && password.kind === 'none' && data['password_env'] === undefined) {
    return unsupported(
      'the password is in Google Secret Manager (secret_manager_path), which EvalLens does not read: put it in an environment variable and name it with `password: !ENV ${VAR}`',
      ['secret_manager_path'],
    );
  }
  const address = serverAddress(dbType, engine, stringAt('host'), data['port'], stringAt('database_path'));
  if ('reason' in address) return unsupported(address.reason, [address.path]);
  const port = address.port ?? positive('port', 65535) ?? DEFAULT_PORTS[engine];
  const user = stringAt('user_name');
  if (user === undefined) required('user_name', 'the user to connect as');
  if (name === '' && data['database_name'] === undefined)
    required('database_name', 'the database of items that name none');
  const passwordEnv = password.kind === 'env' ? password.name : stringAt('password_env');
  if (password.kind !== 'env' && passwordEnv !== undefined && !ENV_NAME.test(passwordEnv)) {
    problem('schema', `\`password_env\` names an environment variable (letters, digits, _), not "${passwordEnv}"`, [
      'password_env',
    ]);
  }
  const allowSuperuser = data['allow_superuser'];
  if (allowSuperuser !== undefined && allowSuperuser !== null && typeof allowSuperuser !== 'boolean') {
    problem('schema', `\`allow_superuser\` must be true or false, not ${describe(allowSuperuser)}`, [
      'allow_superuser',
    ]);
  }
  if (allowSuperuser === true) {
    warn(
      'superuser-allowed',
      'allow_superuser: true lets SQL under test run as a superuser (PostgreSQL) or with SUPER/FILE rights (MySQL): it could run programs or write files on the database server, which no rollback undoes; use a read-only role instead where you can',
      ['allow_superuser'],
    );
  }
  if (user === undefined || hasErrors(problems)) return { problems };
  const server = {
    ...base,
    engine,
    host: address.host,
    port,
    user,
    ...(allowSuperuser === true ? { allowSuperuser: true } : {}),
  };
  return { config: passwordEnv === undefined ? server : { ...server, passwordEnv }, problems };
}

/**
 * The database an item runs on, as EvalBench names it: the item's database plus the config's
 * `db_name_suffix`, else the config's `database_name`.
 */
export function databaseNameFor(config: DatabaseConfig, itemDatabase: string | undefined): string {
  return itemDatabase !== undefined && itemDatabase !== '' ? `${itemDatabase}${config.nameSuffix}` : config.name;
}

/** Where a database of a config is (`database`: from `databaseNameFor`). */
export function locationOf(config: SqliteDatabaseConfig | ServerDatabaseConfig, database: string): DatabaseLocation {
  if (config.engine === 'sqlite')
    return {
      engine: 'sqlite',
      file: join(config.folder, database.endsWith(config.extension) ? database : `${database}${config.extension}`),
    };
  const base = {
    engine: config.engine,
    host: config.host,
    port: config.port,
    database,
    user: config.user,
    ...(config.allowSuperuser === true ? { allowSuperuser: true } : {}),
  };
  return config.passwordEnv === undefined ? base : { ...base, passwordEnv: config.passwordEnv };
}

/** The connection settings of a server database, with the password read from its environment variable. */
export function serverSettingsOf(
  location: Extract<DatabaseLocation, { engine: 'postgres' | 'mysql' }>,
  env: Readonly<Record<string, string | undefined>>,
): ServerSettings {
  const base = { host: location.host, port: location.port, database: location.database, user: location.user };
  if (location.passwordEnv === undefined) return base;
  const password = readSecretEnv(env, location.passwordEnv);
  if (password === undefined)
    throw new Error(
      `the environment variable ${location.passwordEnv} (the password of database ${location.database}) is not set`,
    );
  return { ...base, password };
}

/** Where the password comes from, seen before `${VAR}` expansion; an env password's node is emptied so expansion never reads it. */
function passwordSource(
  source: YamlSource,
): { readonly kind: 'none' | 'literal' | 'placeholder' } | { readonly kind: 'env'; readonly name: string } {
  const node = source.nodeAt(['password']);
  if (node === undefined || !isScalar(node) || node.value === null || node.value === '') return { kind: 'none' };
  const text = typeof node.value === 'string' ? node.value.trim() : undefined;
  // EvalBench's sample configs ship `<YOUR_DATABASE_PASSWORD>`: a slot to fill in, not a password.
  if (text !== undefined && /^<[^<>]*>$/.test(text)) return { kind: 'placeholder' };
  const match = text === undefined ? null : WHOLE_PLACEHOLDER.exec(text);
  if (match === null) return { kind: 'literal' };
  node.value = '';
  return { kind: 'env', name: match[1] ?? '' };
}

/**
 * The expansion problems outside the keys EvalLens ignores: an unset variable in `connection_string`
 * (EvalBench's MongoDB configs) or `gcp_project_id` is never used here, so it is no mistake.
 */
function withoutIgnoredVariables(source: YamlSource, problems: readonly Problem[]): Problem[] {
  const ignored = IGNORED_KEYS.flatMap((key) => (source.nodeAt([key]) === undefined ? [] : [source.valueRange([key])]));
  const inside = (p: Problem) =>
    ignored.some((r) => r.start.offset <= p.range.start.offset && p.range.end.offset <= r.end.offset);
  return problems.filter((p) => p.code !== 'unresolved-variable' || !inside(p));
}

/** host and port of a server config, or why EvalLens cannot reach it. */
function serverAddress(
  dbType: string,
  engine: 'postgres' | 'mysql',
  host: string | undefined,
  port: unknown,
  databasePath: string | undefined,
): { readonly host: string; readonly port?: number } | { readonly reason: string; readonly path: string } {
  if (host !== undefined) return { host };
  if (dbType === 'alloydb_omni') return { host: 'localhost', ...(port === undefined ? { port: 5432 } : {}) };
  if (dbType === 'alloydb') {
    return {
      reason:
        "database_path names an AlloyDB instance, reached through Google's AlloyDB connector, which EvalLens does not use: add `host` (and `port`) with the instance's address to run it on the PostgreSQL protocol",
      path: 'database_path',
    };
  }
  if (databasePath === undefined)
    return {
      reason: `\`host\` (or EvalBench's \`database_path: host[:port]\`) is missing: EvalLens does not know where the ${engine === 'mysql' ? 'MySQL' : 'PostgreSQL'} server is`,
      path: 'db_type',
    };
  const colons = databasePath.split(':').length - 1;
  if (colons === 2)
    return {
      reason: `database_path "${databasePath}" names a Cloud SQL instance, reached through Google's Cloud SQL connector, which EvalLens does not use: add \`host\` and \`port\` with the instance's address`,
      path: 'database_path',
    };
  const match = /^([^:/\s<>]+)(?::(\d{1,5}))?$/.exec(databasePath);
  if (match === null)
    return {
      reason: `database_path "${databasePath}" is not host[:port], the form EvalBench connects to directly`,
      path: 'database_path',
    };
  return match[2] === undefined ? { host: match[1] ?? '' } : { host: match[1] ?? '', port: Number(match[2]) };
}

/** database_path, absolute: from the config's folder, else from the nearest folder above that has it. */
function resolveFolder(path: string, dir: string, exists: ((path: string) => boolean) | undefined): string {
  const own = resolve(dir, path);
  if (isAbsolute(path) || exists === undefined || exists(own)) return own;
  for (let folder = dirname(dir); ; folder = dirname(folder)) {
    const candidate = resolve(folder, path);
    if (exists(candidate)) return candidate;
    if (dirname(folder) === folder) return own;
  }
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object' && value !== null) return 'a mapping';
  return `${typeof value} ${JSON.stringify(value)}`;
}
