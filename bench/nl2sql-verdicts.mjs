// The ground truth of the NL2SQL benchmark: what each of the seven SQL scorers must answer for a case,
// computed in plain JavaScript from query results, by the rules the scorers' schemas document
// (schemas/scorers/{recall_match,set_match,executable_sql,returned_sql,regexp_matcher,hybrid_xa_judge}
// .schema.json and schemas/scorers/evalbench/exact_match.schema.json). No EvalLens code: bench/nl2sql.mjs
// runs it on sql.js results when it generates the cases, and bench/nl2sql-replay.mjs on the results of
// its own direct runs (sql.js, pg), so every engine's results are checked against the same rules.
//
// A query run is { query: Outcome, evals: Outcome[] } with Outcome = { ok: true, columns, rows } |
// { ok: false, error }; rows are arrays in column order holding null, numbers, strings or booleans.
//
// Only what the benchmark's data can reach is implemented (no document rows, no thresholds, no `nan`);
// `scorerVerdicts` answers 'pass' or 'fail' for each scorer key.

/** The seven SQL scorers of the benchmark, in the order the run configs list them. */
export const SCORERS = [
  'exact_match',
  'recall_match',
  'set_match',
  'executable_sql',
  'returned_sql',
  'regexp_matcher',
  'hybrid_xa_judge',
];

/** regexp_matcher's options in the run configs: "the generated SQL must not select every column". */
export const REGEXP = { regexp_string_list: ['(?i)select\\s+\\*'], invert_results: true };
const REGEXP_JS = /select\s+\*/i; // the same pattern in ECMAScript (ASCII data)

/** Python's `==` on the cell values the engines return: 1 == 1.0 == True, None == None. */
function pyEq(a, b) {
  const x = typeof a === 'boolean' ? Number(a) : a;
  const y = typeof b === 'boolean' ? Number(b) : b;
  if (x === null || y === null) return x === y;
  return typeof x === typeof y && x === y;
}

/** A hashable key for a cell, equal exactly when the cells are `==` (for sets of rows). */
function cellKey(v) {
  if (v === null) return 'N';
  if (typeof v === 'number' || typeof v === 'boolean') return `n${Object.is(Number(v), -0) ? 0 : Number(v)}`;
  return `s${v}`;
}

/** Rows as Python dicts: `dict(zip(columns, row))` (a repeated name keeps its first place and its last value). */
function dicts(outcome) {
  if (!outcome.ok) return [];
  const names = outcome.columns;
  const unique = [...new Set(names)];
  return outcome.rows.map((row) => {
    const values = new Map();
    names.forEach((name, i) => values.set(name, row[i] ?? null));
    return { keys: unique, values: unique.map((k) => values.get(k)) };
  });
}

function dictEq(a, b) {
  if (a.keys.length !== b.keys.length) return false;
  for (let i = 0; i < a.keys.length; i++) {
    const j = b.keys.indexOf(a.keys[i]);
    if (j < 0 || !pyEq(a.values[i], b.values[j])) return false;
  }
  return true;
}

const dictKey = (d) =>
  JSON.stringify(
    d.keys.map((k, i) => [k, cellKey(d.values[i])]).sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0)),
  );
const tupleKey = (d) => JSON.stringify(d.values.map(cellKey));
const listsEq = (a, b) => a.length === b.length && a.every((d, i) => dictEq(d, b[i]));

/** The run's error: the query's, else the first failing eval query's (EvalBench records one per run). */
function runError(run) {
  if (!run.query.ok) return run.query.error;
  for (const e of run.evals) if (!e.ok) return e.error;
  return undefined;
}

const evalDicts = (run) => run.evals.flatMap(dicts);

/** EvalBench's exact_match: eval results when the golden run has some rows there, else execution results; lists of dicts, in order. */
function exactMatch(golden, generated) {
  if (runError(golden) !== undefined || runError(generated) !== undefined) return false;
  const goldenEval = evalDicts(golden);
  if (goldenEval.length > 0) return listsEq(goldenEval, evalDicts(generated));
  return listsEq(dicts(golden.query), dicts(generated.query));
}

