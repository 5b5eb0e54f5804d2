import { isAbsolute, resolve } from 'node:path';
import { isMap, isScalar, isSeq, type Node } from 'yaml';
import type { Json } from '../case';
import type { Problem } from '../problem';
import commonSchema from '../../schemas/scorer-common.schema.json';
import type { OptionsValidators } from '../scorers/optionsValidator';
import type { ScorerRegistry } from '../scorers/registry';
import type { Checked, ScorerContext, ScorerDefinition } from '../scorers/scorer';
import type { EngineContext } from '../engineContext';
import { toDisplay } from '../../shared/text/displayPosition';
import { negatedKey } from '../scorers/negation';
import { DEFAULT_TIMEOUT_MS, type ScorerInstance } from './runConfig';
import { closestNames, didYouMean } from './closest';
import type { EntryOutcome, ScorerEntryCache } from './entryCache';
import { fileOptionKeys } from './fileOptions';
import { schemaProblems } from './schemaMessages';
import { thresholdOffScale } from './thresholdScale';
import type { YamlSource } from './yamlSource';

interface Entry {
  readonly key: string;
  /** Path of the entry's options mapping (mapping form: scorers.<key>; list form: scorers.<i>). */
  readonly path: (string | number)[];
  /** Path whose key/value names the scorer (the key, or the item's `type`). */
  readonly keyPath: (string | number)[];
  readonly options: unknown;
  readonly listForm: boolean;
}

const COMMON_KEYS = Object.keys(commonSchema.properties);

/**
 * Reads the `scorers:` block in either form, looks each key up in the registry (an unknown key names
 * the closest ones), validates its options against its schema, and prepares it.
 */
