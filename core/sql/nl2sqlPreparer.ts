import type { Json } from '../case';
import type { CasePreparer } from '../runner/casePreparer';
import { mysqlItemRefusal } from './mysqlStatements';
import { firstStatement, sanitizeGeneratedSql, type SqlCleanUp } from './sanitizeSql';
import { schemaMetadataQuery } from './schemaMetadata';
import type { QueryPlan, SqlEngine, SqlExecution } from './sqlResult';

/**
 * Runs a NL2SQL case on the database before its scorers see it: the generated SQL (the case's
 * recorded `output`) and the golden SQL (`expected.golden_sql`, its first entry, as EvalBench runs
 * it), each in isolation with the case's setup, eval queries and cleanup. The case comes back with
 * `sql`. A case without golden SQL is returned as it is: its SQL scorers answer `unsupported`.
 *
 * As EvalBench's SQL execution work does:
 * - the generated SQL is sanitized first (sanitizeSql.ts: code fences and escapes removed, trimmed):
 *   `sql.sanitizedSql`. `sql.generatedSql` and `sql.goldenSql` stay the SQL as recorded, which is
 *   what EvalBench's scorers read (returned_sql, regexp_matcher, the judges);
 * - a DQL item runs only the first statement of each query (`sqlparse.split(query)[0]`), the golden
 *   one included; DML and DDL items run every statement;
 * - a DDL item's eval result is the schema the query leaves (schemaMetadata.ts: tables, their
 *   columns in order and the columns' types), read in the same isolation after the query, in place
 *   of its eval queries, which EvalBench does not run for DDL.
 *
 * On MySQL a DDL item (or one whose golden SQL holds DDL) is not run: MySQL commits DDL at once, so
 * it cannot run in the transaction EvalLens rolls back. The preparer throws the reason, which makes
 * the case an `error` (not a 0 for "both queries failed").
 */
export function nl2sqlPreparer(
  engine: SqlEngine,
  options: { readonly timeoutMs: number; readonly cleanUp?: SqlCleanUp },
): CasePreparer {
  return {
    async prepare(evalCase, signal) {
      const spec = specOf(evalCase.expected);
      // Nothing recorded to run: the SQL scorers say so (sqlRows.ts NOT_RECORDED); no database work.
      if (spec === undefined || evalCase.output === undefined) return evalCase;
      const refused = engine.dialect === 'mysql' ? mysqlItemRefusal(spec.queryType, spec.golden) : undefined;
      if (refused !== undefined) throw new Error(refused);
      const generatedSql =
        typeof evalCase.output === 'string' ? sanitizeGeneratedSql(evalCase.output, options.cleanUp) : '';
      const schemaQuery = spec.queryType === 'ddl' ? schemaMetadataQuery(engine.dialect) : undefined;
      const evalQueries = schemaQuery === undefined ? spec.evalQueries : [schemaQuery];
      const plan = (query: string): QueryPlan => ({ setup: spec.setup, query, evalQueries, cleanup: spec.cleanup });
      const statementsRun = (query: string) =>
        spec.queryType === 'dql' ? (firstStatement(query, engine.dialect) ?? query) : query;
      const run = { timeoutMs: options.timeoutMs, signal };
      const goldenSql = statementsRun(spec.golden);
      const golden = await engine.run(plan(goldenSql), run);
      const generated =
        typeof evalCase.output !== 'string'
          ? {
              query: {
                ok: false as const,
                error: `the case's output is ${evalCase.output === undefined ? 'missing' : 'not SQL text'}; nothing was run`,
              },
              durationMs: 0,
            }
          : generatedSql === ''
            ? {
                query: {
                  ok: false as const,
                  error:
                    'the generated SQL is empty once sanitized as EvalBench does (code fences and escapes removed); nothing was run',
                },
                durationMs: 0,
              }
            : await engine.run(plan(statementsRun(generatedSql)), run);
      const recorded = typeof evalCase.output === 'string' ? evalCase.output : '';
      const sql: SqlExecution = {
        dialect: engine.dialect,
        generatedSql: recorded,
        sanitizedSql: generatedSql,
        goldenSql: spec.golden,
        generated,
        golden,
      };
      return { ...evalCase, sql };
    },
    close: () => engine.close(),
  };
}

interface Nl2SqlSpec {
  readonly golden: string;
  readonly evalQueries: string[];
  readonly setup: string[];
  readonly cleanup: string[];
  /** EvalBench's query_type, lower case; `dql` when the case does not say. */
  readonly queryType: 'dql' | 'dml' | 'ddl';
}

/** The SQL of a NL2SQL case's expected value; undefined when it has none. */
function specOf(expected: Json | undefined): Nl2SqlSpec | undefined {
  if (expected === null || typeof expected !== 'object' || Array.isArray(expected)) return undefined;
  const record = expected as { readonly [key: string]: Json };
  const golden = strings(record['golden_sql'])[0];
  if (golden === undefined) return undefined;
  const type = typeof record['query_type'] === 'string' ? record['query_type'].toLowerCase() : 'dql';
  const queryType = type === 'dml' || type === 'ddl' ? type : 'dql';
  return {
    golden,
    evalQueries: strings(record['eval_query']),
    setup: strings(record['setup_sql']),
    cleanup: strings(record['cleanup_sql']),
    queryType,
  };
}

/** A string, or the strings of a list (EvalBench writes `null` for "no eval query"). */
function strings(value: Json | undefined): string[] {
  if (typeof value === 'string') return value.trim() === '' ? [] : [value];
  if (Array.isArray(value))
    return (value as readonly Json[]).filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  return [];
}
