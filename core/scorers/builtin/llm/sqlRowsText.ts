import type { RowDict } from '../../support/pythonEquality';

/**
 * A query result as a judge reads it: the column names, then at most `limit` distinct rows (EvalBench
 * shows the first 50 unique rows per side), one JSON list per line; and a note saying how many of how
 * many were shown.
 */
export function rowsText(
  rows: readonly RowDict[],
  limit: number,
): { readonly text: string; readonly shown: string; readonly distinct: number } {
  const seen = new Set<string>();
  const unique: RowDict[] = [];
  for (const row of rows) {
    const key = JSON.stringify(row.values);
    if (seen.has(key)) continue;
    seen.add(key);
    unique.push(row);
  }
  const kept = unique.slice(0, limit);
  const columns = rows[0]?.keys ?? [];
  const text =
    rows.length === 0
      ? '(no rows)'
      : [`columns: ${JSON.stringify(columns)}`, ...kept.map((r) => JSON.stringify(r.values))].join('\n');
  const shown =
    kept.length === unique.length
      ? `${unique.length} distinct row${unique.length === 1 ? '' : 's'}`
      : `the first ${kept.length} of ${unique.length} distinct rows`;
  return { text, shown, distinct: unique.length };
}
