import type { Json } from '../case';
import type { Nl2sqlFormat, Nl2sqlSource } from './source';
import { describeKind } from './valueKinds';
import { isObject } from '../../shared/isObject';

/** What one NL2SQL item becomes: a raw case for `caseFromValue`, nothing (a filter left it out), or a mistake. */
export type ItemOutcome =
  | { readonly kind: 'case'; readonly value: { readonly [key: string]: Json } }
  | { readonly kind: 'dropped' }
  | { readonly kind: 'invalid'; readonly message: string; readonly id?: string };

type Item = { readonly [key: string]: unknown };
type Fields = { [key: string]: Json };

const QUERY_TYPES = ['dql', 'dml', 'ddl'];

/** The dialect BIRD items are read for when the config names none: BIRD's own databases are SQLite. */
export const BIRD_DEFAULT_DIALECT = 'sqlite';

/**
 * The NL2SQL format an item looks like, for a config that names none: `nl_prompt` makes it
 * evalbench-standard-format; `question` with `SQL`, `db_id` or `question_id` makes it BIRD.
 */
export function formatOfItem(item: unknown): Nl2sqlFormat | undefined {
  if (!isObject(item)) return undefined;
  if (Object.hasOwn(item, 'nl_prompt')) return 'evalbench-standard-format';
  if (Object.hasOwn(item, 'question') && ['SQL', 'db_id', 'question_id'].some((key) => Object.hasOwn(item, key)))
    return 'bird-standard-format';
  return undefined;
}

/**
 * An evalbench-standard-format item as a case: `id` (string form), `input` = `nl_prompt`, `output`
 * = the recorded `generated_sql` (a string, or `{dialect: sql}`), `expected` = the item's SQL for the
 * chosen dialect (`{golden_sql, eval_query?, setup_sql?, cleanup_sql?, query_type, database,
 * dialect}`), `metadata` = `{tags, other}` with `other`'s values JSON-stringified as EvalBench does.
 * The filters run first, on the fields they need, as EvalBench's do: an item they leave out is
 * dropped without its other fields being checked.
 */
export function standardItem(item: unknown, options: Nl2sqlSource): ItemOutcome {
  if (!isObject(item)) return invalid(`an item must be a JSON object, not ${describeKind(item)}`);
  const id = idOf(item['id']);
  if (id === undefined) return invalid(`field "id" must be a string or a number, not ${describeKind(item['id'])}`);
  const fail = (message: string): ItemOutcome => invalid(message, id);
  const queryType = item['query_type'];
  if (typeof queryType !== 'string' || !QUERY_TYPES.includes(queryType.toLowerCase())) {
    return fail(
      typeof queryType === 'string'
        ? 'field "query_type" must be dql, dml or ddl (in any case)'
        : `field "query_type" must be a string (dql, dml or ddl), not ${describeKind(queryType)}`,
    );
  }
  const database = item['database'];
  if (typeof database !== 'string') return fail(`field "database" must be a string, not ${describeKind(database)}`);
  const dialects = item['dialects'];
  if (!isStringList(dialects))
    return fail(`field "dialects" must be an array of strings, not ${describeKind(dialects)}`);
  if (dialects.length === 0) return fail('field "dialects" lists no dialect, so the item runs nowhere');
  if (!keptByType(queryType, options) || !keptByDatabase(database, options)) return { kind: 'dropped' };
  const dialect = chooseDialect(dialects, options.dialects);
  if (dialect === undefined) return { kind: 'dropped' };

  const prompt = item['nl_prompt'];
  if (typeof prompt !== 'string') return fail(`field "nl_prompt" must be a string, not ${describeKind(prompt)}`);
  const expected: Fields = {};
  const golden = dialectStatements(item, 'golden_sql', dialect, { required: true, nulls: false });
  if (!golden.ok) return fail(golden.message);
  expected['golden_sql'] = golden.statements ?? [];
  for (const field of ['eval_query', 'setup_sql', 'cleanup_sql']) {
    const statements = dialectStatements(item, field, dialect, { required: false, nulls: true });
    if (!statements.ok) return fail(statements.message);
    if (statements.statements !== undefined && statements.statements.length > 0)
      expected[field] = statements.statements;
  }
  Object.assign(expected, { query_type: queryType.toLowerCase(), database, dialect });

  const tags = item['tags'];
  if (tags !== undefined && !Array.isArray(tags))
    return fail(`field "tags" must be an array, not ${describeKind(tags)}`);
  const other = item['other'];
  if (other !== undefined && !isObject(other))
    return fail(`field "other" must be an object, not ${describeKind(other)}`);
  const metadata: Fields = {
    tags: (tags ?? []) as Json[],
    other: Object.fromEntries(Object.entries(other ?? {}).map(([key, value]) => [key, pythonJsonDumps(value as Json)])),
  };
  return recorded(item, id, dialect, { id, input: prompt, expected, metadata });
}

