import { readChoice, readText } from '../../../judge/answerParser';
import { error, fail, unsupported } from '../../../result';
import schema from '../../../../schemas/scorers/analytics_scorer.schema.json';
import { prepared } from '../../scorer';
import { executionRows, percentVerdict, runError } from '../../support/sqlRows';
import { setMatchCompare } from '../sql/setMatch';
import { askJudge, promptText } from './judgeSupport';
import { withExplanation } from './llmrater';
import { rowsText } from './sqlRowsText';
import { defineJudgeScorer } from './defineJudgeScorer';

/**
 * EvalBench's `analytics_scorer` (Conversational Analytics data results rater): a failed golden query
 * is an error (the reference is broken, not the answer); a failed generated query 0; results that
 * match as sets 100 without a judge call; else the judge grades the generated query and rows against
 * the golden ones with an 11-check rubric, PASS 100 or FAIL 0.
 */
export const analyticsScorer = defineJudgeScorer('analytics_scorer', {
  schema,
  prepare(judge, options) {
    return prepared({
      async score(input, signal) {
        const sql = input.case.sql;
        if (sql === undefined)
          return unsupported(
            'the case was not executed, so there are no query results to grade: the run config has no database_configs, or the case has no golden SQL',
          );
        const goldenError = runError(sql.golden);
        if (goldenError !== undefined)
          return error('the golden query failed, so there is no reference to grade against', {
            golden_error: goldenError,
          });
        const generatedError = runError(sql.generated);
        if (generatedError !== undefined)
          return fail('the generated query failed, so it returned no data (no judge call)', 0, {
            generated_error: generatedError,
          });
        const golden = executionRows(sql.golden);
        const generated = executionRows(sql.generated);
        if ((golden.length > 0 || generated.length > 0) && setMatchCompare(golden, generated).equal) {
          return percentVerdict(100, 'the results match as sets (set_match), so the judge was not asked', {
            judge_calls: 0,
          });
        }
        const side = (query: string, rows: typeof golden) => {
          const shown = rowsText(rows, options.max_rows);
          return `${options.query_label}:\n${query}\n\nData (${shown.shown}):\n${shown.text}`;
        };
        const asked = await askJudge(
          judge,
          'analytics_scorer',
          {
            question: promptText(input.case.input),
            golden: side(sql.goldenSql, golden),
            generated: side(sql.generatedSql, generated),
          },
          signal,
        );
        if (!asked.ok) return asked.verdict;
        const verdict = readChoice(asked.object, 'verdict', ['PASS', 'FAIL'] as const);
        if (!verdict.ok) return error(verdict.reason, asked.details);
        const details = withExplanation(asked.details, readText(asked.object, 'reason'));
        const failed = asked.object['failed_checks'];
        if (Array.isArray(failed)) details['failed_checks'] = failed;
        return percentVerdict(
          verdict.value === 'PASS' ? 100 : 0,
          `the judge graded the data ${verdict.value} against the rubric`,
          details,
        );
      },
    });
  },
});
