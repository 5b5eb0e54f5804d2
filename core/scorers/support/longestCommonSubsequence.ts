/**
 * The longest common subsequence of two lists: the longest list whose items appear in both, in the
 * same order but not necessarily next to each other. Items are compared with `equal` (`===` by
 * default). Dynamic programming over the two lengths: O(|a|·|b|) time and memory.
 */
export function longestCommonSubsequence<T>(
  a: readonly T[],
  b: readonly T[],
  equal: (x: T, y: T) => boolean = (x, y) => x === y,
): T[] {
  const rows = a.length;
  const columns = b.length;
  if (rows === 0 || columns === 0) return [];
  const width = columns + 1;
  // lengths[i * width + j]: LCS length of a[i..] and b[j..] (suffixes, so the walk below runs forward).
  const lengths = new Uint32Array((rows + 1) * width);
  for (let i = rows - 1; i >= 0; i--) {
    for (let j = columns - 1; j >= 0; j--) {
      lengths[i * width + j] = equal(a[i] as T, b[j] as T)
        ? (lengths[(i + 1) * width + j + 1] ?? 0) + 1
        : Math.max(lengths[(i + 1) * width + j] ?? 0, lengths[i * width + j + 1] ?? 0);
    }
  }
  const common: T[] = [];
  let i = 0;
  let j = 0;
  while (i < rows && j < columns) {
    if (equal(a[i] as T, b[j] as T)) {
      common.push(a[i] as T);
      i++;
      j++;
    } else if ((lengths[(i + 1) * width + j] ?? 0) >= (lengths[i * width + j + 1] ?? 0)) {
      i++;
    } else {
      j++;
    }
  }
  return common;
}

/** The length of the longest common subsequence, in O(min(|a|, |b|)) memory. */
export function longestCommonSubsequenceLength<T>(
  a: readonly T[],
  b: readonly T[],
  equal: (x: T, y: T) => boolean = (x, y) => x === y,
): number {
  const swapped = a.length < b.length;
  const [long, short] = swapped ? [b, a] : [a, b];
  // `equal` keeps its argument order (an item of `a` first) even when the lists swap places.
  const same = swapped ? (x: T, y: T) => equal(y, x) : equal;
  if (short.length === 0) return 0;
  let previous = new Uint32Array(short.length + 1);
  let current = new Uint32Array(short.length + 1);
  for (const x of long) {
    for (let j = 1; j <= short.length; j++) {
      current[j] = same(x, short[j - 1] as T)
        ? (previous[j - 1] ?? 0) + 1
        : Math.max(previous[j] ?? 0, current[j - 1] ?? 0);
    }
    [previous, current] = [current, previous];
  }
  return previous[short.length] ?? 0;
}
