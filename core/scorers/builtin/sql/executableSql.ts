import schema from '../../../../schemas/scorers/executable_sql.schema.json';
import { executionOf, percentVerdict, runError, setupErrorDetails } from '../../support/sqlRows';
import { defineScorer, prepared } from '../../scorer';

/**
 * EvalBench's `executable_sql`: 100 when the generated query ran without error, else 0. The error
 * is EvalBench's `generated_error`, which also holds a failure of the eval queries run after the
 * generated query (they share its transaction).
 */
export const executableSql = defineScorer('executable_sql', {
  origin: 'EvalBench',
  scale: { kind: 'bounded', max: 100 },
  schema,
  create() {
    return prepared({
      score({ case: evalCase }) {
        const execution = executionOf(evalCase);
        if (!execution.ok) return execution.verdict;
        const run = execution.sql.generated;
        const error = runError(run);
        const setup = setupErrorDetails(evalCase);
        const ranReason = `the generated query ran without error${run.evalQueries !== undefined && run.evalQueries.length > 0 ? ', and so did its eval queries' : ''}`;
        if (error === undefined)
          return Object.keys(setup).length === 0
            ? percentVerdict(100, ranReason)
            : percentVerdict(100, ranReason, setup);
        const where = run.query.ok
          ? "an eval query run after the generated query failed (EvalBench counts it as the generated query's error)"
          : 'the generated query failed';
        return percentVerdict(0, where, { generated_error: error, ...setup });
      },
    });
  },
});
