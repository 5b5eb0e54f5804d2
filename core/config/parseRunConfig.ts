import { dirname, join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { isMap, isSeq } from 'yaml';
import runConfigKeys from './runConfigKeys.generated.json';
import { hasErrors, type Problem } from '../problem';
import { ownValidator, runConfigTopLevelSpec } from '../schema/ownValidators';
import type { ScorerRegistry } from '../scorers/registry';
import { configFamily } from './configFamily';
import {
  acceptEvalbenchScorers,
  evalbenchDatasetSource,
  isUnreadDatasetFormat,
  readEvalbenchSettings,
  resolveConfigPath,
  scorerSetFor,
} from './evalbenchCompat';
import { evalbenchKeyNotices, unusedValuePaths, withoutUnusedVariables } from './evalbenchNotices';
import {
  DEFAULT_JOB_THRESHOLD,
  DEFAULT_TIMEOUT_MS,
  type DatasetSource,
  type InlineCase,
  type RunConfig,
} from './runConfig';
import { pointerSegments, schemaProblems } from './schemaMessages';
import type { ScorerEntryCache } from './entryCache';
import { createEngineContext, type EngineContext } from '../engineContext';
import { duplicateInlineIds } from './inlineCaseIds';
import { readScorers } from './scorerEntries';
import { readBaselineKey } from './baselineKey';
import { passCriteriaProblems } from './thresholdScale';
import { readTarget, targetKnownKeys } from '../target/readTarget';
import { YamlSource } from './yamlSource';
import { maskProblems } from '../../shared/text/secretMask';
import type { SourceRange } from '../text/position';
import { readEvalhubSection } from '../evalhub/configSection';
import { collectionKeys } from '../evalhub/loadEvalhub';

export interface ParseOptions {
  readonly registry?: ScorerRegistry;
  /** Whether a referenced file exists; hosts pass their file system (the server, its open documents too). */
  readonly fileExists?: (absolutePath: string) => boolean;
  /**
   * The text already parsed (a host that keeps the YAML of a document version, like the language
   * server, parses once). Its scalars are expanded in place, so it serves one parse only.
   */
  readonly source?: YamlSource;
  /** What scorer entries gave when this host checked them before (the language server keeps one). */
  readonly entryCache?: ScorerEntryCache;
  /**
   * The host's engine context (compiled validators, regex verdicts, compiled schemas), kept in the
   * parsed config's scorer entries for the run that prepares them. Absent: a fresh one for this parse.
   */
  readonly engine?: EngineContext;
}

export interface ParsedRunConfig {
  /** Present when there are no errors. */
  readonly config?: RunConfig;
  readonly problems: Problem[];
  /** The dataset file the config names and how to read it, even when the config has errors (hosts check the dataset too). */
  readonly datasetSource?: DatasetSource;
}

/** The run config's top-level keys (scripts/build-schemas.mjs writes them beside the schema it composes). */
const TOP_LEVEL_KEYS: readonly string[] = runConfigKeys;

/**
 * The run-config schema with `scorers:` narrowed to its shape (runConfigTopLevelSpec), made on first
 * use and kept in the host's engine context.
 */
function validateTopLevel(engine: EngineContext): ValidateFunction {
  return (engine.validators.topLevel ??= ownValidator(runConfigTopLevelSpec()));
}

/**
 * Parses and checks a run config: YAML syntax, `${VAR}` expansion, the run-config schema, every
 * scorer's options, and the files it names. Pure but for `fileExists`. Every problem carries the
 * range of the exact key or value it is about.
 */
export function parseRunConfig(
  text: string,
  file: string,
  env: Readonly<Record<string, string | undefined>>,
  options: ParseOptions = {},
): ParsedRunConfig {
  const source = options.source ?? new YamlSource(text, file);
  const parsed = parseWithSource(source, file, env, options.engine ?? createEngineContext(), options);
  // A diagnostic lands in CI logs and editors: no message quotes a value `${VAR}` brought in.
  const problems = maskProblems(parsed.problems, source.expandedValues);
  if (parsed.config === undefined || source.expandedValues.size === 0) return { ...parsed, problems };
  return { ...parsed, problems, config: { ...parsed.config, secretValues: [...source.expandedValues] } };
}

function parseWithSource(
  source: YamlSource,
  file: string,
  env: Readonly<Record<string, string | undefined>>,
  engine: EngineContext,
  options: ParseOptions,
): ParsedRunConfig {
  const syntax = source.syntaxProblems();
  if (hasErrors(syntax)) return { problems: syntax };
  const problems: Problem[] = [...syntax, ...source.expandEnvironment(env)];
  const asData = source.toData();
  if (hasErrors(asData.problems)) return { problems: [...problems, ...asData.problems] };
  const root = asData.value;
  if (root === null || root === undefined) {
    return {
      problems: [
        ...problems,
        {
          code: 'empty-config',
          severity: 'error',
          message: 'the config is empty: expected a mapping with `dataset:` (or `cases:`) and `scorers:`',
          range: source.range(0, 0),
        },
      ],
    };
  }
  if (typeof root !== 'object' || Array.isArray(root)) {
    return {
      problems: [
        ...problems,
        {
          code: 'schema',
          severity: 'error',
          message: `the config must be a mapping of keys (dataset, scorers, …), not ${Array.isArray(root) ? 'a list' : 'a single value'}`,
          range: source.headRange(),
        },
      ],
    };
  }
  const data = root as Record<string, unknown>;
  const validate = validateTopLevel(engine);
  if (!validate(data)) {
    // Scorer entries get their own, more precise messages below.
    const outside = (validate.errors ?? []).filter((e) => pointerSegments(e.instancePath)[0] !== 'scorers');
    problems.push(
      ...schemaProblems(outside, source, {
        basePath: [],
        knownKeys: (path) => (path.length === 0 ? TOP_LEVEL_KEYS : knownKeysOf(path)),
      }),
    );
  }
  const dir = dirname(file);
  // An EvalBench config (dataset_config / database_configs) means EvalBench's scorers by its keys.
  const family = configFamily(data);
  const { registry: familyRegistry, validators } = scorerSetFor(family, engine);
  const registry = options.registry ?? familyRegistry;
  const timeoutMs = typeof data['timeout_ms'] === 'number' ? data['timeout_ms'] : DEFAULT_TIMEOUT_MS;
  // EvalBench's `reporting.truncate_execution_outputs` is the default of every SQL scorer's own option.
  const reporting = data['reporting'];
  const truncate =
    reporting !== null && typeof reporting === 'object'
      ? (reporting as Record<string, unknown>)['truncate_execution_outputs']
      : undefined;
  const optionDefaults = typeof truncate === 'number' ? { truncate_execution_outputs: truncate } : {};
  const compat = { dir, family, ...(options.fileExists === undefined ? {} : { fileExists: options.fileExists }) };
  const scorers = readScorers(source, data['scorers'], {
    resolvePath: (path) => resolveConfigPath(path, compat),
    registry,
    validators,
    engine,
    configDir: dir,
    defaultTimeoutMs: timeoutMs,
    optionDefaults,
    env,
    ...(options.fileExists === undefined ? {} : { fileExists: options.fileExists }),
    ...(options.entryCache === undefined ? {} : { entryCache: options.entryCache }),
  });
  problems.push(
    ...(family === 'evalbench'
      ? acceptEvalbenchScorers(source, data['scorers'], scorers.problems, {
          registry,
          instances: scorers.instances.length,
        })
      : scorers.problems),
  );
  // `scorers: {}` and `scorers: []` name no scorer either (the schema's `minProperties`/`minItems`).
  const noScorers = isEmptyScorers(data['scorers']);
  const emptyScorers = noScorers && data['scorers'] !== undefined && data['scorers'] !== null;
  const noScorersWhere = emptyScorers
    ? { what: '`scorers` names no scorer', range: source.markRange(['scorers']) }
    : { what: 'the config has no `scorers:`', range: source.headRange() };
  if (noScorers && family === 'evalbench') {
    // EvalBench runs such configs for their other work (its seed configs build databases): nothing to score, not a mistake.
    problems.push({
      code: 'no-scorer-runs',
      severity: 'warning',
      message: `${noScorersWhere.what}, so a run scores nothing (EvalBench uses such configs for other work, e.g. seeding databases); add scorers to evaluate`,
      range: noScorersWhere.range,
      suggestions: ['scorers'],
    });
  } else if (noScorers) {
    problems.push({
      code: 'missing-required',
      severity: 'error',
      message: `${noScorersWhere.what}; add at least one scorer (e.g. \`scorers: {exact_match: {}}\`)`,
      range: noScorersWhere.range,
      suggestions: ['scorers'],
    });
  }
  // Whether a job score exists is known only when every scorer entry loaded.
  problems.push(...passCriteriaProblems(source, data, hasErrors(scorers.problems) ? undefined : scorers.instances));
  const numTrials = typeof data['num_trials'] === 'number' ? data['num_trials'] : 1;
  for (const instance of scorers.instances) {
    if (instance.definition.acrossTrials === true && numTrials < 2) {
      problems.push({
        code: 'needs-trials',
        severity: 'error',
        message: `${instance.definition.key} compares the trials of each case with each other: set \`num_trials\` to at least 2 (it is ${numTrials})`,
        range: instance.range,
        suggestions: ['num_trials'],
      });
    }
  }
  const isEvalbench = family === 'evalbench';
  problems.push(...evalbenchKeyNotices(source, data, { isEvalbench, knownKeys: TOP_LEVEL_KEYS }));
  const evalbench = readEvalbenchSettings(source, data, compat);
  problems.push(...evalbench.problems);
  const dataset = readDataset(source, data, (p) => resolveConfigPath(p, compat));
  problems.push(...dataset.problems);
  // A dataset in an EvalBench format EvalLens has no reader for is not read as something else (a warning says so).
  const unread = isEvalbench && isUnreadDatasetFormat(data['dataset_format']);
  const datasetSource =
    dataset.source === undefined || unread
      ? undefined
      : evalbenchDatasetSource(dataset.source, data, evalbench.settings);
  const inlineCases = readInlineCases(source, data['cases']);
  problems.push(...duplicateInlineIds(source, inlineCases));
  const target = readTarget(source, data['target'], { dir, env, timeoutMs });
  problems.push(...target.problems);
  const baseline = readBaselineKey(source, data, dir, options.fileExists);
  problems.push(...baseline.problems);
  if (data['dataset'] === undefined && data['dataset_config'] === undefined && data['cases'] === undefined) {
    if (isEvalbench) {
      // EvalBench orchestrators such as mcp_readability read their own inputs, not a dataset: the
      // config loads, and says that a run has nothing to score.
      problems.push({
        code: 'nothing-to-score',
        severity: 'warning',
        message:
          'this EvalBench config names no dataset (`dataset_config`): EvalLens scores recorded cases and has none here, so a run scores nothing (and exits 3); add `dataset_config: <recorded dataset>`',
        range: source.headRange(),
        suggestions: ['dataset_config'],
      });
    } else {
      problems.push({
        code: 'missing-dataset',
        severity: 'error',
        message: 'the config names no cases: add `dataset: <path>` or inline `cases:`',
        range: source.headRange(),
        suggestions: ['dataset'],
      });
    }
  }
  // A path with an unset `${VAR}` is said once, as the unset variable, not again as a missing file.
  const unresolvedPath =
    datasetSource !== undefined &&
    problems.some((p) => p.code === 'unresolved-variable' && within(p.range, datasetSource.range));
  if (
    datasetSource !== undefined &&
    !unresolvedPath &&
    options.fileExists !== undefined &&
    !options.fileExists(datasetSource.path)
  ) {
    // EvalBench's BIRD datasets are fetched by a script beside the config: say so rather than only "missing".
    const fetcher = join(dir, 'download_dataset.sh');
    const fetch = options.fileExists(fetcher)
      ? `; the config's folder has ${fetcher}, which fetches EvalBench's dataset: run it first`
      : '';
    problems.push({
      code: 'missing-file',
      severity: 'error',
      message: `the dataset file ${datasetSource.path} does not exist (paths are relative to the config's folder)${fetch}`,
      range: datasetSource.range,
    });
  }
  const unused = unusedValuePaths(data, {
    isEvalbench,
    knownKeys: TOP_LEVEL_KEYS,
    scorerRuns: (key) => registry.get(key) !== undefined,
  });
  const kept = withoutUnusedVariables(problems, source, unused);
  const named = datasetSource === undefined ? {} : { datasetSource };
  if (hasErrors(kept)) return { problems: kept, ...named };
  const passCriteria = data['pass_criteria'] as { threshold?: number; min_pass_rate?: number } | undefined;
  const config: RunConfig = {
    file,
    dir,
    ...(datasetSource === undefined ? {} : { dataset: datasetSource }),
    inlineCases,
    scorers: scorers.instances,
    numTrials,
    jobThreshold: passCriteria?.threshold ?? DEFAULT_JOB_THRESHOLD,
    ...(typeof passCriteria?.min_pass_rate === 'number' ? { minPassRate: passCriteria.min_pass_rate } : {}),
    ...(typeof data['concurrency'] === 'number' ? { concurrency: data['concurrency'] } : {}),
    timeoutMs,
    family,
    ...evalbench.settings,
    ...(target.config === undefined ? {} : { target: target.config }),
    ...evalhubOf(source, data, (p) => resolveConfigPath(p, compat)),
    ...(baseline.ref === undefined ? {} : { baseline: baseline.ref }),
  };
  return { config, problems: kept, ...named };
}

function readDataset(
  source: YamlSource,
  data: Record<string, unknown>,
  absolute: (path: string) => string,
): { source?: DatasetSource & { range: YamlSourceRange }; problems: Problem[] } {
  const key =
    data['dataset'] !== undefined ? 'dataset' : data['dataset_config'] !== undefined ? 'dataset_config' : undefined;
  if (key === undefined) return { problems: [] };
  const value = data[key];
  if (typeof value === 'string')
    return { source: { path: absolute(value), range: source.valueRange([key]) }, problems: [] };
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const v = value as {
      path?: unknown;
      prompts_file?: unknown;
      format?: DatasetSource['format'];
      columns?: DatasetSource['columns'];
    };
    // EvalBench's dict form of `dataset_config` names the file `prompts_file`.
    const pathKey =
      typeof v.path === 'string'
        ? 'path'
        : key === 'dataset_config' && typeof v.prompts_file === 'string'
          ? 'prompts_file'
          : undefined;
    const path = pathKey === undefined ? undefined : v[pathKey];
    if (pathKey !== undefined && typeof path === 'string') {
      return {
        source: {
          path: absolute(path),
          ...(v.format ? { format: v.format } : {}),
          ...(v.columns ? { columns: v.columns } : {}),
          range: source.valueRange([key, pathKey]),
        },
        problems: [],
      };
    }
  }
  return { problems: [] };
}

