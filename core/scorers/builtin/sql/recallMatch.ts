import type { Json } from '../../../case';
import schema from '../../../../schemas/scorers/recall_match.schema.json';
import { pyDictKey, pyRowListsEqual, type RowDict } from '../../support/pythonEquality';
import {
  executionOf,
  executionRows,
  percent,
  percentVerdict,
  plural,
  runError,
  shownResult,
} from '../../support/sqlRows';
import { defineScorer, prepared } from '../../scorer';

/** EvalBench's precision and recall of two row lists (its current formula, names and all). */
export interface RecallFigures {
  readonly precision: number;
  readonly recall: number;
  readonly matches: number;
  readonly orig_golden_size: number;
  readonly orig_generated_size: number;
  readonly dedup_golden_size: number;
  readonly dedup_generated_size: number;
  readonly equal_lists: boolean;
}

/**
 * EvalBench's `compute_precision_recall`: rows are compared as sets of their (column, value) items;
 * `matches` is the number of distinct rows on both sides. When the two lists are equal (order and
 * duplicates included) both figures are 1. Otherwise `recall = matches / len(generated)` and
 * `precision = matches / len(golden)`, over the lists with their duplicates (0 when the list is
 * empty). EvalBench's "recall" is thus what IR calls precision, and the other way round.
 */
export function recallFigures(golden: readonly RowDict[], generated: readonly RowDict[]): RecallFigures {
  const goldenKeys = new Set(golden.map(pyDictKey));
  const generatedKeys = new Set(generated.map(pyDictKey));
  let matches = 0;
  for (const key of goldenKeys) if (generatedKeys.has(key)) matches++;
  const sizes = {
    orig_golden_size: golden.length,
    orig_generated_size: generated.length,
    dedup_golden_size: goldenKeys.size,
    dedup_generated_size: generatedKeys.size,
  };
  if (pyRowListsEqual(golden, generated)) return { precision: 1, recall: 1, matches, ...sizes, equal_lists: true };
  return {
    recall: generated.length === 0 ? 0 : matches / generated.length,
    precision: golden.length === 0 ? 0 : matches / golden.length,
    matches,
    ...sizes,
    equal_lists: false,
  };
}

/**
 * EvalBench's `recall_match`: `score_type` (recall by default) × 100. Query errors are not checked,
 * as in EvalBench: a failed query has no rows.
 */
export const recallMatch = defineScorer('recall_match', {
  origin: 'EvalBench',
  scale: { kind: 'bounded', max: 100 },
  schema,
  create(options) {
    return prepared({
      score({ case: evalCase }) {
        const execution = executionOf(evalCase);
        if (!execution.ok) return execution.verdict;
        const { golden, generated } = execution.sql;
        const figures = recallFigures(executionRows(golden), executionRows(generated));
        // Multiply after dividing, as EvalBench does, so the doubles are EvalBench's (1/3·100, not 100/3).
        const score = figures[options.score_type] * 100;
        const details: { [key: string]: Json } = {
          score_type: options.score_type,
          ...figures,
          golden: shownResult(golden.query, options.truncate_execution_outputs),
          generated: shownResult(generated.query, options.truncate_execution_outputs),
        };
        const goldenError = runError(golden);
        const generatedError = runError(generated);
        if (goldenError !== undefined) details['golden_error'] = goldenError;
        if (generatedError !== undefined) details['generated_error'] = generatedError;
        const failed = [
          goldenError === undefined ? '' : 'golden',
          generatedError === undefined ? '' : 'generated',
        ].filter((s) => s !== '');
        const errorNote =
          failed.length === 0
            ? ''
            : `; ${failed.length === 2 ? 'both queries failed and count' : `the ${failed[0] ?? ''} query failed and counts`} as no rows (EvalBench does not check errors here)`;
        if (figures.equal_lists) {
          return percentVerdict(
            score,
            `the golden and generated rows are equal lists (${plural(figures.orig_golden_size, 'row')}): ${options.score_type} 100${errorNote}`,
            details,
          );
        }
        const denominator =
          options.score_type === 'recall'
            ? `${plural(figures.orig_generated_size, 'generated row')}`
            : `${plural(figures.orig_golden_size, 'golden row')}`;
        const why =
          options.score_type === 'recall'
            ? "EvalBench's recall divides by the generated rows, duplicates included"
            : "EvalBench's precision divides by the golden rows, duplicates included";
        return percentVerdict(
          score,
          `${plural(figures.matches, 'distinct row')} in both; ${options.score_type} = ${figures.matches} / ${denominator} = ${percent(score)} (${why})${errorNote}`,
          details,
        );
      },
    });
  },
});
