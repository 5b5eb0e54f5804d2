import type { EngineContext, ScorerSet } from '../engineContext';
import { dirname, extname, isAbsolute, resolve } from 'node:path';
import type { CaseIdFilter, DatasetSource, Nl2sqlFormat, Nl2sqlSource } from '../dataset/source';
import type { Problem } from '../problem';
import { OptionsValidators } from '../scorers/optionsValidator';
import { BUILTIN_SCORER_INDEX, type ScorerEntry } from '../scorers/builtinIndex';
import { ScorerRegistry } from '../scorers/registry';
import type { ScorerDefinition } from '../scorers/scorer';
import type { SqlCleanUp } from '../sql/sanitizeSql';
import type { SourceRange } from '../text/position';
import type { ConfigFamily } from './configFamily';
import { EVALBENCH_DATASET_FORMATS } from './evalbenchKeys';
import { evalbenchScorerWork, isEvalbenchScorerNotRun } from './evalbenchNotices';
import { DEFAULT_TRUNCATE_EXECUTION_OUTPUTS, type DatabaseConfigRef, type RunConfig } from './runConfig';
import type { YamlSource } from './yamlSource';
import { isObject } from '../../shared/isObject';

/**
 * EvalBench run-config compatibility, in one place: which configs are EvalBench's, what their
 * scorer keys mean, the EvalBench keys EvalLens reads (`database_configs`, `db_name_overrides`,
 * `db_name_mappings`, `dialects`, `query_types`,
 * `databases`, `dataset_format`, `setup_directory`, `reporting`, `scenarios`, `scenario_pattern`) and
 * those it accepts without running them (generators, orchestrators, BigQuery and GCS reporting, and
 * scorers it does not implement), each of which gets one information notice on its key.
 */

export { isEvalbenchScorerNotRun } from './evalbenchNotices';

/** The EvalBench variants that replace EvalLens scorers of the same key in an EvalBench config, loaded when named. */
const EVALBENCH_VARIANTS: readonly ScorerEntry[] = [
  {
    key: 'exact_match',
    load: () =>
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      (require('../scorers/builtin/sql/exactMatch') as typeof import('../scorers/builtin/sql/exactMatch'))
        .sqlExactMatch,
  },
];

/** The built-in scorers as an EvalBench config means them, by key: `exact_match` is EvalBench's SQL exact match. */
function evalbenchScorerIndex(): readonly ScorerEntry[] {
  const variants = new Map(EVALBENCH_VARIANTS.map((e) => [e.key, e]));
  const replaced = BUILTIN_SCORER_INDEX.map((e) => variants.get(e.key) ?? e);
  return [...replaced, ...EVALBENCH_VARIANTS.filter((e) => !replaced.includes(e))];
}

/** The built-in scorers as an EvalBench config means them, loaded. */
export function evalbenchScorers(): readonly ScorerDefinition[] {
  return evalbenchScorerIndex().map((e) => e.load());
}

/**
 * The registry and options validators of a family, kept in the host's engine context from first use
 * (options validators are cached by scorer key, so each family has its own). Without a context: a
 * fresh set, whose validators compile again.
 */
export function scorerSetFor(family: ConfigFamily, engine?: EngineContext): ScorerSet {
  let set = engine?.scorerSets.get(family);
  if (set === undefined) {
    set = {
      registry: new ScorerRegistry(family === 'evalbench' ? evalbenchScorerIndex() : BUILTIN_SCORER_INDEX),
      validators: new OptionsValidators(),
    };
    engine?.scorerSets.set(family, set);
  }
  return set;
}

/**
 * In an EvalBench config, turns the `unknown-scorer` error of each scorer EvalBench has and EvalLens
 * does not implement into one information notice on its key (the scorer is not in the run either
 * way). When no scorer is left to run, adds a warning on `scorers`.
 */
