import { isMap, isScalar, isSeq, type Node } from 'yaml';
import type { Json } from '../case';
import type { Problem } from '../problem';
import commonSchema from '../../schemas/scorer-common.schema.json';
import type { OptionsValidators } from '../scorers/optionsValidator';
import type { ScorerRegistry } from '../scorers/registry';
import { DEFAULT_TIMEOUT_MS, type ScorerInstance } from './runConfig';
import { closestNames, didYouMean } from './closest';
import { schemaProblems } from './schemaMessages';
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
  },
): { instances: ScorerInstance[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const instances: ScorerInstance[] = [];
  const names = new Map<string, ScorerInstance>();
  for (const entry of entriesOf(source, value, problems)) {
    const definition = context.registry.get(entry.key);
    if (definition === undefined) {
      const suggestions = closestNames(entry.key, context.registry.keys());
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
      problems.push({ code: 'schema', severity: 'error', message: `the options of "${entry.key}" must be a mapping, or empty (null) when it needs none`, range: source.valueRange(entry.path) });
      continue;
    }
    const options = { ...((entry.options ?? {}) as { [key: string]: Json }) };
    const declared = (definition.schema['properties'] as object | undefined) ?? {};
    for (const [key, value] of Object.entries(context.optionDefaults ?? {})) {
      if (key in declared && !(key in options)) options[key] = value;
    }
    const errors = context.validators.validate(definition, options);
    if (errors.length > 0) {
      const known = [...Object.keys((definition.schema['properties'] as object | undefined) ?? {}), ...COMMON_KEYS, ...(entry.listForm ? ['type'] : [])];
      const found = schemaProblems(errors, source, { basePath: entry.path, knownKeys: () => known });
      // Never let a rejected entry pass in silence, even if no message fits the error.
      problems.push(...(found.length > 0 ? found : [{ code: 'schema', severity: 'error' as const, message: `the options of "${entry.key}" are not valid`, range: source.valueRange(entry.path) }]));
      continue;
    }
    const timeoutMs = typeof options['timeout_ms'] === 'number' ? options['timeout_ms'] : (context.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS);
    const made = definition.create(options, {
      configDir: context.configDir,
      timeoutMs,
      env: context.env,
      ...(context.fileExists === undefined ? {} : { fileExists: context.fileExists }),
    });
    if (!made.ok) {
      for (const issue of made.issues) {
        problems.push({ code: 'invalid-option', severity: 'error', message: `${entry.key}: ${issue.message}`, range: source.valueRange([...entry.path, ...issue.path]) });
      }
      continue;
    }
    for (const notice of made.notices ?? []) {
      problems.push({ code: 'scorer-notice', severity: 'information', message: `${entry.key}: ${notice.message}`, range: source.valueRange([...entry.path, ...notice.path]) });
    }
    const name = typeof options['name'] === 'string' ? options['name'] : entry.key;
    const threshold = typeof options['threshold'] === 'number' ? options['threshold'] : definition.defaultThreshold;
    const instance: ScorerInstance = {
      name,
      definition,
      options,
      scorer: made.scorer,
      ...(made.acrossTrials === undefined ? {} : { acrossTrials: made.acrossTrials }),
      ...(threshold === undefined ? {} : { threshold }),
      weight: typeof options['weight'] === 'number' && options['weight'] > 0 ? options['weight'] : 1,
      lowerIsBetter: options['lower_is_better'] === true,
      timeoutMs,
      range: entry.listForm ? source.valueRange(entry.keyPath) : source.keyRange(entry.keyPath),
    };
    const clash = names.get(name);
    if (clash !== undefined) {
      problems.push({
        code: 'duplicate-scorer-name',
        severity: 'error',
        message: `two scorers report as "${name}" (the first at line ${clash.range.start.line + 1}); give one a different \`name\``,
        range: instance.range,
      });
      continue;
    }
    names.set(name, instance);
    instances.push(instance);
  }
  return { instances, problems };
}

function entriesOf(source: YamlSource, value: unknown, problems: Problem[]): Entry[] {
  const node: Node | undefined = source.nodeAt(['scorers']);
  if (isMap(node) && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value as Record<string, unknown>).map(([key, options]) => ({ key, path: ['scorers', key], keyPath: ['scorers', key], options, listForm: false }));
  }
  if (isSeq(node) && Array.isArray(value)) {
    const entries: Entry[] = [];
    value.forEach((item: unknown, i) => {
      const type = item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as Record<string, unknown>)['type'] : undefined;
      if (typeof type !== 'string') {
        problems.push({ code: 'missing-required', severity: 'error', message: `scorer ${i + 1} in the list needs a \`type\` naming the scorer (e.g. \`type: exact_match\`)`, range: source.valueRange(['scorers', i]), suggestions: ['type'] });
        return;
      }
      const { type: _type, ...options } = item as Record<string, unknown>;
      entries.push({ key: type, path: ['scorers', i], keyPath: ['scorers', i, 'type'], options: { ...options, type }, listForm: true });
    });
    return entries;
  }
  if (node !== undefined && !(isScalar(node) && node.value === null)) {
    problems.push({ code: 'schema', severity: 'error', message: '`scorers` must be a mapping of scorer keys to options, or a list of `{type: <key>, …}`', range: source.valueRange(['scorers']) });
  }
  return [];
}
