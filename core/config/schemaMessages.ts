import type { ErrorObject } from 'ajv';
import type { Problem } from '../problem';
import { closestNames, didYouMean } from './closest';
import type { YamlSource } from './yamlSource';

/** Turns ajv errors into problems a person understands, each on the exact key or value it is about. */
export function schemaProblems(
  errors: readonly ErrorObject[],
  source: YamlSource,
  options: {
    basePath: readonly (string | number)[];
    knownKeys: (path: readonly (string | number)[]) => readonly string[];
  },
): Problem[] {
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const e of relevant(errors)) {
    const path = [...options.basePath, ...pointerSegments(e.instancePath)];
    const problem = describe(e, path, source, options.knownKeys);
    const key = `${problem.range.start.offset}:${problem.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      problems.push(problem);
    }
  }
  return problems;
}

/**
 * Keeps the errors that explain a mistake best. An anyOf/oneOf whose alternatives all failed the same
 * simple way (each wanted another type, or each another key) is said once, as the alternatives; an
 * alternative that failed for a reason of its own is said as that reason; a oneOf that matched
 * several alternatives is said as itself. `if` and `allOf` only wrap errors said elsewhere.
 */
function relevant(errors: readonly ErrorObject[]): ErrorObject[] {
  const umbrella = new Set(['anyOf', 'oneOf', 'if', 'allOf']);
  const specific = errors.filter((e) => !umbrella.has(e.keyword));
  const kept: ErrorObject[] = [];
  const explained = new Set<ErrorObject>();
  for (const alt of errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')) {
    const under = specific.filter((e) => e.schemaPath.startsWith(`${alt.schemaPath}/`));
    const sameKind = (keyword: string) =>
      under.length > 0 && under.every((e) => e.keyword === keyword && e.instancePath === alt.instancePath);
    if (under.length === 0 || sameKind('type') || sameKind('required')) {
      kept.push(alt);
      for (const e of under) explained.add(e);
    }
  }
  return [...kept, ...specific.filter((e) => !explained.has(e))];
}

function describe(
  e: ErrorObject,
  path: (string | number)[],
  source: YamlSource,
  knownKeys: (path: readonly (string | number)[]) => readonly string[],
): Problem {
  const label = path.length === 0 ? 'the config' : `\`${path.join('.')}\``;
  const base = { code: 'schema', severity: 'error' as const };
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const key = String(params['additionalProperty'] ?? params['unevaluatedProperty']);
      const suggestions = closestNames(key, knownKeys(path));
      const where = path.length === 0 ? 'at the top level' : `in ${label}`;
      return {
        ...base,
        code: 'unknown-key',
        message: `unknown key "${key}" ${where}${didYouMean(suggestions)}`,
        range: source.keyRange([...path, key]),
        suggestions,
      };
    }
    case 'required': {
      const missing = String(params['missingProperty']);
      return {
        ...base,
        code: 'missing-required',
        message: `${label} is missing the required key "${missing}"`,
        range: source.keyRange(path),
        suggestions: [missing],
      };
    }
    case 'type':
      return {
        ...base,
        message: `${label} must be ${article(String(params['type']))}, not ${kindOfData(e.data)}`,
        range: source.markRange(path),
      };
    case 'enum': {
      const allowed = (params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v));
      const suggestions =
        typeof e.data === 'string'
          ? closestNames(
              e.data,
              allowed.map((a) => JSON.parse(a) as string).filter((a) => typeof a === 'string'),
            )
          : [];
      return {
        ...base,
        message: `${label} must be one of ${allowed.join(', ')}; got ${JSON.stringify(e.data)}${didYouMean(suggestions)}`,
        range: source.markRange(path),
        suggestions,
      };
    }
    case 'const':
      return {
        ...base,
        message: `${label} must be ${JSON.stringify(params['allowedValue'])}; got ${JSON.stringify(e.data)}`,
        range: source.markRange(path),
      };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      const words: Record<string, string> = {
        minimum: 'at least',
        maximum: 'at most',
        exclusiveMinimum: 'more than',
        exclusiveMaximum: 'less than',
      };
      return {
        ...base,
        message: `${label} must be ${words[e.keyword] ?? ''} ${String(params['limit'])}; got ${JSON.stringify(e.data)}`,
        range: source.markRange(path),
      };
    }
    case 'minLength':
      return {
        ...base,
        message: `${label} must not be shorter than ${String(params['limit'])} character${params['limit'] === 1 ? '' : 's'}`,
        range: source.markRange(path),
      };
    case 'maxLength':
      return {
        ...base,
        message: `${label} must not be longer than ${String(params['limit'])} characters`,
        range: source.markRange(path),
      };
    case 'minItems':
      return {
        ...base,
        message: `${label} must have at least ${String(params['limit'])} item${params['limit'] === 1 ? '' : 's'}`,
        range: source.markRange(path),
      };
    case 'maxItems':
      return {
        ...base,
        message: `${label} must have at most ${String(params['limit'])} items`,
        range: source.markRange(path),
      };
    case 'minProperties':
      return { ...base, message: `${label} must not be empty`, range: source.markRange(path) };
    case 'uniqueItems':
      return {
        ...base,
        message: `${label} lists the same item twice (items ${Number(params['j']) + 1} and ${Number(params['i']) + 1})`,
        range: source.markRange(path),
      };
    case 'pattern':
      return {
        ...base,
        message: `${label} must match the pattern ${String(params['pattern'])}`,
        range: source.markRange(path),
      };
    case 'format':
      return {
        ...base,
        message: `${label} must be a valid ${String(params['format'])}`,
        range: source.markRange(path),
      };
    case 'anyOf':
    case 'oneOf': {
      const keys = requiredAlternatives(e);
      if (keys.length > 0) {
        const listed = keys.map((k) => `"${k}"`).join(' or ');
        const passing = (e.params as { passingSchemas?: unknown }).passingSchemas;
        if (Array.isArray(passing)) {
          return {
            ...base,
            code: 'conflicting-options',
            message: `${label} takes ${listed}, not both`,
            range: source.keyRange(path),
            suggestions: keys,
          };
        }
        const several = e.keyword === 'anyOf' ? (keys.length === 2 ? ' (or both)' : ' (or several)') : '';
        return {
          ...base,
          code: 'missing-required',
          message: `${label} needs ${listed}${several}`,
          range: source.keyRange(path),
          suggestions: keys,
        };
      }
      return {
        ...base,
        message: `${label} must be ${alternatives(e)}, not ${kindOfData(e.data)}`,
        range: source.markRange(path),
      };
    }
    case 'not': {
      const pair = forbiddenTogether(e);
      if (pair.length > 0) {
        const listed = pair
          .map(([key, value]) => (value === undefined ? `"${key}"` : `\`${key}: ${JSON.stringify(value)}\``))
          .join(' or ');
        const last = pair[pair.length - 1]?.[0] ?? '';
        return {
          ...base,
          code: 'conflicting-options',
          message: `${label} takes ${listed}, not both`,
          range: source.keyRange([...path, last]),
          suggestions: pair.map(([key]) => key),
        };
      }
      return { ...base, message: `${label} ${e.message ?? 'is not valid'}`, range: source.valueRange(path) };
    }
    default:
      return { ...base, message: `${label} ${e.message ?? 'is not valid'}`, range: source.markRange(path) };
  }
}

