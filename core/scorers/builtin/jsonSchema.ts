import { jsonParseError } from '../../text/jsonError';
import { resolve } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { RegExpEngine } from 'ajv/dist/types';
import type { Json } from '../../case';
import { fail, pass, type ScorerVerdict } from '../../result';
import schema from '../../../schemas/scorers/json_schema.schema.json';
import { createUserSchemaAjv } from '../../schema/ajv';
import { draft2020MetaErrors } from '../../schema/draft2020Meta';
import { codePointLength, kindOf } from '../support/describe';
import { BoundedRegex, checkPatternSafety, guardFor, normalizeFlags, type VerdictCache } from '../support/boundedRegex';
import { defineScorer, type OptionIssue, type OptionsOf, prepared, type ScorerContext } from '../scorer';
import { readBoundedTextSync } from '../../text/boundedRead';
import { parseJson } from '../../text/jsonDepth';
import { isObject } from '../../../shared/isObject';

type JsonSchemaOptions = OptionsOf<'json_schema'>;

type Segment = string | number;
type JsonObject = { readonly [key: string]: Json };

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';
/** Base URI of a schema without `$id`; only used to tell the schema's own resources from others. */
const LOCAL_BASE = 'https://evallens.invalid/scorer-options/schema.json';
/** Time limit for one `pattern` / `patternProperties` test of a regex recheck could not prove safe. */
export const SCHEMA_PATTERN_TIMEOUT_MS = 100;
/** How many errors the reason lists (all of them, up to DETAIL_ERRORS, are in details). */
const REASON_ERRORS = 3;
const DETAIL_ERRORS = 50;

/** Keywords whose values are data, not schemas: never walked for `$ref`, `$id` or `pattern`. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'examples', 'default']);

/** Passes when the output is valid against a JSON Schema (draft 2020-12, compiled once at load). */
export const jsonSchema = defineScorer('json_schema', {
  origin: 'EvalBook',
  scale: { kind: 'bounded', max: 1 },
  schema,
  check(options, context) {
    const compiled = loadAndCompile(options, context);
    return compiled.ok ? { ok: true } : compiled;
  },
  create(options, context) {
    const compiled = loadAndCompile(options, context);
    if (!compiled.ok) return compiled;
    const { validate, names } = compiled;

    return prepared({
      score({ output }) {
        if (output === undefined) return fail('the case has no output');
        let subject: Json = output;
        let parsed = false;
        if (options.parse_output && typeof output === 'string') {
          try {
            subject = parseJson(output) as Json;
            parsed = true;
          } catch {
            return fail(
              `the output is a string of ${codePointLength(output)} characters that is not valid JSON text (parse_output is on)`,
            );
          }
        }
        let valid: boolean;
        try {
          valid = validate(subject) === true;
        } catch (e) {
          if (e instanceof SchemaPatternTimeout) {
            return {
              status: 'timeout',
              reason: `the schema's ${e.at} was stopped at its ${SCHEMA_PATTERN_TIMEOUT_MS} ms time limit while validating the output (${kindOf(subject)})`,
            } satisfies ScorerVerdict;
          }
          throw e;
        }
        const what = parsed
          ? `the output, parsed as JSON text (${kindOf(subject)}),`
          : `the output (${kindOf(subject)})`;
        if (valid) return pass(`${what} is valid against the schema`);
        const errors = validate.errors ?? [];
        const listed = errors
          .slice(0, REASON_ERRORS)
          .map((e) => `${maskedPath(e.instancePath, names)} ${e.keyword}${missingName(e, names)}`);
        const more = errors.length > REASON_ERRORS ? ', …' : '';
        const hint =
          !options.parse_output &&
          typeof output === 'string' &&
          errors.some((e) => e.instancePath === '' && e.keyword === 'type')
            ? '; the output is a string and nothing is converted (parse_output: true parses JSON text)'
            : '';
        return fail(
          `${what} is not valid against the schema: ${errors.length} error${errors.length === 1 ? '' : 's'} (${listed.join(', ')}${more})${hint}`,
          0,
          {
            error_count: errors.length,
            errors: errors.slice(0, DETAIL_ERRORS).map(detailOf),
          },
        );
      },
    });
  },
});