/**
 * A BIRD item as a case, as EvalBench's BIRD loader reads it: `question_id` (else `id`); `input` =
 * `question` + `evidence` joined with nothing between them and backticks turned into double quotes
 * (both may also come from `other`); `db_id`, else `stem` (the dataset file's name without `.json`);
 * golden SQL from `SQL` (one statement, for every dialect), else from `golden_sql` for the chosen
 * dialect; an item whose golden SQL is empty is dropped. Every item is a dql query. `difficulty`
 * becomes the tag. `output` as in `standardItem`.
 */
export function birdItem(item: unknown, options: Nl2sqlSource, stem: string): ItemOutcome {
  if (!isObject(item)) return invalid(`an item must be a JSON object, not ${describeKind(item)}`);
  const rawId = Object.hasOwn(item, 'question_id') ? item['question_id'] : item['id'];
  const id = idOf(rawId);
  if (id === undefined)
    return invalid(`field "question_id" (or "id") must be a string or a number, not ${describeKind(rawId)}`);
  const fail = (message: string): ItemOutcome => invalid(message, id);
  const other = isObject(item['other']) ? item['other'] : {};
  const question = item['question'] ?? other['question'];
  if (typeof question !== 'string') return fail(`field "question" must be a string, not ${describeKind(question)}`);
  const evidence = item['evidence'] ?? other['evidence'] ?? '';
  if (typeof evidence !== 'string') return fail(`field "evidence" must be a string, not ${describeKind(evidence)}`);
  const database = item['db_id'] ?? stem;
  if (typeof database !== 'string') return fail(`field "db_id" must be a string, not ${describeKind(database)}`);
  if (!keptByType('dql', options) || !keptByDatabase(database, options)) return { kind: 'dropped' };

  let dialect: string | undefined;
  let golden: Json[];
  if (Object.hasOwn(item, 'SQL')) {
    const sql = item['SQL'];
    if (sql !== null && typeof sql !== 'string') return fail(`field "SQL" must be a string, not ${describeKind(sql)}`);
    dialect = options.dialects?.[0] ?? BIRD_DEFAULT_DIALECT;
    golden = sql === null || sql === '' ? [] : [sql];
  } else if (isObject(item['golden_sql'])) {
    const configured = options.dialects ?? [];
    dialect =
      configured.length > 0
        ? chooseDialect(Object.keys(item['golden_sql']), configured)
        : Object.keys(item['golden_sql'])[0];
    if (dialect === undefined) return { kind: 'dropped' };
    const statements = dialectStatements(item, 'golden_sql', dialect, { required: true, nulls: false });
    if (!statements.ok) return fail(statements.message);
    golden = statements.statements ?? [];
  } else {
    return fail(
      item['golden_sql'] === undefined
        ? 'the item has neither "SQL" nor "golden_sql"'
        : `field "golden_sql" must be an object of dialect → SQL, not ${describeKind(item['golden_sql'])}`,
    );
  }
  if (golden.length === 0) return { kind: 'dropped' };

  const difficulty = item['difficulty'];
  const tags = difficulty !== undefined ? [difficulty] : Array.isArray(item['tags']) ? item['tags'] : [];
  const metadata: Fields = {
    tags: tags as Json[],
    ...(difficulty === undefined ? {} : { difficulty: difficulty as Json }),
  };
  const expected: Fields = { golden_sql: golden, query_type: 'dql', database, dialect };
  return recorded(item, id, dialect, { id, input: `${question}${evidence}`.replaceAll('`', '"'), expected, metadata });
}

/**
 * Python's `json.dumps` with its defaults, which EvalBench applies to each value of `other`: `", "`
 * and `": "` separators, non-ASCII characters escaped. Numbers are written as JavaScript writes them,
 * since the JSON reader no longer knows whether `1.0` had a fraction.
 */
export function pythonJsonDumps(value: Json): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return pythonString(value);
  if (typeof value === 'number')
    return Number.isFinite(value) ? String(value) : value > 0 ? 'Infinity' : value < 0 ? '-Infinity' : 'NaN';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return `[${(value as readonly Json[]).map(pythonJsonDumps).join(', ')}]`;
  return `{${Object.entries(value)
    .map(([key, item]) => `${pythonString(key)}: ${pythonJsonDumps(item)}`)
    .join(', ')}}`;
}

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
};

function pythonString(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const char = text.charAt(i);
    const code = text.charCodeAt(i);
    out += SHORT_ESCAPES[char] ?? (code < 0x20 || code > 0x7e ? `\\u${code.toString(16).padStart(4, '0')}` : char);
  }
  return `${out}"`;
}