export function acceptEvalbenchScorers(
  source: YamlSource,
  scorers: unknown,
  problems: readonly Problem[],
  context: { readonly registry: ScorerRegistry; readonly instances: number },
): Problem[] {
  const ignored = new Map<string, string>();
  for (const entry of scorerEntryKeys(source, scorers)) {
    if (context.registry.get(entry.key) === undefined && isEvalbenchScorerNotRun(entry.key))
      ignored.set(rangeKey(entry.range), entry.key);
  }
  if (ignored.size === 0) return [...problems];
  const result = problems.map((problem): Problem => {
    const key = problem.code === 'unknown-scorer' ? ignored.get(rangeKey(problem.range)) : undefined;
    if (key === undefined) return problem;
    return {
      code: 'evalbench-scorer-not-run',
      severity: 'information',
      message: `EvalLens does not run EvalBench's ${key} scorer (scorers.${key})${workOf(key)}; the key is accepted and the scorer is left out of the run`,
      range: problem.range,
    };
  });
  if (context.instances === 0 && !result.some((p) => p.severity === 'error')) {
    result.push({
      code: 'no-scorer-runs',
      severity: 'warning',
      message:
        'none of the scorers of this config runs in EvalLens, so a run scores nothing (and exits 3); add one it runs (e.g. `trajectory_matcher` for agents, `set_match` for SQL)',
      range: source.keyRange(['scorers']),
    });
  }
  return result;
}

/** The key of each `scorers:` entry and the range its unknown-scorer problem has (as `readScorers` places it). */
function scorerEntryKeys(source: YamlSource, scorers: unknown): { key: string; range: SourceRange }[] {
  if (Array.isArray(scorers)) {
    return scorers.flatMap((item: unknown, i) => {
      const type = isObject(item) ? item['type'] : undefined;
      return typeof type === 'string' ? [{ key: type, range: source.valueRange(['scorers', i, 'type']) }] : [];
    });
  }
  if (isObject(scorers)) return Object.keys(scorers).map((key) => ({ key, range: source.keyRange(['scorers', key]) }));
  return [];
}

function workOf(key: string): string {
  const work = evalbenchScorerWork(key);
  return work === undefined ? '' : `, which ${work}`;
}

function rangeKey(range: SourceRange): string {
  return `${range.start.offset}:${range.end.offset}`;
}

const NL2SQL_FORMATS: readonly string[] = ['evalbench-standard-format', 'bird-standard-format'];
/** Agentic evalsets (`{"scenarios": [...]}`), which the JSON reader reads. */
const EVALSET_FORMATS: readonly string[] = ['agent-format', 'gemini-cli-format'];

/** What EvalLens takes from the EvalBench keys of a config. */
export interface EvalbenchSettings {
  readonly databases?: readonly DatabaseConfigRef[];
  readonly databaseNames?: NonNullable<RunConfig['databaseNames']>;
  readonly sqlCleanUp?: SqlCleanUp;
  readonly setupDirectory?: string;
  readonly truncateExecutionOutputs: number;
  readonly csvOutputDirectory?: string;
  readonly caseIds?: CaseIdFilter;
}

export interface CompatContext {
  /** The config's folder. */
  readonly dir: string;
  readonly family: ConfigFamily;
  readonly fileExists?: (absolutePath: string) => boolean;
}

/**
 * Reads the EvalBench keys of a config (the schema has checked their shapes): the database configs
 * (each must exist), the setup folder, reporting, the scenario filters; and one information notice
 * per key EvalLens accepts without running it.
 */