/** EvalBench's recall (matches ÷ generated rows; 100 when the lists are equal); errors count as no rows. */
function recallMatch(golden, generated) {
  const g = dicts(golden.query);
  const p = dicts(generated.query);
  if (listsEq(g, p)) return true;
  if (p.length === 0) return false;
  const gk = new Set(g.map(dictKey));
  const pk = new Set(p.map(dictKey));
  let matches = 0;
  for (const k of gk) if (pk.has(k)) matches++;
  return (matches / p.length) * 100 === 100;
}

/** EvalBench's set_match on flat rows: sets of value tuples in column order; 0 on any error. */
function setMatch(golden, generated) {
  if (runError(golden) !== undefined || runError(generated) !== undefined) return false;
  const a = new Set(dicts(golden.query).map(tupleKey));
  const b = new Set(dicts(generated.query).map(tupleKey));
  return a.size === b.size && [...a].every((k) => b.has(k));
}

const executableSql = (generated) => runError(generated) === undefined;

/** returned_sql: something besides comments and blank lines. */
function returnedSql(text) {
  const lines = text.replace(/\/\*[\s\S]*?\*\//g, '').split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/);
  return lines.some((line) => {
    const t = line.trim();
    return t !== '' && !t.startsWith('--') && !t.startsWith('#');
  });
}

/** regexp_matcher with REGEXP: the cleaned query must not match `select\s+\*` (inverted). */
function regexpMatcher(text) {
  const cleaned = text
    .replace(/^`+|`+$/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return !REGEXP_JS.test(cleaned);
}

/** hybrid_xa_judge's cell: numbers rounded to 4 decimals, text trimmed and lower-cased, one trailing ".0" cut from text. */
function xaCell(v) {
  if (v === null) return null;
  if (typeof v === 'boolean') return Number(v);
  if (typeof v === 'number') return Number.isNaN(v) ? null : Number(v.toFixed(4));
  const s = v.trim().toLowerCase();
  return s.endsWith('.0') ? s.slice(0, -2) : s;
}

/** hybrid_xa_judge: headers ignored, rows normalized and sorted, compared position by position; 0 on any error. */
function hybridXa(golden, generated) {
  if (runError(golden) !== undefined || runError(generated) !== undefined) return false;
  const norm = (outcome) => dicts(outcome).map((d) => d.values.map(xaCell));
  const a = norm(generated.query);
  const b = norm(golden.query);
  const empty = (rows) => rows.every((r) => r.length === 0);
  if (empty(a) && empty(b)) return true;
  if (empty(a) || empty(b) || a.length !== b.length) return false;
  const sort = (rows) =>
    rows
      .map((r) => ({
        r,
        k: JSON.stringify(r.map((c) => (c === null ? 'N' : typeof c === 'number' ? `n${c}` : `s${c}`))),
      }))
      .sort((x, y) => (x.k < y.k ? -1 : x.k > y.k ? 1 : 0));
  const sa = sort(a);
  const sb = sort(b);
  return sa.every(({ r }, i) => r.length === sb[i].r.length && r.every((c, j) => c === sb[i].r[j]));
}

/** Every scorer's verdict for one case: `generatedSql` is the text that was run, `golden` and `generated` the two runs. */
export function scorerVerdicts(generatedSql, golden, generated) {
  const v = (ok) => (ok ? 'pass' : 'fail');
  return {
    exact_match: v(exactMatch(golden, generated)),
    recall_match: v(recallMatch(golden, generated)),
    set_match: v(setMatch(golden, generated)),
    executable_sql: v(executableSql(generated)),
    returned_sql: v(returnedSql(generatedSql)),
    regexp_matcher: v(regexpMatcher(generatedSql)),
    hybrid_xa_judge: v(hybridXa(golden, generated)),
  };
}

/**
 * What a case runs on one dialect, read from an evalbench-standard-format item as EvalLens's NL2SQL
 * preparer reads it: the first golden statement; eval queries, setup and cleanup (nulls and blanks left
 * out); the generated SQL (a string, or the dialect's entry).
 */
export function planOf(item, dialect) {
  const list = (field) => {
    const value = item[field]?.[dialect];
    const all = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
    return all.filter((s) => typeof s === 'string' && s.trim() !== '');
  };
  const generated = typeof item.generated_sql === 'string' ? item.generated_sql : (item.generated_sql?.[dialect] ?? '');
  return {
    id: String(item.id),
    golden: list('golden_sql')[0],
    generated,
    evalQueries: list('eval_query'),
    setup: list('setup_sql'),
    cleanup: list('cleanup_sql'),
  };
}
