/**
 * What the schemas say, looked up for the editor: the properties of any place in a run config, the
 * options of a scorer, their descriptions, defaults, enums and examples. Everything comes from
 * `schemas/run-config.schema.json`, `schemas/scorer-common.schema.json` and each registered scorer's
 * own schema, so a new scorer gets completion and hover without a change here. Nothing is read per
 * request: the schemas are bundled JSON, walked where asked.
 */
import runConfigSchema from '../../schemas/run-config.schema.json';
import commonSchema from '../../schemas/scorer-common.schema.json';
import type { ScorerDefinition } from '../../core/scorers/scorer';
import { isObject } from '../../shared/isObject';

export type JsonSchema = { readonly [key: string]: unknown };

export interface PropertyFact {
  readonly name: string;
  readonly schema: JsonSchema;
}

const ROOT = runConfigSchema as unknown as JsonSchema;

function asSchema(value: unknown): JsonSchema | undefined {
  return isObject(value) ? (value as JsonSchema) : undefined;
}

/** Follows a local `$ref` (`#/$defs/name`) of the run-config schema. */
function deref(schema: JsonSchema): JsonSchema {
  const ref = schema['$ref'];
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema;
  let current: unknown = ROOT;
  for (const segment of ref.slice(2).split('/')) current = asSchema(current)?.[segment];
  return asSchema(current) ?? schema;
}

/** The schema and its alternatives (anyOf/oneOf/allOf), dereferenced: where properties may be declared. */
function variants(schema: JsonSchema): JsonSchema[] {
  const own = deref(schema);
  const alternatives = ['anyOf', 'oneOf', 'allOf'].flatMap((keyword) => {
    const list = own[keyword];
    return Array.isArray(list) ? list.map(asSchema).filter((s): s is JsonSchema => s !== undefined) : [];
  });
  return [own, ...alternatives.flatMap(variants)];
}

/** The declared properties of a schema, in declaration order, merged over its alternatives. */
export function propertiesOf(schema: JsonSchema): PropertyFact[] {
  const seen = new Map<string, JsonSchema>();
  for (const variant of variants(schema)) {
    const properties = asSchema(variant['properties']);
    if (properties === undefined) continue;
    for (const [name, value] of Object.entries(properties)) {
      const property = asSchema(value);
      // `{"pattern": true}` in a oneOf only marks a property as allowed; the real one is elsewhere.
      if (property !== undefined && !seen.has(name)) seen.set(name, deref(property));
    }
  }
  return [...seen].map(([name, s]) => ({ name, schema: s }));
}

/** The schema of one property, or of a list's items when `segment` is a number. */
export function childSchema(schema: JsonSchema, segment: string | number): JsonSchema | undefined {
  for (const variant of variants(schema)) {
    if (typeof segment === 'number') {
      const items = asSchema(variant['items']);
      if (items !== undefined) return deref(items);
      continue;
    }
    const property = asSchema(asSchema(variant['properties'])?.[segment]);
    if (property !== undefined) return deref(property);
    const additional = asSchema(variant['additionalProperties']);
    if (additional !== undefined) return deref(additional);
  }
  return undefined;
}

/** The run-config schema of a place outside `scorers:` (path of keys and list indexes). */
export function configSchemaAt(path: readonly (string | number)[]): JsonSchema | undefined {
  let schema: JsonSchema | undefined = ROOT;
  for (const segment of path) {
    if (schema === undefined) return undefined;
    schema = childSchema(schema, segment);
  }
  return schema;
}

export const COMMON_OPTIONS: readonly PropertyFact[] = propertiesOf(commonSchema as unknown as JsonSchema);

/** A scorer's own options, then the options every scorer takes. */
export function scorerOptions(definition: ScorerDefinition): PropertyFact[] {
  const own = propertiesOf(definition.schema);
  const names = new Set(own.map((p) => p.name));
  return [...own, ...COMMON_OPTIONS.filter((p) => !names.has(p.name))];
}

/** The option's schema, own options first. */
export function scorerOption(definition: ScorerDefinition, name: string): JsonSchema | undefined {
  return scorerOptions(definition).find((p) => p.name === name)?.schema;
}

/**
 * The options a new entry of the scorer must have: its `required` list, else the first alternative
 * of a `oneOf`/`anyOf` of required keys (regex: `pattern` rather than `patterns`).
 */
export function requiredOptions(definition: ScorerDefinition): string[] {
  const schema = definition.schema;
  const required = schema['required'];
  if (Array.isArray(required)) return required.filter((r): r is string => typeof r === 'string');
  for (const keyword of ['oneOf', 'anyOf']) {
    const first = asSchema((schema[keyword] as unknown[] | undefined)?.[0]);
    const keys = first?.['required'];
    if (Array.isArray(keys)) return keys.filter((r): r is string => typeof r === 'string');
  }
  return [];
}

export function descriptionOf(schema: JsonSchema): string {
  const text = schema['description'];
  return typeof text === 'string' ? text : '';
}

export function markdownOf(schema: JsonSchema): string {
  const markdown = schema['markdownDescription'];
  return typeof markdown === 'string' ? markdown : descriptionOf(schema);
}

/** The first sentence of a description, for one-line summaries. */
export function summaryOf(schema: JsonSchema): string {
  const text = descriptionOf(schema);
  const end = text.search(/\.(\s|$)/);
  return end === -1 ? text : text.slice(0, end + 1);
}

/** The values a property takes from a fixed set: its enum, `const`s of its alternatives, true/false for booleans. */
export function fixedValues(schema: JsonSchema): unknown[] {
  const values: unknown[] = [];
  for (const variant of variants(schema)) {
    const list = variant['enum'];
    if (Array.isArray(list)) values.push(...(list as unknown[]));
    if ('const' in variant) values.push(variant['const']);
    if (typesOf(variant).includes('boolean')) values.push(true, false);
  }
  return [...new Set(values)];
}

export function typesOf(schema: JsonSchema): string[] {
  const types = new Set<string>();
  for (const variant of variants(schema)) {
    const type = variant['type'];
    if (typeof type === 'string') types.add(type);
    if (Array.isArray(type)) for (const t of type) if (typeof t === 'string') types.add(t);
  }
  return [...types];
}

/** A value to write for a new option: its default, else its first example, else an empty value of its type. */
export function placeholderValue(schema: JsonSchema): unknown {
  if ('default' in schema) return schema['default'];
  const examples = schema['examples'];
  if (Array.isArray(examples) && examples.length > 0) return examples[0] as unknown;
  const values = fixedValues(schema);
  if (values.length > 0) return values[0];
  const type = typesOf(schema)[0];
  return type === 'array'
    ? []
    : type === 'object'
      ? {}
      : type === 'integer' || type === 'number'
        ? 0
        : type === 'boolean'
          ? false
          : '';
}

/** A JSON value as YAML text on one line (JSON is YAML; plain words stay plain). */
export function yamlValue(value: unknown): string {
  if (typeof value === 'string')
    return /^[A-Za-z_][\w .\-/]*$/.test(value) &&
      !/^(true|false|null|yes|no|on|off|~)$/i.test(value) &&
      !value.endsWith(' ')
      ? value
      : JSON.stringify(value);
  return JSON.stringify(value) ?? 'null';
}
