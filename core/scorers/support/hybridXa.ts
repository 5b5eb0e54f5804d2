import type { Json } from '../../case';
import { canonicalJson } from './canonicalJson';
import { compareCodePoints, pyStrip, pyTupleRepr, type RowDict } from './pythonEquality';

/**
 * The cell normalization and row comparison of EvalBench's `hybrid_xa_judge.py` (the cross-database
 * execution-accuracy judge it ships as a python_scorer script), as its code does it:
 *
 * - column names are ignored: a row is its values in column order;
 * - None and NaN become None;
 * - numbers (booleans too: Python's `bool` is an `int`) become `round(float(v), 4)`, Python's
 *   rounding to 4 decimals (the exact binary value rounded, exact ties to even);
 * - anything else becomes `str(v).strip().lower()`, then one trailing `".0"` is cut. Only strings
 *   lose `.0`, so the string `"5.0"` becomes `"5"` and never equals the number 5 (which is `5.0`);
 * - rows are sorted by `str(tuple)`, Python's text of the normalized row, compared by code point;
 * - the sides match when both are empty, or both are non-empty with equal row counts (duplicates
 *   kept), equal row lengths and equal cells at every position (Python `==`).
 *
 * EvalLens's engines return only null, numbers, strings and booleans; a cell holding a JSON list or
 * object (a recorded document result) is turned into text as its canonical JSON.
 */

export type XaCell = null | number | string;

/** Python's `round(x, 4)` on a float. */
export function pyRound4(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const magnitude = Math.abs(x);
  // Every double from 2^52 up is an integer: rounding to 4 decimals leaves it as it is.
  if (magnitude >= 2 ** 52) return x;
  // toFixed rounds the exact binary value and breaks exact ties upwards; Python breaks them to even.
  // x·10⁴ is exactly halfway between integers only when 32·x is an odd integer.
  let text = magnitude.toFixed(4);
  const scaled = magnitude * 32;
  if (Number.isInteger(scaled) && scaled % 2 === 1) {
    const last = Number(text.charAt(text.length - 1));
    if (last % 2 === 1) text = `${text.slice(0, -1)}${last - 1}`;
  }
  const rounded = Number(text);
  return x < 0 ? -rounded : rounded;
}

/** One cell as hybrid_xa_judge normalizes it. */
export function hybridXaCell(value: Json): XaCell {
  if (value === null) return null;
  if (typeof value === 'number') return Number.isNaN(value) ? null : pyRound4(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  const text = typeof value === 'string' ? value : canonicalJson(value);
  const s = pyStrip(text).toLowerCase();
  return s.endsWith('.0') ? s.slice(0, -2) : s;
}

/** Rows normalized cell by cell (headers dropped) and sorted by `str(tuple)`, as hybrid_xa_judge compares them. */
export function hybridXaNormalize(rows: readonly RowDict[]): XaCell[][] {
  const keyed = rows.map((row) => {
    const cells = row.values.map(hybridXaCell);
    return { cells, key: pyTupleRepr(cells) };
  });
  keyed.sort((a, b) => compareCodePoints(a.key, b.key));
  return keyed.map((k) => k.cells);
}

export type XaComparison =
  | { readonly match: true; readonly how: 'both_empty' | 'equal'; readonly rows: number }
  | { readonly match: false; readonly how: 'one_empty' | 'row_count' }
  | {
      readonly match: false;
      readonly how: 'row_length';
      readonly row: number;
      readonly lengths: readonly [number, number];
    }
  | { readonly match: false; readonly how: 'cell'; readonly row: number; readonly column: number };

/**
 * Whether two results match after normalization; where they first differ (0-based, in sorted order)
 * when not. `normalized`, when given, receives the normalized sorted rows of both sides.
 */
export function hybridXaCompare(
  generated: readonly RowDict[],
  golden: readonly RowDict[],
  normalized?: { generated?: XaCell[][]; golden?: XaCell[][] },
): XaComparison {
  // pandas calls a frame empty when it has no rows or no columns.
  const generatedEmpty = generated.every((row) => row.values.length === 0);
  const goldenEmpty = golden.every((row) => row.values.length === 0);
  if (generatedEmpty && goldenEmpty) return { match: true, how: 'both_empty', rows: 0 };
  if (generatedEmpty || goldenEmpty) return { match: false, how: 'one_empty' };
  const a = hybridXaNormalize(generated);
  const b = hybridXaNormalize(golden);
  if (normalized !== undefined) {
    normalized.generated = a;
    normalized.golden = b;
  }
  if (a.length !== b.length) return { match: false, how: 'row_count' };
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? [];
    const y = b[i] ?? [];
    if (x.length !== y.length) return { match: false, how: 'row_length', row: i, lengths: [x.length, y.length] };
    for (let j = 0; j < x.length; j++) if (x[j] !== y[j]) return { match: false, how: 'cell', row: i, column: j };
  }
  return { match: true, how: 'equal', rows: a.length };
}
