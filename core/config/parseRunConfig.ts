import { dirname, isAbsolute, resolve } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { isMap, isSeq } from 'yaml';
import runConfigSchema from '../../schemas/run-config.schema.json';
import { hasErrors, type Problem } from '../problem';
import { createAjv } from '../schema/ajv';
import { OptionsValidators } from '../scorers/optionsValidator';
import { ScorerRegistry } from '../scorers/registry';
import { DEFAULT_JOB_THRESHOLD, DEFAULT_TIMEOUT_MS, type DatasetSource, type InlineCase, type RunConfig } from './runConfig';
import { pointerSegments, schemaProblems } from './schemaMessages';
import { readScorers } from './scorerEntries';
import { YamlSource } from './yamlSource';

export interface ParseOptions {
  readonly registry?: ScorerRegistry;
  /** Whether a referenced file exists; hosts pass their file system (the server, its open documents too). */
  readonly fileExists?: (absolutePath: string) => boolean;
}

export interface ParsedRunConfig {
  /** Present when there are no errors. */
  readonly config?: RunConfig;
  readonly problems: Problem[];
}

const defaultRegistry = new ScorerRegistry();
const validators = new OptionsValidators();
let topLevelValidator: ValidateFunction | undefined;
const TOP_LEVEL_KEYS = Object.keys(runConfigSchema.properties);

/**
 * The published run-config schema with `scorers:` narrowed to its shape: each entry is then checked
 * against its own scorer's schema (readScorers), which words its mistakes precisely, so compiling
 * every scorer's definitions a second time here would only cost start-up time. Compiled on first use.
 */
function validateTopLevel(): ValidateFunction {
  if (topLevelValidator === undefined) {
    const { $defs, properties, ...rest } = runConfigSchema;
    const topLevel = { ...rest, properties: { ...properties, scorers: { type: ['object', 'array', 'null'] } }, $defs: { case: $defs.case } };
    topLevelValidator = createAjv({ useDefaults: false, verbose: true }).compile(topLevel);
  }
  return topLevelValidator;
}

/**
 * Parses and checks a run config: YAML syntax, `${VAR}` expansion, the run-config schema, every
 * scorer's options, and the files it names. Pure but for `fileExists`. Every problem carries the
 * range of the exact key or value it is about.
 */
export function parseRunConfig(text: string, file: string, env: Readonly<Record<string, string | undefined>>, options: ParseOptions = {}): ParsedRunConfig {
  const source = new YamlSource(text, file);
  const syntax = source.syntaxProblems();
  if (hasErrors(syntax)) return { problems: syntax };
  const problems: Problem[] = [...syntax, ...source.expandEnvironment(env)];
  const root: unknown = source.doc.toJS({ maxAliasCount: 100 });
  if (root === null || root === undefined) {
    return { problems: [...problems, { code: 'empty-config', severity: 'error', message: 'the config is empty: expected a mapping with `dataset:` (or `cases:`) and `scorers:`', range: source.range(0, 0) }] };
  }
  if (typeof root !== 'object' || Array.isArray(root)) {
    return { problems: [...problems, { code: 'schema', severity: 'error', message: `the config must be a mapping of keys (dataset, scorers, …), not ${Array.isArray(root) ? 'a list' : 'a single value'}`, range: source.valueRange([]) }] };
  }
  const data = root as Record<string, unknown>;
  const validate = validateTopLevel();
  if (!validate(data)) {
    // Scorer entries get their own, more precise messages below.
    const outside = (validate.errors ?? []).filter((e) => pointerSegments(e.instancePath)[0] !== 'scorers');
    problems.push(...schemaProblems(outside, source, { basePath: [], knownKeys: (path) => (path.length === 0 ? TOP_LEVEL_KEYS : knownKeysOf(path)) }));
  }
  const dir = dirname(file);
  const registry = options.registry ?? defaultRegistry;
  const timeoutMs = typeof data['timeout_ms'] === 'number' ? data['timeout_ms'] : DEFAULT_TIMEOUT_MS;
  const scorers = readScorers(source, data['scorers'], { registry, validators, configDir: dir, defaultTimeoutMs: timeoutMs });
  problems.push(...scorers.problems);
  if (data['scorers'] === undefined || data['scorers'] === null) {
    problems.push({ code: 'missing-required', severity: 'error', message: 'the config has no `scorers:`; add at least one scorer (e.g. `scorers: {exact_match: {}}`)', range: source.valueRange([]), suggestions: ['scorers'] });
  }
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
  const dataset = readDataset(source, data, dir);
  problems.push(...dataset.problems);
  const inlineCases = readInlineCases(source, data['cases']);
  if (data['dataset'] === undefined && data['dataset_config'] === undefined && data['cases'] === undefined) {
    problems.push({ code: 'missing-dataset', severity: 'error', message: 'the config names no cases: add `dataset: <path>` or inline `cases:`', range: source.valueRange([]), suggestions: ['dataset'] });
  }
  if (dataset.source !== undefined && options.fileExists !== undefined && !options.fileExists(dataset.source.path)) {
    problems.push({ code: 'missing-file', severity: 'error', message: `the dataset file ${dataset.source.path} does not exist (paths are relative to the config's folder)`, range: dataset.source.range });
  }
  if (hasErrors(problems)) return { problems };
  const passCriteria = data['pass_criteria'] as { threshold?: number } | undefined;
  const config: RunConfig = {
    file,
    dir,
    ...(dataset.source === undefined ? {} : { dataset: dataset.source }),
    inlineCases,
    scorers: scorers.instances,
    numTrials,
    jobThreshold: passCriteria?.threshold ?? DEFAULT_JOB_THRESHOLD,
    ...(typeof data['concurrency'] === 'number' ? { concurrency: data['concurrency'] } : {}),
    timeoutMs,
  };
  return { config, problems };
}

function readDataset(source: YamlSource, data: Record<string, unknown>, dir: string): { source?: DatasetSource & { range: YamlSourceRange }; problems: Problem[] } {
  const key = data['dataset'] !== undefined ? 'dataset' : data['dataset_config'] !== undefined ? 'dataset_config' : undefined;
  if (key === undefined) return { problems: [] };
  const value = data[key];
  const absolute = (p: string) => (isAbsolute(p) ? p : resolve(dir, p));
  if (typeof value === 'string') return { source: { path: absolute(value), range: source.valueRange([key]) }, problems: [] };
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const v = value as { path?: unknown; format?: DatasetSource['format']; columns?: DatasetSource['columns'] };
    if (typeof v.path === 'string') {
      return {
        source: { path: absolute(v.path), ...(v.format ? { format: v.format } : {}), ...(v.columns ? { columns: v.columns } : {}), range: source.valueRange([key, 'path']) },
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
    const range = itemNode !== undefined && (isMap(itemNode) || isSeq(itemNode) || 'range' in (itemNode as object)) ? source.valueRange(['cases', index]) : source.valueRange(['cases']);
    return { value: item, index, range };
  });
}

function knownKeysOf(path: readonly (string | number)[]): readonly string[] {
  if (path[0] === 'dataset') return ['path', 'format', 'columns'];
  if (path[0] === 'pass_criteria') return ['threshold'];
  return [];
}