export function readEvalbenchSettings(
  source: YamlSource,
  data: Readonly<Record<string, unknown>>,
  context: CompatContext,
): { settings: EvalbenchSettings; problems: Problem[] } {
  const problems: Problem[] = [...missingModelConfigs(source, data, context)];
  const reporting = isObject(data['reporting']) ? data['reporting'] : {};

  const format = data['dataset_format'];
  if (isUnreadDatasetFormat(format)) {
    problems.push({
      code: 'evalbench-format-not-read',
      severity: 'warning',
      message: `EvalLens has no reader for EvalBench's ${format} datasets (EvalBench turns them into conversations or probes as it runs): the dataset is not read, so a run scores nothing`,
      range: source.valueRange(['dataset_format']),
    });
  }

  const databases = readDatabaseConfigs(source, data['database_configs'], context, problems);
  const setup = data['setup_directory'];
  let setupDirectory: string | undefined;
  if (typeof setup === 'string' && setup !== '') {
    setupDirectory = resolveConfigPath(setup, context);
    if (context.fileExists !== undefined && !context.fileExists(setupDirectory)) {
      problems.push({
        code: 'missing-file',
        severity: 'warning',
        message: `the setup folder ${setupDirectory} does not exist (paths are relative to the config's folder); the cases on SQLite databases, which EvalLens builds from it, are errors`,
        range: source.valueRange(['setup_directory']),
      });
    }
    // What is built from the folder (SQLite) and what is left to the user (servers) depends on the
    // database configs and the cases: `validate` says it per database (cli/preparers.ts checkSetupFolders).
  }
  const truncate = reporting['truncate_execution_outputs'];
  const csv = reporting['csv'];
  const csvDirectory =
    isObject(csv) && typeof csv['output_directory'] === 'string' ? csv['output_directory'] : 'results';
  const caseIds = caseIdFilter(data);
  const settings: EvalbenchSettings = {
    ...(databases === undefined ? {} : { databases }),
    ...databaseNamesOf(data),
    ...sqlCleanUpOf(data),
    ...(setupDirectory === undefined ? {} : { setupDirectory }),
    truncateExecutionOutputs: typeof truncate === 'number' ? truncate : DEFAULT_TRUNCATE_EXECUTION_OUTPUTS,
    ...(csv === undefined
      ? {}
      : { csvOutputDirectory: isAbsolute(csvDirectory) ? csvDirectory : resolve(context.dir, csvDirectory) }),
    ...(caseIds === undefined ? {} : { caseIds }),
  };
  return { settings, problems };
}

/** Model config keys: not run, but a path that names no file is still a mistake worth a warning. */
const MODEL_CONFIG_KEYS = ['model_config', 'simulated_user_model_config', 'vuser_model_config'] as const;

function missingModelConfigs(
  source: YamlSource,
  data: Readonly<Record<string, unknown>>,
  context: CompatContext,
): Problem[] {
  const exists = context.fileExists;
  if (exists === undefined) return [];
  return MODEL_CONFIG_KEYS.flatMap((key): Problem[] => {
    const value = data[key];
    // An unresolved `${VAR}` is said once, as itself.
    if (typeof value !== 'string' || value === '' || value.includes('${')) return [];
    const file = resolveConfigPath(value, context);
    if (exists(file)) return [];
    return [
      {
        code: 'missing-file',
        severity: 'warning',
        message: `the model config ${file} (${key}) does not exist (paths are relative to the config's folder)`,
        range: source.valueRange([key]),
      },
    ];
  });
}

function readDatabaseConfigs(
  source: YamlSource,
  value: unknown,
  context: CompatContext,
  problems: Problem[],
): DatabaseConfigRef[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.flatMap((item: unknown, i): DatabaseConfigRef[] => {
    if (typeof item !== 'string' || item === '') return [];
    const configFile = resolveConfigPath(item, context);
    const range = source.valueRange(['database_configs', i]);
    if (context.fileExists !== undefined && !context.fileExists(configFile)) {
      problems.push({
        code: 'missing-file',
        severity: 'error',
        message: `the database config ${configFile} does not exist (paths are relative to the config's folder)`,
        range,
      });
    }
    return [{ configFile, range }];
  });
}

/**
 * EvalBench's database name rules (its orchestrators): `db_name_overrides[dialect][item database]`,
 * else `db_name_mappings[dialect]` with `{db_id}` replaced by the item's database. Entries that are
 * not strings are left out (the schema has said so).
 */
function databaseNamesOf(data: Readonly<Record<string, unknown>>): {
  databaseNames?: NonNullable<RunConfig['databaseNames']>;
} {
  const strings = (value: unknown): Record<string, string> =>
    isObject(value)
      ? Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'))
      : {};
  const overrides = isObject(data['db_name_overrides'])
    ? Object.fromEntries(Object.entries(data['db_name_overrides']).map(([dialect, names]) => [dialect, strings(names)]))
    : undefined;
  const mappings = isObject(data['db_name_mappings']) ? strings(data['db_name_mappings']) : undefined;
  if (overrides === undefined && mappings === undefined) return {};
  return {
    databaseNames: {
      ...(overrides === undefined ? {} : { overrides }),
      ...(mappings === undefined ? {} : { mappings }),
    },
  };
}

