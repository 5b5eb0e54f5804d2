import type { Json } from '../case';
import type { CasePreparer } from '../runner/casePreparer';
import type { QueryPlan, SqlEngine, SqlExecution } from './sqlResult';

/**
 * Runs a NL2SQL case on the database before its scorers see it: the generated SQL (the case's
 * recorded `output`) and the golden SQL (`expected.golden_sql`, its first entry, as EvalBench runs
 * it), each in isolation with the case's setup, eval queries and cleanup. The case comes back with
 * `sql`. A case without golden SQL is returned as it is: its SQL scorers answer `unsupported`.
 */
export function nl2sqlPreparer(engine: SqlEngine, options: { readonly timeoutMs: number }): CasePreparer {
  return {
    async prepare(evalCase, signal) {
      const spec = specOf(evalCase.expected);
      if (spec === undefined) return evalCase;
      const generatedSql = typeof evalCase.output === 'string' ? evalCase.output : '';
      const plan = (query: string): QueryPlan => ({ setup: spec.setup, query, evalQueries: spec.evalQueries, cleanup: spec.cleanup });
      const run = { timeoutMs: options.timeoutMs, signal };
      const golden = await engine.run(plan(spec.golden), run);
      const generated =
        typeof evalCase.output === 'string'
          ? await engine.run(plan(generatedSql), run)
          : { query: { ok: false as const, error: `the case's output is ${evalCase.output === undefined ? 'missing' : 'not SQL text'}; nothing was run` }, durationMs: 0 };
      const sql: SqlExecution = { dialect: engine.dialect, generatedSql, goldenSql: spec.golden, generated, golden };
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
}

/** The SQL of a NL2SQL case's expected value; undefined when it has none. */
function specOf(expected: Json | undefined): Nl2SqlSpec | undefined {
  if (expected === null || typeof expected !== 'object' || Array.isArray(expected)) return undefined;
  const record = expected as { readonly [key: string]: Json };
  const golden = strings(record['golden_sql'])[0];
  if (golden === undefined) return undefined;
  return { golden, evalQueries: strings(record['eval_query']), setup: strings(record['setup_sql']), cleanup: strings(record['cleanup_sql']) };
}

/** A string, or the strings of a list (EvalBench writes `null` for "no eval query"). */
function strings(value: Json | undefined): string[] {
  if (typeof value === 'string') return value.trim() === '' ? [] : [value];
  if (Array.isArray(value)) return (value as readonly Json[]).filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  return [];
}
