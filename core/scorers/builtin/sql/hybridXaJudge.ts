import type { Json } from '../../../case';
import schema from '../../../../schemas/scorers/hybrid_xa_judge.schema.json';
import { hybridXaCompare, type XaCell } from '../../support/hybridXa';
import { bothRan, executionRows, percentVerdict, plural, shownResult } from '../../support/sqlRows';
import { defineScorer, prepared } from '../../scorer';

/**
 * EvalBench's `hybrid_xa_judge.py` (cross-database execution accuracy), as a scorer: the generated
 * query's rows against the golden query's, normalized cell by cell (see support/hybridXa.ts), column
 * names ignored, rows sorted. 100 when they match, else 0; 0 when either query failed.
 */
export const hybridXaJudge = defineScorer('hybrid_xa_judge', {
  origin: 'EvalBench',
  scale: { kind: 'bounded', max: 100 },
  schema,
  create(options) {
    return prepared({
      score({ case: evalCase }) {
        const ran = bothRan(evalCase, 'the judge scores 0');
        if (!ran.ok) return ran.verdict;
        const { golden, generated } = ran;
        const goldenRows = executionRows(golden);
        const generatedRows = executionRows(generated);
        const normalized: { generated?: XaCell[][]; golden?: XaCell[][] } = {};
        const c = hybridXaCompare(generatedRows, goldenRows, normalized);
        const limit = options.truncate_execution_outputs;
        const counts = `golden ${plural(goldenRows.length, 'row')}, generated ${generatedRows.length}`;
        const details: { [key: string]: Json } = {
          comparison: c.how,
          golden: shownResult(golden.query, limit),
          generated: shownResult(generated.query, limit),
        };
        if (normalized.golden !== undefined && normalized.generated !== undefined) {
          details['normalized'] = {
            golden: normalized.golden.slice(0, limit),
            generated: normalized.generated.slice(0, limit),
          };
        }
        switch (c.how) {
          case 'both_empty':
            return percentVerdict(100, 'both results are empty, which the judge counts as a match', details);
          case 'equal':
            return percentVerdict(
              100,
              `the results match after normalization (${counts}; headers ignored, rows sorted, numbers rounded to 4 decimals, text trimmed and lower-cased)`,
              details,
            );
          case 'one_empty':
            return percentVerdict(0, `one result is empty and the other is not (${counts})`, details);
          case 'row_count':
            return percentVerdict(0, `the row counts differ (${counts})`, details);
          case 'row_length':
            return percentVerdict(
              0,
              `sorted row ${c.row + 1} has ${plural(c.lengths[0], 'column')} in the generated result and ${c.lengths[1]} in the golden (${counts})`,
              { ...details, sorted_row: c.row + 1 },
            );
          default: {
            // eslint-disable-next-line no-restricted-syntax -- a result table's column, counted from 1 as its rows are: not a text position
            const column = c.column + 1;
            return percentVerdict(
              0,
              `after normalization and sorting, row ${c.row + 1} differs at column ${column} (${counts})`,
              { ...details, sorted_row: c.row + 1, column },
            );
          }
        }
      },
    });
  },
});