/** EvalBench's `dialect` and `prompt_generator`, which decide how generated SQL is cleaned up (sanitizeSql.ts). */
function sqlCleanUpOf(data: Readonly<Record<string, unknown>>): { sqlCleanUp?: SqlCleanUp } {
  const dialect = typeof data['dialect'] === 'string' ? data['dialect'] : undefined;
  const promptGenerator = typeof data['prompt_generator'] === 'string' ? data['prompt_generator'] : undefined;
  if (dialect === undefined && promptGenerator === undefined) return {};
  return {
    sqlCleanUp: {
      ...(dialect === undefined ? {} : { dialect }),
      ...(promptGenerator === undefined ? {} : { promptGenerator }),
    },
  };
}

function caseIdFilter(data: Readonly<Record<string, unknown>>): CaseIdFilter | undefined {
  const scenarios = data['scenarios'];
  const pattern = data['scenario_pattern'];
  const ids = Array.isArray(scenarios)
    ? scenarios.filter((id): id is string | number => typeof id === 'string' || typeof id === 'number').map(String)
    : [];
  if (ids.length === 0 && typeof pattern !== 'string') return undefined;
  return { ...(ids.length === 0 ? {} : { ids }), ...(typeof pattern === 'string' ? { filter: pattern } : {}) };
}

/**
 * A path of the config, absolute: relative to the config's folder. In an EvalBench config a relative
 * path that is not there is looked for in the folders above it too, nearest first: EvalBench resolves
 * paths from the folder it runs in (its repository root), so its configs name `datasets/bat/…` from
 * there. Without `fileExists` (or when no folder has it) the path is relative to the config's folder.
 */
export function resolveConfigPath(path: string, context: CompatContext): string {
  if (isAbsolute(path)) return path;
  const own = resolve(context.dir, path);
  if (context.family !== 'evalbench' || context.fileExists === undefined || context.fileExists(own)) return own;
  for (let dir = dirname(context.dir); ; dir = dirname(dir)) {
    const candidate = resolve(dir, path);
    if (context.fileExists(candidate)) return candidate;
    if (dirname(dir) === dir) return own;
  }
}

/**
 * The dataset as EvalBench's keys say to read it: with `dataset_format` an NL2SQL format (or absent,
 * in a config with `database_configs` and a `.json` dataset of no declared format: EvalBench's
 * default, checked against the file when it is read), the NL2SQL reader with the `dialects`,
 * `query_types` and `databases` filters; and the scenario filters.
 */
/** A `dataset_format` EvalBench has and EvalLens cannot read: such a dataset is not read at all. */
export function isUnreadDatasetFormat(format: unknown): boolean {
  return (
    typeof format === 'string' &&
    !NL2SQL_FORMATS.includes(format) &&
    !EVALSET_FORMATS.includes(format) &&
    EVALBENCH_DATASET_FORMATS.includes(format)
  );
}

export function evalbenchDatasetSource<T extends DatasetSource>(
  dataset: T,
  data: Readonly<Record<string, unknown>>,
  settings: EvalbenchSettings,
): T {
  const format = data['dataset_format'];
  const filters = {
    ...stringList(data['dialects'], 'dialects'),
    ...stringList(data['query_types'], 'queryTypes'),
    ...stringList(data['databases'], 'databases'),
  };
  let nl2sql: Nl2sqlSource | undefined;
  if (typeof format === 'string' && NL2SQL_FORMATS.includes(format)) {
    nl2sql = { format: format as Nl2sqlFormat, ...filters };
  } else if (
    format === undefined &&
    data['database_configs'] !== undefined &&
    dataset.format === undefined &&
    extname(dataset.path).toLowerCase() === '.json'
  ) {
    nl2sql = { format: 'evalbench-standard-format', ...filters, inferred: true };
  }
  return {
    ...dataset,
    ...(nl2sql === undefined ? {} : { nl2sql }),
    ...(settings.caseIds === undefined ? {} : { caseIds: settings.caseIds }),
  };
}

function stringList<K extends string>(value: unknown, name: K): { [P in K]?: string[] } {
  if (!Array.isArray(value)) return {};
  return { [name]: value.filter((v): v is string => typeof v === 'string') } as { [P in K]?: string[] };
}
