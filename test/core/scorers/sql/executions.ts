import type { QueryOutcome, QueryRun, SqlExecution, SqlValue } from '../../../../core/sql/sqlResult';

/** A query that returned rows (arrays in column order). */
export function rows(columns: string[], ...values: SqlValue[][]): QueryOutcome {
  return { ok: true, result: { columns, rows: values } };
}

/** A query that failed. */
export function failed(error: string): QueryOutcome {
  return { ok: false, error };
}

/** A query's run, with its eval queries' outcomes when given. */
export function run(query: QueryOutcome, evalQueries?: QueryOutcome[]): QueryRun {
  return evalQueries === undefined ? { query, durationMs: 1 } : { query, evalQueries, durationMs: 1 };
}

/** A case's execution: the golden and the generated run (a bare outcome is a run without eval queries). */
export function execution(
  golden: QueryRun | QueryOutcome,
  generated: QueryRun | QueryOutcome,
  sql: { generatedSql?: string; goldenSql?: string } = {},
): SqlExecution {
  const asRun = (r: QueryRun | QueryOutcome): QueryRun => ('query' in r ? r : run(r));
  return {
    dialect: 'sqlite',
    generatedSql: sql.generatedSql ?? 'SELECT 1',
    goldenSql: sql.goldenSql ?? 'SELECT 1',
    generated: asRun(generated),
    golden: asRun(golden),
  };
}

/** A cell value a recorded (document-store) result may hold, outside the engines' SqlValue. */
export function documentCell(value: unknown): SqlValue {
  return value as SqlValue;
}