/**
 * The keys a `not: {required: [a, b], properties: {a: {const: x}, …}}` forbids together (with the value
 * each must not have, when the schema names one); empty when the `not` says anything else. Needs ajv's
 * `verbose` (the options' validator has it) for the `not`'s own schema.
 */
function forbiddenTogether(e: ErrorObject): (readonly [string, unknown])[] {
  const schema = e.schema as
    { required?: unknown; properties?: Record<string, { const?: unknown } | boolean> } | undefined;
  if (
    schema === undefined ||
    !Array.isArray(schema.required) ||
    schema.required.length < 2 ||
    !schema.required.every((k) => typeof k === 'string')
  )
    return [];
  return (schema.required as string[]).map((key) => {
    const property = schema.properties?.[key];
    return [key, typeof property === 'object' && 'const' in property ? property.const : undefined] as const;
  });
}

/** The keys of alternatives that are each just `{required: [key]}`; empty when they are anything else. */
function requiredAlternatives(e: ErrorObject): string[] {
  const schemas = Array.isArray(e.schema) ? (e.schema as { required?: unknown }[]) : [];
  const keys = schemas.map((s) =>
    Array.isArray(s.required) && s.required.length === 1 && typeof s.required[0] === 'string'
      ? s.required[0]
      : undefined,
  );
  return keys.every((k): k is string => k !== undefined) ? keys : [];
}

function alternatives(e: ErrorObject): string {
  const schemas = Array.isArray(e.schema) ? (e.schema as { type?: unknown; $ref?: unknown }[]) : [];
  const names = schemas.map((s) =>
    typeof s.type === 'string'
      ? article(s.type)
      : typeof s.$ref === 'string'
        ? `a ${s.$ref.split('_').pop() ?? 'value'}`
        : 'a valid value',
  );
  return names.length > 0 ? names.join(' or ') : 'a valid value';
}

function article(type: string): string {
  const names: Record<string, string> = {
    object: 'a mapping',
    array: 'a list',
    string: 'a string',
    integer: 'an integer',
    number: 'a number',
    boolean: 'true or false',
    null: 'empty (null)',
  };
  return type
    .split(',')
    .map((t) => names[t] ?? t)
    .join(' or ');
}

function kindOfData(data: unknown): string {
  if (data === null || data === undefined) return 'empty';
  if (Array.isArray(data)) return 'a list';
  if (typeof data === 'object') return 'a mapping';
  if (typeof data === 'number') return Number.isInteger(data) ? `the number ${data}` : `the number ${data}`;
  if (typeof data === 'boolean') return `${data}`;
  return `the string ${JSON.stringify(data)}`;
}

/** JSON Pointer → path segments (`~1` → `/`, `~0` → `~`; digits become indexes). */
export function pointerSegments(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}