function invalid(message: string, id?: string): ItemOutcome {
  return { kind: 'invalid', message, ...(id === undefined ? {} : { id }) };
}

function idOf(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

function isStringList(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((entry) => typeof entry === 'string');
}

function keptByType(queryType: string, options: Nl2sqlSource): boolean {
  const wanted = options.queryTypes;
  return wanted === undefined || wanted.some((type) => type.toLowerCase() === queryType.toLowerCase());
}

function keptByDatabase(database: string, options: Nl2sqlSource): boolean {
  const wanted = options.databases;
  return wanted === undefined || wanted.length === 0 || wanted.includes(database);
}

/** The first of the configured dialects the item supports (config order), else the item's first; undefined when they share none. */
function chooseDialect(supported: readonly string[], configured: readonly string[] | undefined): string | undefined {
  if (configured === undefined || configured.length === 0) return supported[0];
  return configured.find((dialect) => supported.includes(dialect));
}

type Statements =
  { readonly ok: true; readonly statements?: Json[] } | { readonly ok: false; readonly message: string };

/**
 * The statements of `item[field][dialect]`: a list (of strings, and of nulls where `nulls`), or one
 * string. A missing field or dialect is no statements; a missing `golden_sql` (`required`) is a mistake.
 */
function dialectStatements(
  item: Item,
  field: string,
  dialect: string,
  rules: { readonly required: boolean; readonly nulls: boolean },
): Statements {
  const byDialect = item[field];
  if (byDialect === undefined || (byDialect === null && !rules.required)) {
    return rules.required ? { ok: false, message: `the item has no "${field}"` } : { ok: true };
  }
  if (!isObject(byDialect))
    return {
      ok: false,
      message: `field "${field}" must be an object of dialect → SQL statements, not ${describeKind(byDialect)}`,
    };
  const entry = byDialect[dialect];
  if (entry === undefined || entry === null) return { ok: true };
  if (typeof entry === 'string') return { ok: true, statements: [entry] };
  const allowed = (value: unknown) => typeof value === 'string' || (rules.nulls && value === null);
  if (!Array.isArray(entry) || !entry.every(allowed)) {
    return {
      ok: false,
      message: `field "${field}.${dialect}" must be an array of SQL strings${rules.nulls ? ' (or nulls)' : ''}, not ${describeKind(entry)}${Array.isArray(entry) ? ' holding other values' : ''}`,
    };
  }
  return { ok: true, statements: entry as Json[] };
}

/** Adds what the item recorded of the system under test: `generated_sql` as `output`, and `trials`. */
function recorded(item: Item, id: string, dialect: string, fields: Fields): ItemOutcome {
  const output = generatedSql(item['generated_sql'], dialect, 'generated_sql');
  if (!output.ok) return invalid(output.message, id);
  const trials = item['trials'];
  if (trials === undefined)
    return { kind: 'case', value: { ...fields, ...(output.sql === undefined ? {} : { output: output.sql }) } };
  if (!Array.isArray(trials)) return invalid(`field "trials" must be an array, not ${describeKind(trials)}`, id);
  const read: Json[] = [];
  for (const [n, trial] of trials.entries()) {
    if (!isObject(trial)) return invalid(`trial ${n + 1} must be an object, not ${describeKind(trial)}`, id);
    const sql = generatedSql(trial['generated_sql'], dialect, `trials[${n}].generated_sql`);
    if (!sql.ok) return invalid(sql.message, id);
    const error = trial['error'];
    if (error !== undefined && error !== null && typeof error !== 'string')
      return invalid(`field "trials[${n}].error" must be a string, not ${describeKind(error)}`, id);
    read.push({
      ...(sql.sql === undefined ? {} : { output: sql.sql }),
      ...(typeof error === 'string' ? { error } : {}),
    });
  }
  return {
    kind: 'case',
    value: { ...fields, ...(output.sql === undefined ? {} : { output: output.sql }), trials: read },
  };
}

/** A recorded `generated_sql`: a string, or `{dialect: sql}` read for `dialect`; null or absent is no output. */
function generatedSql(
  value: unknown,
  dialect: string,
  field: string,
): { readonly ok: true; readonly sql?: string } | { readonly ok: false; readonly message: string } {
  if (value === undefined || value === null) return { ok: true };
  if (typeof value === 'string') return { ok: true, sql: value };
  if (isObject(value)) {
    const sql = value[dialect];
    if (sql === undefined || sql === null) return { ok: true };
    if (typeof sql === 'string') return { ok: true, sql };
    return { ok: false, message: `field "${field}.${dialect}" must be a string, not ${describeKind(sql)}` };
  }
  return {
    ok: false,
    message: `field "${field}" must be a string or an object of dialect → SQL, not ${describeKind(value)}`,
  };
}
