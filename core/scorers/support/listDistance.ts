/**
 * Distances and overlaps between lists of names (tool calls, skills, steps). Items are equal when
 * `===` holds. The lists scorers compare are short (tens of items), so the edit distances are the
 * plain O(n·m) dynamic programme over two rows; scorers cap the lengths and use the interruptible form.
 *
 * - Sequence measures (order and repeats count): `listEditDistance`, `listEditSimilarity`,
 *   `longestCommonSubsequenceLength` (in longestCommonSubsequence.ts).
 * - Set measures (order and repeats vanish): `jaccard`, `coverage`, `setOverlap`.
 */

/**
 * Levenshtein distance between two lists: the fewest insertions, deletions and substitutions of
 * whole items, each costing 1, that turn `a` into `b`.
 */
export function listEditDistance<T>(a: readonly T[], b: readonly T[]): number {
  const table = distanceTable(a, b);
  advanceRows(table, table.outer.length);
  return table.previous[table.inner.length] as number;
}

/** Cells (rows × columns) computed between two checks of the signal on the interruptible path. */
export const LIST_STEPS_PER_CHUNK = 1 << 20;

/**
 * The same distance, but a large table (over `stepsPerChunk` cells) is computed a few rows at a
 * time: between them the event loop gets a turn (so a time limit and Ctrl-C are served) and the
 * computation stops, rejecting, once `signal` is aborted. A small one is answered synchronously.
 */
export function interruptibleListEditDistance<T>(
  a: readonly T[],
  b: readonly T[],
  signal: AbortSignal,
  options: { readonly stepsPerChunk?: number; readonly onChunk?: () => void } = {},
): number | Promise<number> {
  const stepsPerChunk = options.stepsPerChunk ?? LIST_STEPS_PER_CHUNK;
  if (a.length * b.length <= stepsPerChunk) return listEditDistance(a, b);
  return chunkedRows(distanceTable(a, b), signal, stepsPerChunk, options.onChunk);
}

async function chunkedRows<T>(
  table: DistanceTable<T>,
  signal: AbortSignal,
  stepsPerChunk: number,
  onChunk: (() => void) | undefined,
): Promise<number> {
  const rowsPerChunk = Math.max(1, Math.floor(stepsPerChunk / Math.max(1, table.inner.length)));
  while (table.row <= table.outer.length) {
    if (signal.aborted) throw new Error('the list comparison was stopped (time limit or cancellation)');
    advanceRows(table, rowsPerChunk);
    onChunk?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return table.previous[table.inner.length] as number;
}

/** The dynamic programme over two rows, with the next row to compute (1-based: row i is outer[i − 1]). */
interface DistanceTable<T> {
  readonly outer: readonly T[];
  readonly inner: readonly T[];
  previous: number[];
  current: number[];
  row: number;
}

function distanceTable<T>(a: readonly T[], b: readonly T[]): DistanceTable<T> {
  // Keep the row as long as the shorter list.
  const [outer, inner] = a.length >= b.length ? [a, b] : [b, a];
  return {
    outer,
    inner,
    previous: Array.from({ length: inner.length + 1 }, (_, j) => j),
    current: new Array<number>(inner.length + 1).fill(0),
    row: 1,
  };
}

function advanceRows<T>(table: DistanceTable<T>, rows: number): void {
  const { outer, inner } = table;
  let { previous, current } = table;
  const last = Math.min(outer.length, table.row + rows - 1);
  for (let i = table.row; i <= last; i++) {
    current[0] = i;
    const item = outer[i - 1];
    for (let j = 1; j <= inner.length; j++) {
      const substitution = (previous[j - 1] as number) + (inner[j - 1] === item ? 0 : 1);
      const deletion = (previous[j] as number) + 1;
      const insertion = (current[j - 1] as number) + 1;
      current[j] = Math.min(substitution, deletion, insertion);
    }
    [previous, current] = [current, previous];
  }
  table.previous = previous;
  table.current = current;
  table.row = last + 1;
}

/**
 * `max(0, 1 − distance / max(len a, len b))`, from 0 to 1: 1 when the lists are equal, 1 for two
 * empty lists.
 */
export function listEditSimilarity<T>(a: readonly T[], b: readonly T[]): number {
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return 1;
  return Math.max(0, 1 - listEditDistance(a, b) / longest);
}

/** How two lists overlap as sets: distinct items in first-seen order. */
export interface SetOverlap<T> {
  /** Distinct items of `expected` that `actual` has too. */
  readonly matched: T[];
  /** Distinct items of `expected` that `actual` lacks. */
  readonly missing: T[];
  /** Distinct items of `actual` that `expected` lacks. */
  readonly unexpected: T[];
  /** Number of distinct items of `expected`. */
  readonly expectedCount: number;
  /** Number of distinct items in either list. */
  readonly unionCount: number;
}

export function setOverlap<T>(expected: Iterable<T>, actual: Iterable<T>): SetOverlap<T> {
  const e = new Set(expected);
  const a = new Set(actual);
  const matched = [...e].filter((x) => a.has(x));
  const missing = [...e].filter((x) => !a.has(x));
  const unexpected = [...a].filter((x) => !e.has(x));
  return { matched, missing, unexpected, expectedCount: e.size, unionCount: e.size + unexpected.length };
}

/** Jaccard similarity of two lists taken as sets, |A ∩ B| / |A ∪ B|, from 0 to 1; 1 when both are empty. */
export function jaccard<T>(a: Iterable<T>, b: Iterable<T>): number {
  const overlap = setOverlap(a, b);
  return overlap.unionCount === 0 ? 1 : overlap.matched.length / overlap.unionCount;
}

/**
 * Share of the distinct items of `expected` that `actual` has, |E ∩ A| / |E|, from 0 to 1; extra items
 * of `actual` do not lower it. 1 when `expected` is empty.
 */
export function coverage<T>(expected: Iterable<T>, actual: Iterable<T>): number {
  const overlap = setOverlap(expected, actual);
  return overlap.expectedCount === 0 ? 1 : overlap.matched.length / overlap.expectedCount;
}