// ---------------------------------------------------------------------------------------------
// Loading and compiling the user's schema (config load)

/** Where the user's schema came from, for issue paths and messages. */
interface SchemaSource {
  /** Issue path of the option. */
  readonly option: 'schema' | 'schema_path';
  /** How messages name the schema ("the schema", `the schema file "x.json"`). */
  readonly label: string;
}

function loadSchema(
  options: JsonSchemaOptions,
  configDir: string,
): { ok: true; schema: JsonObject; at: SchemaSource } | { ok: false; issue: OptionIssue } {
  if (options.schema !== undefined)
    return { ok: true, schema: options.schema, at: { option: 'schema', label: 'the schema' } };
  const path = options.schema_path ?? '';
  const absolute = resolve(configDir, path);
  const label = `the schema file "${path}"`;
  const read = readBoundedTextSync(absolute, 'schema');
  if (!read.ok) {
    const why = read.code === 'ENOENT' ? 'it does not exist' : read.code === 'EISDIR' ? 'it is a folder' : read.reason;
    return { ok: false, issue: { path: ['schema_path'], message: `${label} (${absolute}) cannot be used: ${why}` } };
  }
  const text = read.text;
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (e) {
    return {
      ok: false,
      issue: { path: ['schema_path'], message: `${label} (${absolute}) is not valid JSON: ${jsonParseError(text, e)}` },
    };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return {
      ok: false,
      issue: {
        path: ['schema_path'],
        message: `${label} (${absolute}) holds ${kindOf(value as Json)}, not a JSON Schema object`,
      },
    };
  }
  return { ok: true, schema: value as JsonObject, at: { option: 'schema_path', label } };
}

/** The user's schema read and compiled, with the property names it declares; or why it cannot be used. */
function loadAndCompile(
  options: JsonSchemaOptions,
  context: ScorerContext,
): { ok: true; validate: ValidateFunction; names: Set<string> } | { ok: false; issues: OptionIssue[] } {
  const loaded = loadSchema(options, context.configDir);
  if (!loaded.ok) return { ok: false, issues: [loaded.issue] };
  const compiled = compileUserSchemaOnce(loaded.schema, loaded.at, context);
  if (!compiled.ok) return compiled;
  return { ok: true, validate: compiled.validate, names: declaredPropertyNames(loaded.schema) };
}

/**
 * Compiled schemas by their JSON text and where they came from, kept in the host's engine context
 * (bounded there). The language server checks a config on every keystroke and compiling one schema
 * takes milliseconds (500 json_schema entries took seconds); a compiled validator is stateless
 * between calls, so configs and entries with the same schema share it.
 */
function compileUserSchemaOnce(
  userSchema: JsonObject,
  at: SchemaSource,
  context: ScorerContext,
): ReturnType<typeof compileUserSchema> {
  const key = `${at.option}\u0000${at.label}\u0000${JSON.stringify(userSchema)}`;
  const cache = context.engine.compiledSchemas;
  return cache.getOrMake(key, () => compileUserSchema(userSchema, at, context.engine.regexVerdicts)) as ReturnType<
    typeof compileUserSchema
  >;
}

