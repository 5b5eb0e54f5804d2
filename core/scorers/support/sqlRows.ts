import type { EvalCase, Json } from '../../case';
import { fail, pass, unsupported, type ScorerVerdict } from '../../result';
import type { QueryOutcome, QueryRun, SqlExecution, SqlRows } from '../../sql/sqlResult';
import type { ScoringInput } from '../scorer';
import { kindOf } from './describe';
import { firstDifferingRow, pyDictKey, type RowDict } from './pythonEquality';

/**
 * What EvalBench's SQL scorers see of a query run, built from EvalLens's engine results.
 *
 * EvalBench keeps a result as a list of dicts, one per row, from column name to value (SQLAlchemy's
 * `row._asdict()`). EvalLens's engines keep columns and rows as arrays in column order; `rowDicts`
 * turns them into EvalBench's dicts: the pairs in column order, and for a repeated column name (as
 * in `SELECT a, a`) one key, at the first column's place, with the last column's value (what
 * `dict(zip(names, values))` gives).
 *
 * EvalBench runs a query, then its eval queries, in one transaction, and records one error for the
 * run (`generated_error` / `golden_error`): an eval query that fails is the run's error. The
 * execution result is the query's rows (the rows of every statement, concatenated), `[]` when the
 * query failed; the eval result is the rows of all eval queries concatenated.
 */

export function rowDicts(result: SqlRows): RowDict[] {
  const names = result.columns;
  const unique = [...new Set(names)];
  if (unique.length === names.length)
    return result.rows.filter(isRow).map((row) => ({ keys: names, values: names.map((_, i) => cell(row, i)) }));
  return result.rows.filter(isRow).map((row) => {
    // A Map keeps a key at its first insertion and takes the last value set, as a Python dict does.
    const values = new Map<string, Json>();
    names.forEach((name, i) => values.set(name, cell(row, i)));
    return { keys: unique, values: unique.map((name) => values.get(name) ?? null) };
  });
}

/**
 * A row that is not a list (a recorded result read from JSON may hold `null` rows) is left out, as
 * EvalBench's recall_match drops None rows; EvalLens's engines never produce one.
 */
function isRow(row: unknown): boolean {
  return Array.isArray(row);
}

function cell(row: readonly unknown[], i: number): Json {
  const value = row[i];
  return value === undefined ? null : (value as Json);
}

/** The run's error as EvalBench records it: the query's, else the first failing eval query's. */
export function runError(run: QueryRun): string | undefined {
  if (!run.query.ok) return run.query.error;
  for (const outcome of run.evalQueries ?? []) if (!outcome.ok) return outcome.error;
  return undefined;
}

/** EvalBench's execution result: the query's rows, `[]` when it failed. */
export function executionRows(run: QueryRun): RowDict[] {
  return run.query.ok ? rowDicts(run.query.result) : [];
}

/** EvalBench's eval result: the rows of every eval query that ran, concatenated (`[]` without eval queries). */
export function evalRows(run: QueryRun): RowDict[] {
  return (run.evalQueries ?? []).flatMap((o) => (o.ok ? rowDicts(o.result) : []));
}

/** The number of rows in a result as shown (rows that are not lists left out). */
export function rowCount(result: SqlRows): number {
  return result.rows.filter(isRow).length;
}

/** One result as `details` show it: columns, at most `limit` rows, and how many rows it has. */
export function shownResult(outcome: QueryOutcome, limit: number): { [key: string]: Json } {
  if (!outcome.ok) return { error: outcome.error };
  const rows = outcome.result.rows.filter(isRow) as readonly (readonly Json[])[];
  const shown = rows.slice(0, limit).map((r) => [...r]);
  return {
    columns: [...outcome.result.columns],
    rows: shown,
    row_count: rows.length,
    truncated: rows.length > shown.length,
  };
}

/** A side's eval query results as `details` show them: at most `limit` rows over all of them. */
export function shownEvalResults(run: QueryRun, limit: number): Json[] {
  let left = limit;
  return (run.evalQueries ?? []).map((outcome) => {
    const shown = shownResult(outcome, Math.max(0, left));
    const count = shown['row_count'];
    if (typeof count === 'number') left -= Math.min(count, Math.max(0, left));
    return shown;
  });
}

/**
 * The setup statements that failed (and were rolled back while the case went on, as in EvalBench)
 * on either side, for a verdict's `details`: `golden_setup_errors`, `generated_setup_errors`; empty
 * when every setup statement ran.
 */
export function setupErrorDetails(evalCase: EvalCase): { [key: string]: Json } {
  const details: { [key: string]: Json } = {};
  const { golden, generated } = evalCase.sql ?? {};
  if (golden?.setupErrors !== undefined && golden.setupErrors.length > 0)
    details['golden_setup_errors'] = [...golden.setupErrors];
  if (generated?.setupErrors !== undefined && generated.setupErrors.length > 0)
    details['generated_setup_errors'] = [...generated.setupErrors];
  return details;
}

/**
 * Said of a case with no generated SQL recorded at all: EvalBench would generate it; EvalLens scores
 * what was recorded, so the case is not decided (a recorded empty answer is still EvalBench's 0).
 */
export const NOT_RECORDED =
  "the case has no recorded generated SQL (EvalLens scores recorded outputs and does not run EvalBench's generator): add `generated_sql` to the item, or a `target:` that produces it";

