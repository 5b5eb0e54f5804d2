import type { Json } from '../../../case';
import schema from '../../../../schemas/scorers/set_match.schema.json';
import { pyDictKey, pyTupleKey, type RowDict } from '../../support/pythonEquality';
import { bothRan, executionRows, percentVerdict, plural, setupErrorDetails, shownResult } from '../../support/sqlRows';
import { defineScorer, prepared } from '../../scorer';

export type SetMatchMode = 'flat' | 'document';

/** Whether a result holds documents: some cell is a list or an object (EvalBench's document mode). */
export function isDocumentResult(rows: readonly RowDict[]): boolean {
  return rows.some((row) => row.values.some((v) => v !== null && typeof v === 'object'));
}

/**
 * EvalBench's set comparison. Flat rows: the sets of value tuples in column order (column names
 * ignored, duplicates removed, column order counts). Document rows: the multisets of rows as sets of
 * (key, value) items (names count, duplicates count, list order inside values counts).
 */
export function setMatchCompare(
  golden: readonly RowDict[],
  generated: readonly RowDict[],
): {
  readonly equal: boolean;
  readonly mode: SetMatchMode;
  readonly golden_distinct: number;
  readonly generated_distinct: number;
  readonly shared: number;
} {
  const mode: SetMatchMode = isDocumentResult(golden) || isDocumentResult(generated) ? 'document' : 'flat';
  const key = mode === 'flat' ? (row: RowDict) => pyTupleKey(row.values) : pyDictKey;
  const count = (rows: readonly RowDict[]) => {
    const counts = new Map<string, number>();
    for (const row of rows) {
      const k = key(row);
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    return counts;
  };
  const a = count(golden);
  const b = count(generated);
  let shared = 0;
  for (const k of a.keys()) if (b.has(k)) shared++;
  const equal =
    mode === 'flat'
      ? a.size === b.size && shared === a.size
      : a.size === b.size && [...a].every(([k, n]) => b.get(k) === n);
  return { equal, mode, golden_distinct: a.size, generated_distinct: b.size, shared };
}

/** EvalBench's `set_match` (BIRD execution accuracy): 0 when either query failed, else 100 when the results match as sets. */
export const setMatch = defineScorer('set_match', {
  origin: 'EvalBench',
  scale: { kind: 'bounded', max: 100 },
  schema,
  create(options) {
    return prepared({
      score({ case: evalCase }) {
        const ran = bothRan(evalCase, "EvalBench's set_match scores 0 when either query errs");
        if (!ran.ok) return ran.verdict;
        const { golden, generated } = ran;
        const goldenRows = executionRows(golden);
        const generatedRows = executionRows(generated);
        const c = setMatchCompare(goldenRows, generatedRows);
        const details: { [key: string]: Json } = {
          mode: c.mode,
          golden_distinct: c.golden_distinct,
          generated_distinct: c.generated_distinct,
          shared_distinct: c.shared,
          golden: shownResult(golden.query, options.truncate_execution_outputs),
          generated: shownResult(generated.query, options.truncate_execution_outputs),
          ...setupErrorDetails(evalCase),
        };
        if (c.mode === 'document') {
          const counts = `golden ${plural(goldenRows.length, 'document')}, generated ${generatedRows.length}`;
          return c.equal
            ? percentVerdict(100, `the results hold the same documents, as multisets (${counts})`, details)
            : percentVerdict(
                0,
                `the results differ as multisets of documents (${counts}; ${c.shared} distinct documents in both)`,
                details,
              );
        }
        const rule = 'rows compare as value tuples in column order; column names are ignored and duplicates removed';
        if (c.equal)
          return percentVerdict(
            100,
            `the results hold the same ${plural(c.golden_distinct, 'distinct row')} (${rule})`,
            details,
          );
        return percentVerdict(
          0,
          `the sets of rows differ: golden ${plural(c.golden_distinct, 'distinct row')}, generated ${c.generated_distinct}, ${c.shared} in both (${rule})`,
          details,
        );
      },
    });
  },
});