function compileUserSchema(
  userSchema: JsonObject,
  at: SchemaSource,
  verdicts: VerdictCache,
): { ok: true; validate: ValidateFunction } | { ok: false; issues: OptionIssue[] } {
  const issueAt = (segments: readonly Segment[], message: string): OptionIssue =>
    at.option === 'schema'
      ? { path: ['schema', ...segments], message }
      : { path: ['schema_path'], message: `${message}${segments.length > 0 ? ` (at ${pointer(segments)})` : ''}` };

  const declared = userSchema['$schema'];
  if (declared !== undefined && (typeof declared !== 'string' || declared.replace(/#$/, '') !== DRAFT_2020_12)) {
    return {
      ok: false,
      issues: [
        issueAt(
          ['$schema'],
          `${at.label} declares $schema ${JSON.stringify(declared)}; only JSON Schema draft 2020-12 (${DRAFT_2020_12}) is supported`,
        ),
      ],
    };
  }
  const issues = [...externalRefIssues(userSchema, at, issueAt), ...patternIssues(userSchema, at, issueAt, verdicts)];
  if (issues.length > 0) return { ok: false, issues };

  const ajv = createUserSchemaAjv({
    // The meta-schema check runs below, with a validator generated at build time: ajv compiling the
    // meta-schema here was most of the cost of a json_schema entry on the language server's first check.
    validateSchema: false,
    code: { regExp: boundedRegExpEngine(verdicts) },
  });
  try {
    const metaErrors = draft2020MetaErrors(userSchema);
    // ajv's own wording for a schema its meta-schema refuses ("schema is invalid: data/type must be …"),
    // on the keyword it is about (the first error's place in the schema, as far as the schema has it).
    const [first] = metaErrors;
    if (first !== undefined)
      return {
        ok: false,
        issues: [
          issueAt(
            existingPrefix(userSchema, first.instancePath),
            `${at.label} does not compile: schema is invalid: ${ajv.errorsText([...metaErrors])}`,
          ),
        ],
      };
    return { ok: true, validate: ajv.compile(userSchema) };
  } catch (e) {
    return { ok: false, issues: [compileIssue(e, userSchema, at, issueAt)] };
  }
}

/** The longest start of a JSON pointer's path that exists in `schema` (the pointer may name a missing keyword). */
function existingPrefix(schema: Json, pointer: string): Segment[] {
  const segments: Segment[] = [];
  let node: Json | undefined = schema;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node) && /^\d+$/.test(key) && Number(key) < node.length) {
      segments.push(Number(key));
      node = (node as readonly Json[])[Number(key)];
    } else if (node !== null && typeof node === 'object' && !Array.isArray(node) && Object.hasOwn(node, key)) {
      segments.push(key);
      node = (node as { readonly [k: string]: Json })[key];
    } else {
      break;
    }
  }
  return segments;
}

function compileIssue(
  e: unknown,
  userSchema: JsonObject,
  at: SchemaSource,
  issueAt: (segments: readonly Segment[], message: string) => OptionIssue,
): OptionIssue {
  const message = e instanceof Error ? e.message : String(e);
  const unknownKeyword = /unknown keyword: "([^"]*)"/.exec(message);
  if (unknownKeyword !== null) {
    const keyword = unknownKeyword[1] ?? '';
    return issueAt(
      locateKey(userSchema, keyword) ?? [],
      `${at.label} uses the keyword "${keyword}", which the JSON Schema draft 2020-12 validator does not support`,
    );
  }
  const unknownFormat = /unknown format "([^"]*)"/.exec(message);
  if (unknownFormat !== null) {
    const format = unknownFormat[1] ?? '';
    return issueAt(
      locateKey(userSchema, 'format', format) ?? [],
      `${at.label} uses the format "${format}", which is not supported (formats are asserted; see ajv-formats for the known ones)`,
    );
  }
  if (e !== null && typeof e === 'object' && 'missingRef' in e) {
    return issueAt(
      [],
      `${at.label} refers to "${String((e as { missingRef: unknown }).missingRef)}", which is not part of the schema; nothing is fetched`,
    );
  }
  return issueAt([], `${at.label} does not compile: ${message}`);
}

