import type { Json } from '../../../case';
import schema from '../../../../schemas/scorers/evalbench/exact_match.schema.json';
import {
  bothRan,
  compareRowLists,
  evalRows,
  executionRows,
  percentVerdict,
  setupErrorDetails,
  shownEvalResults,
  shownResult,
} from '../../support/sqlRows';
import { defineScorer, prepared } from '../../scorer';

/**
 * EvalBench's `exact_match` on NL2SQL execution results: 0 when either query failed; otherwise,
 * when the golden run has an eval result (DML/DDL eval queries that returned rows), 100 when the eval
 * results are equal, else 100 when the execution results are equal. Equal is Python's `==` on lists
 * of dicts: row order counts, column names count, column order does not, `1 == 1.0 == True`.
 *
 * Its key collides with EvalBook's `exact_match` (text and JSON); run configs of EvalBench's shape
 * get this one.
 */
export const sqlExactMatch = defineScorer('evalbench/exact_match', {
  origin: 'EvalBench',
  scale: { kind: 'bounded', max: 100 },
  schema,
  create(options) {
    const limit = options.truncate_execution_outputs;
    return prepared({
      score({ case: evalCase }) {
        const ran = bothRan(evalCase, 'EvalBench scores 0 when either query (or its eval queries) errs');
        if (!ran.ok) return ran.verdict;
        const { golden, generated } = ran;
        const goldenEval = evalRows(golden);
        if (goldenEval.length > 0) {
          const compared = compareRowLists(goldenEval, evalRows(generated));
          const details = {
            compared: 'eval_results',
            golden: shownEvalResults(golden, limit),
            generated: shownEvalResults(generated, limit),
            ...setupErrorDetails(evalCase),
          };
          return compared.equal
            ? percentVerdict(
                100,
                `the eval queries give the same results after the generated query as after the golden one (${compared.summary}); execution results are not compared`,
                details,
              )
            : percentVerdict(
                0,
                `the eval queries' results differ after the generated and the golden query: ${compared.summary}`,
                withPosition(details, compared.firstDifference),
              );
        }
        const compared = compareRowLists(executionRows(golden), executionRows(generated));
        const details = {
          compared: 'execution_results',
          golden: shownResult(golden.query, limit),
          generated: shownResult(generated.query, limit),
          ...setupErrorDetails(evalCase),
        };
        return compared.equal
          ? percentVerdict(
              100,
              `the generated query returns the golden query's rows, in the same order (${compared.summary})`,
              details,
            )
          : percentVerdict(
              0,
              `the results differ: ${compared.summary}`,
              withPosition(details, compared.firstDifference),
            );
      },
    });
  },
});

function withPosition(details: { [key: string]: Json }, row: number | undefined): { [key: string]: Json } {
  return row === undefined ? details : { ...details, first_differing_row: row };
}