type YamlSourceRange = ReturnType<YamlSource['range']>;

function readInlineCases(source: YamlSource, value: unknown): InlineCase[] {
  const node = source.nodeAt(['cases']);
  if (!Array.isArray(value) || !isSeq(node)) return [];
  return value.map((item: unknown, index) => {
    const itemNode = node.items[index];
    const range =
      itemNode !== undefined && (isMap(itemNode) || isSeq(itemNode) || 'range' in (itemNode as object))
        ? source.valueRange(['cases', index])
        : source.valueRange(['cases']);
    return { value: item, index, range };
  });
}

function knownKeysOf(path: readonly (string | number)[]): readonly string[] {
  if (path[0] === 'dataset') return ['path', 'format', 'columns'];
  if (path[0] === 'reporting' && path[1] === 'csv') return ['output_directory'];
  if (path[0] === 'pass_criteria') return ['threshold', 'min_pass_rate'];
  if (path[0] === 'target') return targetKnownKeys(path);
  if (path[0] === 'evalhub')
    return path.length === 1 ? ['collection', 'benchmarks', 'providers', 'provider_id'] : collectionKeys(path.slice(1));
  return [];
}

function within(inner: SourceRange, outer: SourceRange): boolean {
  return (
    inner.file === outer.file && inner.start.offset >= outer.start.offset && inner.start.offset <= outer.end.offset
  );
}

function isEmptyScorers(scorers: unknown): boolean {
  if (scorers === undefined || scorers === null) return true;
  if (Array.isArray(scorers)) return scorers.length === 0;
  return typeof scorers === 'object' && Object.keys(scorers).length === 0;
}

/** `evalhub:` (core/evalhub/configSection.ts), read once the config has no errors. */
function evalhubOf(
  source: YamlSource,
  data: Record<string, unknown>,
  absolute: (path: string) => string,
): { evalhub?: NonNullable<ReturnType<typeof readEvalhubSection>> } {
  const section = readEvalhubSection(source, data, absolute);
  return section === undefined ? {} : { evalhub: section };
}