/** Every `$ref` / `$dynamicRef` / `$recursiveRef` must point inside the schema: to `#…` or to a `$id` it defines. */
function externalRefIssues(
  userSchema: JsonObject,
  at: SchemaSource,
  issueAt: (segments: readonly Segment[], message: string) => OptionIssue,
): OptionIssue[] {
  const ids = new Set<string>();
  const refs: { ref: string; base: string; segments: Segment[] }[] = [];
  const issues: OptionIssue[] = [];
  walkSchema(userSchema, LOCAL_BASE, [], (node, base, segments) => {
    let here = base;
    const id = node['$id'];
    if (typeof id === 'string') {
      try {
        here = new URL(id, base).href;
      } catch {
        issues.push(issueAt([...segments, '$id'], `${at.label} has a $id that is not a URI reference`));
      }
    }
    ids.add(withoutFragment(here));
    for (const keyword of ['$ref', '$dynamicRef', '$recursiveRef']) {
      const ref = node[keyword];
      if (typeof ref === 'string') refs.push({ ref, base: here, segments: [...segments, keyword] });
    }
    return here;
  });
  for (const { ref, base, segments } of refs) {
    let target: string;
    try {
      target = withoutFragment(new URL(ref, base).href);
    } catch {
      issues.push(issueAt(segments, `${at.label} has a reference "${ref}" that is not a URI reference`));
      continue;
    }
    if (!ids.has(target))
      issues.push(
        issueAt(
          segments,
          `${at.label} refers to "${ref}", outside the schema itself; remote references are refused (nothing is fetched)`,
        ),
      );
  }
  return issues;
}

/** `pattern` and `patternProperties` regexes run on payload: the ReDoS check applies to them too. */
function patternIssues(
  userSchema: JsonObject,
  at: SchemaSource,
  issueAt: (segments: readonly Segment[], message: string) => OptionIssue,
  verdicts: VerdictCache,
): OptionIssue[] {
  const issues: OptionIssue[] = [];
  const check = (source: string, segments: Segment[]) => {
    const safety = checkPatternSafety(source, 'u', { verdicts });
    if (safety.status === 'invalid' || safety.status === 'vulnerable')
      issues.push(issueAt(segments, `${at.label} has a pattern that ${safety.message}`));
  };
  walkSchema(userSchema, LOCAL_BASE, [], (node, base, segments) => {
    const pattern = node['pattern'];
    if (typeof pattern === 'string') check(pattern, [...segments, 'pattern']);
    const patternProperties = node['patternProperties'];
    if (isObject(patternProperties))
      for (const key of Object.keys(patternProperties)) check(key, [...segments, 'patternProperties', key]);
    return base;
  });
  return issues;
}

class SchemaPatternTimeout extends Error {
  constructor(readonly at: string) {
    super(`a schema pattern ran out of time (${at})`);
  }
}

/**
 * ajv's regex engine for this scorer: every `pattern` runs as a BoundedRegex, so a regex recheck
 * could not prove safe is interrupted after SCHEMA_PATTERN_TIMEOUT_MS (validation then throws and
 * the case answers `timeout`). Patterns recheck finds vulnerable were refused before compiling.
 */
function boundedRegExpEngine(verdicts: VerdictCache): RegExpEngine {
  let count = 0;
  const engine = (source: string, flags: string) => {
    const safety = checkPatternSafety(source, flags, { verdicts });
    const guard = guardFor(safety);
    if (guard === undefined)
      throw new Error(`the pattern ${JSON.stringify(source)} ${'message' in safety ? safety.message : 'cannot run'}`);
    const regex = new BoundedRegex(new RegExp(source, normalizeFlags(flags)), guard);
    const label = `schema pattern ${++count}`;
    return {
      test(text: string): boolean {
        const r = regex.exec(text, SCHEMA_PATTERN_TIMEOUT_MS);
        if (r.status === 'timeout') throw new SchemaPatternTimeout(`pattern ${JSON.stringify(source)}`);
        if (r.status === 'failed') throw new Error(`${label} could not run: ${r.message}`);
        return r.status === 'matched';
      },
      toString: () => `/${source}/${flags}`,
    };
  };
  return Object.assign(engine, { code: 'evallensBoundedRegExp' });
}