/** The case's SQL execution, or the `unsupported` verdict of a case that was not executed. */
export function executionOf(
  evalCase: EvalCase,
): { readonly ok: true; readonly sql: SqlExecution } | { readonly ok: false; readonly verdict: ScorerVerdict } {
  if (evalCase.sql !== undefined) return { ok: true, sql: evalCase.sql };
  if (evalCase.output === undefined) return { ok: false, verdict: unsupported(NOT_RECORDED) };
  return {
    ok: false,
    verdict: unsupported(
      'the case was not executed, so there are no query results to compare: the run config has no database_configs, or the case has no golden SQL',
    ),
  };
}

/**
 * Both queries of an executed case, or EvalBench's 0 when either failed (the query or one of its
 * eval queries): `rule` ends the reason, saying why the scorer gives 0. Database error texts go in
 * `details` only.
 */
export function bothRan(
  evalCase: EvalCase,
  rule: string,
):
  | { readonly ok: true; readonly golden: QueryRun; readonly generated: QueryRun }
  | { readonly ok: false; readonly verdict: ScorerVerdict } {
  const execution = executionOf(evalCase);
  if (!execution.ok) return execution;
  const { golden, generated } = execution.sql;
  const goldenError = runError(golden);
  const generatedError = runError(generated);
  if (goldenError === undefined && generatedError === undefined) return { ok: true, golden, generated };
  const which =
    goldenError !== undefined && generatedError !== undefined
      ? 'both queries failed'
      : goldenError !== undefined
        ? 'the golden query failed'
        : 'the generated query failed';
  const details: { [key: string]: Json } = setupErrorDetails(evalCase);
  if (goldenError !== undefined) details['golden_error'] = goldenError;
  if (generatedError !== undefined) details['generated_error'] = generatedError;
  return { ok: false, verdict: fail(`${which}; ${rule}`, 0, details) };
}

/**
 * The generated SQL text: the SQL that was executed (`sql.generatedSql`) when the case ran, else the
 * case's output (after `output_path`), which must then be a string. A case with neither was never
 * recorded: `unsupported` (EvalBench would have generated it; EvalLens does not guess a 0).
 */
export function generatedSqlOf(
  input: ScoringInput,
):
  | { readonly ok: true; readonly text: string; readonly from: 'execution' | 'output' }
  | { readonly ok: false; readonly verdict: ScorerVerdict } {
  const sql = input.case.sql;
  if (sql !== undefined) return { ok: true, text: sql.generatedSql, from: 'execution' };
  const output = input.output;
  if (output === undefined) return { ok: false, verdict: unsupported(NOT_RECORDED) };
  if (typeof output !== 'string')
    return { ok: false, verdict: fail(`the output is ${kindOf(output)}, not SQL text; nothing is converted`, 0) };
  return { ok: true, text: output, from: 'output' };
}

/** A 0–100 score's verdict: pass at exactly 100 (EvalBench counts only 100 as correct), else fail. */
export function percentVerdict(
  score: number,
  reason: string,
  details?: { readonly [key: string]: Json },
): ScorerVerdict {
  return score === 100 ? pass(reason, score, details) : fail(reason, score, details);
}

export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** A 0–100 score as reasons show it: at most two decimals. */
export function percent(score: number): string {
  return String(Math.round(score * 100) / 100);
}

/**
 * Whether two row lists are equal under Python's `==` (row order counts; rows compare as dicts), and
 * if not, where: counts and 1-based row positions, never cell values or column names.
 */
export function compareRowLists(
  golden: readonly RowDict[],
  generated: readonly RowDict[],
): { readonly equal: boolean; readonly summary: string; readonly firstDifference?: number } {
  const at = firstDifferingRow(golden, generated);
  if (at < 0 && golden.length === generated.length) return { equal: true, summary: plural(golden.length, 'row') };
  const parts: string[] = [];
  if (at >= 0) parts.push(`row ${at + 1} differs`);
  if (golden.length === generated.length) parts.push(`both ${plural(golden.length, 'row')}`);
  else {
    parts.push(`golden ${plural(golden.length, 'row')}, generated ${generated.length}`);
    if (at < 0 && Math.min(golden.length, generated.length) > 0)
      parts.push(`the first ${plural(Math.min(golden.length, generated.length), 'row')} agree`);
  }
  const g = golden[Math.max(at, 0)];
  const h = generated[Math.max(at, 0)];
  if (g !== undefined && h !== undefined && !sameNames(g, h))
    parts.push('the column names differ (they count: rows compare as maps from column name to value)');
  else if (golden.length === generated.length && sameMultiset(golden, generated))
    parts.push('the same rows in another order (row order counts)');
  return at < 0
    ? { equal: false, summary: parts.join('; ') }
    : { equal: false, summary: parts.join('; '), firstDifference: at + 1 };
}

function sameNames(a: RowDict, b: RowDict): boolean {
  return a.keys.length === b.keys.length && a.keys.every((k) => b.keys.includes(k));
}

function sameMultiset(a: readonly RowDict[], b: readonly RowDict[]): boolean {
  const counts = new Map<string, number>();
  for (const row of a) {
    const key = pyDictKey(row);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  for (const row of b) {
    const key = pyDictKey(row);
    const n = counts.get(key);
    if (n === undefined || n === 0) return false;
    counts.set(key, n - 1);
  }
  return true;
}
