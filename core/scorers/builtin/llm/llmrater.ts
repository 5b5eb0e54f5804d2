import type { Json } from '../../../case';
import { readChoice, readText } from '../../../judge/answerParser';
import { unsupported } from '../../../result';
import schema from '../../../../schemas/scorers/llmrater.schema.json';
import { type OptionIssue, prepared } from '../../scorer';
import { bothRan, executionRows, percentVerdict } from '../../support/sqlRows';
import { setMatchCompare } from '../sql/setMatch';
import { askJudge, promptText } from './judgeSupport';
import { rowsText } from './sqlRowsText';
import { defineJudgeScorer } from './defineJudgeScorer';

/** EvalBench shows the judge at most this many distinct rows per side. */
const ROWS_SHOWN = 50;
const RESULT_VERDICTS = [
  'INFORMATION_MATCHES',
  'EXTRA_INFORMATION',
  'MISSING_INFORMATION',
  'INCORRECT_INFORMATION',
] as const;
const SQL_VERDICTS = ['EQUIVALENT', 'NOT_EQUIVALENT'] as const;

/**
 * EvalBench's `llmrater` (reference §1.13): 0 when either query failed; 100 without a judge call when
 * both returned rows that match as sets; else one judge call, on the rows (100 for
 * INFORMATION_MATCHES or EXTRA_INFORMATION) or, when both returned no rows, on the queries' logic
 * (100 for EQUIVALENT). EvalBench looks for those words anywhere in free text; EvalLens asks for a
 * JSON verdict, so a rambling answer is an error rather than a guess.
 */
export const llmrater = defineJudgeScorer('llmrater', {
  schema,
  notices: (options): OptionIssue[] =>
    options.hybrid_ground_truth
      ? [
          {
            path: ['hybrid_ground_truth'],
            message:
              'hybrid_ground_truth has no effect in EvalLens: golden queries run on the configured databases only (there is no BigQuery engine to fall back from)',
          },
        ]
      : [],
  prepare(judge) {
    return prepared({
      async score(input, signal) {
        if (input.case.sql === undefined)
          return unsupported(
            'the case was not executed, so there are no query results to compare: the run config has no database_configs, or the case has no golden SQL',
          );
        const ran = bothRan(input.case, 'llmrater gives 0 when either query failed (no judge call)');
        if (!ran.ok) return ran.verdict;
        const sql = input.case.sql;
        const golden = executionRows(ran.golden);
        const generated = executionRows(ran.generated);
        if (golden.length > 0 && generated.length > 0 && setMatchCompare(golden, generated).equal) {
          return percentVerdict(100, 'the results match as sets (set_match), so the judge was not asked', {
            judge_calls: 0,
          });
        }
        const question = promptText(input.case.input);
        if (golden.length === 0 && generated.length === 0) {
          const asked = await askJudge(
            judge,
            'llmrater-sql',
            { question, golden_sql: sql.goldenSql, generated_sql: sql.generatedSql },
            signal,
          );
          if (!asked.ok) return asked.verdict;
          const verdict = readChoice(asked.object, 'verdict', SQL_VERDICTS);
          if (!verdict.ok) return { status: 'error', reason: verdict.reason, details: asked.details };
          const details = withExplanation(asked.details, readText(asked.object, 'reason'));
          return verdict.value === 'EQUIVALENT'
            ? percentVerdict(100, 'both queries returned no rows; the judge found them logically EQUIVALENT', details)
            : percentVerdict(0, 'both queries returned no rows; the judge found them NOT_EQUIVALENT', details);
        }
        const goldenShown = rowsText(golden, ROWS_SHOWN);
        const generatedShown = rowsText(generated, ROWS_SHOWN);
        const asked = await askJudge(
          judge,
          'llmrater',
          {
            question,
            golden_sql: sql.goldenSql,
            generated_sql: sql.generatedSql,
            golden_rows: goldenShown.text,
            golden_shown: goldenShown.shown,
            generated_rows: generatedShown.text,
            generated_shown: generatedShown.shown,
          },
          signal,
        );
        if (!asked.ok) return asked.verdict;
        const verdict = readChoice(asked.object, 'verdict', RESULT_VERDICTS);
        if (!verdict.ok) return { status: 'error', reason: verdict.reason, details: asked.details };
        const details = withExplanation(asked.details, readText(asked.object, 'reason'));
        const matches = verdict.value === 'INFORMATION_MATCHES' || verdict.value === 'EXTRA_INFORMATION';
        return percentVerdict(matches ? 100 : 0, `the judge's verdict on the results: ${verdict.value}`, details);
      },
    });
  },
});

export function withExplanation(
  details: { readonly [key: string]: Json },
  explanation: string | undefined,
): { [key: string]: Json } {
  return explanation === undefined ? { ...details } : { ...details, judge_reason: explanation };
}