// ---------------------------------------------------------------------------------------------
// Walking schemas

/**
 * Calls `visit` on every schema object (not on data under const/enum/examples/default), with the
 * base URI its parent established; `visit` returns the base URI for its children.
 */
function walkSchema(
  node: Json,
  base: string,
  segments: Segment[],
  visit: (node: JsonObject, base: string, segments: Segment[]) => string,
): void {
  if (Array.isArray(node)) {
    (node as readonly Json[]).forEach((item, i) => walkSchema(item, base, [...segments, i], visit));
    return;
  }
  if (!isObject(node)) return;
  const childBase = visit(node, base, segments);
  for (const [key, value] of Object.entries(node)) {
    if (DATA_KEYWORDS.has(key)) continue;
    walkSchema(value, childBase, [...segments, key], visit);
  }
}

/** Where a keyword (with that value, when given) first appears in the schema. */
function locateKey(userSchema: JsonObject, key: string, value?: string): Segment[] | undefined {
  let found: Segment[] | undefined;
  walkSchema(userSchema, LOCAL_BASE, [], (node, base, segments) => {
    if (
      found === undefined &&
      Object.prototype.hasOwnProperty.call(node, key) &&
      (value === undefined || node[key] === value)
    )
      found = [...segments, key];
    return base;
  });
  return found;
}

/** Property names the schema itself mentions: reasons may show these; other keys come from the payload. */
function declaredPropertyNames(userSchema: JsonObject): Set<string> {
  const names = new Set<string>();
  walkSchema(userSchema, LOCAL_BASE, [], (node, base) => {
    for (const keyword of ['properties', 'dependentRequired', 'dependentSchemas']) {
      const value = node[keyword];
      if (isObject(value)) for (const name of Object.keys(value)) names.add(name);
    }
    const required = node['required'];
    if (Array.isArray(required))
      for (const name of required as readonly Json[]) if (typeof name === 'string') names.add(name);
    return base;
  });
  return names;
}

function withoutFragment(uri: string): string {
  const hash = uri.indexOf('#');
  return hash < 0 ? uri : uri.slice(0, hash);
}

function pointer(segments: readonly Segment[]): string {
  return `#${segments.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('')}`;
}

// ---------------------------------------------------------------------------------------------
// Reporting

/**
 * An instance path for a reason: array indexes and property names the schema declares stay, any
 * other key (it comes from the output) becomes `*`. `(root)` for the whole output.
 */
function maskedPath(instancePath: string, names: ReadonlySet<string>): string {
  if (instancePath === '') return '(root)';
  return instancePath
    .split('/')
    .slice(1)
    .map((escaped) => {
      const segment = escaped.replace(/~1/g, '/').replace(/~0/g, '~');
      return `/${/^(0|[1-9]\d*)$/.test(segment) || names.has(segment) ? escaped : '*'}`;
    })
    .join('');
}

/**
 * For a `required` or `dependentRequired` error, the property that is missing, quoted: the report's
 * details have it, and the reason should too. Only a name the schema declares is shown.
 */
function missingName(e: ErrorObject, names: ReadonlySet<string>): string {
  if (e.keyword !== 'required' && e.keyword !== 'dependentRequired') return '';
  const missing = (e.params as { missingProperty?: unknown }).missingProperty;
  return typeof missing === 'string' && names.has(missing) ? ` "${missing}"` : '';
}

function detailOf(e: ErrorObject): Json {
  return {
    instance_path: e.instancePath,
    schema_path: e.schemaPath,
    keyword: e.keyword,
    message: e.message ?? '',
    params: JSON.parse(JSON.stringify(e.params ?? {})) as Json,
  };
}