export function readScorers(
  source: YamlSource,
  value: unknown,
  context: {
    registry: ScorerRegistry;
    validators: OptionsValidators;
    configDir: string;
    defaultTimeoutMs?: number;
    /** Config-level defaults of options, given to the scorers whose schema has that option and whose entry does not set it. */
    optionDefaults?: { readonly [key: string]: Json };
    env: Readonly<Record<string, string | undefined>>;
    fileExists?: (absolutePath: string) => boolean;
    /** Where a path option points (EvalBench configs also look in the folders above). */
    resolvePath?: (path: string) => string;
    /** The host's kept validators, verdicts and compiled schemas. */
    engine: EngineContext;
    /** What entries gave last time (a host that checks the same config again and again). */
    entryCache?: ScorerEntryCache;
  },
): { instances: ScorerInstance[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const instances: ScorerInstance[] = [];
  const names = new Map<string, ScorerInstance>();
  for (const entry of entriesOf(source, value, problems)) {
    const definition = context.registry.get(entry.key);
    if (definition === undefined) {
      // A `not-` key's near misses are negations too; any other key's are scorers only.
      const known =
        negatedKey(entry.key) === undefined
          ? context.registry.keys()
          : [...context.registry.keys(), ...context.registry.negationKeys()];
      const suggestions = closestNames(entry.key, known);
      problems.push({
        code: 'unknown-scorer',
        severity: 'error',
        message: `unknown scorer "${entry.key}"${didYouMean(suggestions)}`,
        range: entry.listForm ? source.valueRange(entry.keyPath) : source.keyRange(entry.keyPath),
        suggestions,
      });
      continue;
    }
    if (entry.options !== null && (typeof entry.options !== 'object' || Array.isArray(entry.options))) {
      problems.push({
        code: 'schema',
        severity: 'error',
        message: `the options of "${entry.key}" must be a mapping, or empty (null) when it needs none`,
        range: source.markRange(entry.path),
      });
      continue;
    }
    const options = { ...((entry.options ?? {}) as { [key: string]: Json }) };
    const declared = (definition.schema['properties'] as object | undefined) ?? {};
    for (const [key, value] of Object.entries(context.optionDefaults ?? {})) {
      if (key in declared && !(key in options)) options[key] = value;
    }
    const cacheKey = cacheKeyOf(definition, options, context);
    const cached = cacheKey === undefined ? undefined : context.entryCache?.get(cacheKey);
    const outcome = cached ?? { options, errors: context.validators.validate(definition, options) };
    const errors = outcome.errors;
    // Said beside the entry's schema errors, not after they are fixed: every mistake at once.
    const offScale =
      typeof outcome.options['threshold'] === 'number'
        ? thresholdOffScale(definition, outcome.options['threshold'])
        : undefined;
    if (offScale !== undefined)
      problems.push({
        code: 'threshold-off-scale',
        severity: 'error',
        message: offScale,
        range: source.valueRange([...entry.path, 'threshold']),
      });
    if (errors.length > 0) {
      if (cached === undefined && cacheKey !== undefined) context.entryCache?.set(cacheKey, outcome);
      const known = [
        ...Object.keys((definition.schema['properties'] as object | undefined) ?? {}),
        ...COMMON_KEYS,
        ...(entry.listForm ? ['type'] : []),
      ];
      const found = schemaProblems(errors, source, { basePath: entry.path, knownKeys: () => known });
      // Never let a rejected entry pass in silence, even if no message fits the error.
      problems.push(
        ...(found.length > 0
          ? found
          : [
              {
                code: 'schema',
                severity: 'error' as const,
                message: `the options of "${entry.key}" are not valid`,
                range: source.markRange(entry.path),
              },
            ]),
      );
      continue;
    }
    if (offScale !== undefined) continue;
    const missing =
      context.fileExists === undefined
        ? []
        : missingFiles(
            source,
            entry,
            definition.schema,
            outcome.options,
            context.resolvePath ?? ((p) => resolve(context.configDir, p)),
            context.fileExists,
          );
    if (missing.length > 0) {
      problems.push(...missing);
      continue;
    }
    const timeoutMs =
      typeof outcome.options['timeout_ms'] === 'number'
        ? outcome.options['timeout_ms']
        : (context.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS);
    const scorerContext: ScorerContext = {
      engine: context.engine,
      configDir: context.configDir,
      timeoutMs,
      env: context.env,
      ...(context.fileExists === undefined ? {} : { fileExists: context.fileExists }),
      ...(context.resolvePath === undefined ? {} : { resolvePath: context.resolvePath }),
    };
    // Checked, not created: a config being checked (every keystroke in the language server) starts nothing.
    const made = cached?.checked ?? check(definition, outcome.options, scorerContext, context, cacheKey);
    if (!made.ok) {
      for (const issue of made.issues) {
        if (issue.conflictsWith !== undefined) {
          const keys = [String(issue.path[0]), issue.conflictsWith];
          problems.push({
            code: 'conflicting-options',
            severity: 'error',
            message: `${entry.key}: ${issue.message}`,
            range: source.keyRange([...entry.path, ...issue.path]),
            suggestions: keys,
          });
          continue;
        }
        problems.push({
          code: 'invalid-option',
          severity: 'error',
          message: `${entry.key}: ${issue.message}`,
          range: source.markRange([...entry.path, ...issue.path]),
        });
      }
      continue;
    }
    for (const notice of made.notices ?? []) {
      problems.push({
        code: 'scorer-notice',
        severity: 'information',
        message: `${entry.key}: ${notice.message}`,
        range: source.markRange([...entry.path, ...notice.path]),
      });
    }
    const name =
      typeof outcome.options['name'] === 'string'
        ? outcome.options['name']
        : (definition.reportsAs?.(outcome.options) ?? entry.key);
    const threshold =
      typeof outcome.options['threshold'] === 'number' ? outcome.options['threshold'] : definition.defaultThreshold;
    const instance: ScorerInstance = {
      name,
      definition,
      options: outcome.options,
      context: keptOutOfJson(scorerContext),
      ...(threshold === undefined ? {} : { threshold }),
      weight:
        typeof outcome.options['weight'] === 'number' && outcome.options['weight'] > 0 ? outcome.options['weight'] : 1,
      ...primaryScoreOf(outcome.options),
      timeoutMs,
      range: entry.listForm ? source.valueRange(entry.keyPath) : source.keyRange(entry.keyPath),
    };
    const clash = names.get(name);
    if (clash !== undefined) {
      problems.push({
        code: 'duplicate-scorer-name',
        severity: 'error',
        message: `two scorers report as "${name}" (the first at line ${toDisplay(clash.range.start).line}); give one a different \`name\``,
        range: instance.range,
      });
      continue;
    }
    names.set(name, instance);
    instances.push(instance);
  }
  return { instances, problems };
}

type EntryContext = Parameters<typeof readScorers>[2];

/**
 * The entry cache's key for an entry whose outcome depends on nothing but its options and the
 * config's settings; undefined for the others (entryCache.ts says which), which are checked afresh.
 */
function cacheKeyOf(
  definition: ScorerDefinition,
  options: { readonly [key: string]: Json },
  context: EntryContext,
): string | undefined {
  if (context.entryCache === undefined || definition.reaches !== undefined) return undefined;
  if (fileOptionKeys(definition.schema).some((key) => options[key] !== undefined)) return undefined;
  return context.entryCache.keyOf({
    definition,
    options,
    configDir: context.configDir,
    defaultTimeoutMs: context.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS,
    env: context.env,
  });
}

/** Checks a validated entry's options, and keeps the outcome when `check` did not look at the disk. */
function check(
  definition: ScorerDefinition,
  options: { readonly [key: string]: Json },
  scorerContext: ScorerContext,
  context: EntryContext,
  cacheKey: string | undefined,
): Checked {
  if (definition.check === undefined) return { ok: true };
  let askedDisk = false;
  const fileExists = scorerContext.fileExists;
  const made = definition.check(options, {
    ...scorerContext,
    ...(fileExists === undefined ? {} : { fileExists: (path: string) => ((askedDisk = true), fileExists(path)) }),
  });
  if (cacheKey !== undefined && !askedDisk) {
    const outcome: EntryOutcome = { options, errors: [], checked: made };
    context.entryCache?.set(cacheKey, outcome);
  }
  return made;
}

/** A problem for each option that names a file (fileOptions.ts) that does not exist, on its value. */
function missingFiles(
  source: YamlSource,
  entry: Entry,
  schema: { readonly [key: string]: unknown },
  options: { readonly [key: string]: Json },
  resolvePath: (path: string) => string,
  fileExists: (absolutePath: string) => boolean,
): Problem[] {
  return fileOptionKeys(schema).flatMap((key): Problem[] => {
    const value = options[key];
    if (typeof value !== 'string' || value === '' || value.includes('${')) return [];
    const absolute = isAbsolute(value) ? value : resolvePath(value);
    if (fileExists(absolute)) return [];
    return [
      {
        code: 'missing-file',
        severity: 'error',
        message: `${entry.key}: the file ${absolute} (${key}) does not exist (paths are relative to the config's folder)`,
        range: source.valueRange([...entry.path, key]),
      },
    ];
  });
}

function entriesOf(source: YamlSource, value: unknown, problems: Problem[]): Entry[] {
  const node: Node | undefined = source.nodeAt(['scorers']);
  if (isMap(node) && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value as Record<string, unknown>).map(([key, options]) => ({
      key,
      path: ['scorers', key],
      keyPath: ['scorers', key],
      options,
      listForm: false,
    }));
  }
  if (isSeq(node) && Array.isArray(value)) {
    const entries: Entry[] = [];
    value.forEach((item: unknown, i) => {
      const type =
        item !== null && typeof item === 'object' && !Array.isArray(item)
          ? (item as Record<string, unknown>)['type']
          : undefined;
      if (typeof type !== 'string') {
        problems.push({
          code: 'missing-required',
          severity: 'error',
          message: `scorer ${i + 1} in the list needs a \`type\` naming the scorer (e.g. \`type: exact_match\`)`,
          range: source.markRange(['scorers', i]),
          suggestions: ['type'],
        });
        return;
      }
      const { type: _type, ...options } = item as Record<string, unknown>;
      entries.push({
        key: type,
        path: ['scorers', i],
        keyPath: ['scorers', i, 'type'],
        options: { ...options, type },
        listForm: true,
      });
    });
    return entries;
  }
  if (node !== undefined && !(isScalar(node) && node.value === null)) {
    problems.push({
      code: 'schema',
      severity: 'error',
      message: '`scorers` must be a mapping of scorer keys to options, or a list of `{type: <key>, …}`',
      range: source.markRange(['scorers']),
    });
  }
  return [];
}

/**
 * A checked config keeps each entry's context until a run prepares the scorer. That context holds the
 * host's environment (secrets included) and the engine's caches, which must never reach a report or a
 * log that serializes the config: as JSON it is only the folder and the time limit.
 */
function keptOutOfJson(context: ScorerContext): ScorerContext {
  Object.defineProperty(context, 'toJSON', {
    value: () => ({ configDir: context.configDir, timeoutMs: context.timeoutMs }),
    enumerable: false,
  });
  return context;
}

/** `lower_is_better`, and `primary_score: {metric, lower_is_better}` (EvalHub's form of both). */
function primaryScoreOf(options: { readonly [key: string]: Json }): { lowerIsBetter: boolean; primaryMetric?: string } {
  const primary = options['primary_score'];
  const p: { readonly [key: string]: Json } =
    primary !== null && typeof primary === 'object' && !Array.isArray(primary)
      ? (primary as { readonly [key: string]: Json })
      : {};
  const named = p['metric'];
  const metric = typeof named === 'string' && named !== '' ? named : undefined;
  const lower = p['lower_is_better'] === true;
  return {
    lowerIsBetter: options['lower_is_better'] === true || lower,
    ...(metric === undefined ? {} : { primaryMetric: metric }),
  };
}
