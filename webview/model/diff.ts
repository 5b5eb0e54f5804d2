/**
 * Expected versus output, as a list of equal / deleted (expected only) / inserted (output only)
 * pieces. Myers' O(ND) algorithm over lines when either text has several, else over words, with a
 * budget: past it the view says the texts are too different to diff instead of freezing.
 */
export type DiffPiece = { readonly kind: 'equal' | 'delete' | 'insert'; readonly text: string };

export type DiffOutcome =
  | { readonly ok: true; readonly pieces: readonly DiffPiece[] }
  /** `prefix`: the start of each text, when they are too large to diff, shown in place of the diff. */
  | {
      readonly ok: false;
      readonly reason: string;
      readonly prefix?: { readonly expected: string; readonly output: string };
    };

/** Edit distance beyond which the diff gives up (its memory is O(D²) for the traced path). */
const MAX_EDITS = 1000;
const MAX_TOKENS = 200_000;
/**
 * Characters (both texts together) beyond which the view does not diff: checked before the texts are
 * split, since splitting a 50 MB output into words alone took seconds and hundreds of megabytes.
 */
export const MAX_DIFF_CHARS = 1_000_000;
/** Characters of each text shown when they are too large to diff. */
export const DIFF_PREFIX_CHARS = 2_000;

export function tokenize(text: string, byLines: boolean): string[] {
  if (text === '') return [];
  // Lines keep their newline and words their following spaces, so joining the tokens gives back the text.
  return byLines ? (text.match(/[^\n]*\n|[^\n]+$/g) ?? []) : (text.match(/\s+|[^\s]+/g) ?? []);
}

export function diffTexts(expected: string, output: string): DiffOutcome {
  const chars = expected.length + output.length;
  if (chars > MAX_DIFF_CHARS) {
    return {
      ok: false,
      reason: `too large to diff (${chars} characters together, more than the ${MAX_DIFF_CHARS} the view diffs)`,
      prefix: { expected: expected.slice(0, DIFF_PREFIX_CHARS), output: output.slice(0, DIFF_PREFIX_CHARS) },
    };
  }
  const byLines = expected.includes('\n') || output.includes('\n');
  const a = tokenize(expected, byLines);
  const b = tokenize(output, byLines);
  if (a.length + b.length > MAX_TOKENS)
    return {
      ok: false,
      reason: `the texts have ${a.length + b.length} ${byLines ? 'lines' : 'words'} together, more than the ${MAX_TOKENS} the view diffs`,
    };
  const pieces = myers(a, b);
  return pieces === undefined
    ? { ok: false, reason: `the texts differ in more than ${MAX_EDITS} ${byLines ? 'lines' : 'words'}` }
    : { ok: true, pieces: merge(pieces) };
}

function myers(a: readonly string[], b: readonly string[]): DiffPiece[] | undefined {
  const n = a.length;
  const m = b.length;
  const offset = MAX_EDITS + 1;
  const v = new Int32Array(2 * offset + 1);
  // trace[d]: the furthest x on diagonals -d-1 … d+1 before step d (index k + d + 1), all backtracking reads.
  const trace: Int32Array[] = [];
  for (let d = 0; d <= Math.min(MAX_EDITS, n + m); d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    const before = trace[d] ?? v;
    const at = (k: number): number => before[k + d + 1] ?? 0;
    for (let k = -d; k <= d; k += 2) {
      let x = fromBelow(k, d, at) ? at(k + 1) : at(k - 1) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, a, b, d);
    }
  }
  return undefined;
}

/** Whether the best path to diagonal k at step d comes from diagonal k+1 (an insertion) rather than k-1 (a deletion). */
function fromBelow(k: number, d: number, at: (k: number) => number): boolean {
  return k === -d || (k !== d && at(k - 1) < at(k + 1));
}

function backtrack(
  trace: readonly Int32Array[],
  a: readonly string[],
  b: readonly string[],
  edits: number,
): DiffPiece[] {
  const pieces: DiffPiece[] = [];
  let x = a.length;
  let y = b.length;
  const equalRun = (toX: number, toY: number): void => {
    while (x > toX && y > toY) {
      x--;
      y--;
      pieces.push({ kind: 'equal', text: a[x] ?? '' });
    }
  };
  for (let d = edits; d > 0; d--) {
    const before = trace[d];
    if (before === undefined) break;
    const at = (k: number): number => before[k + d + 1] ?? 0;
    const k = x - y;
    const insert = fromBelow(k, d, at);
    const prevK = insert ? k + 1 : k - 1;
    const prevX = at(prevK);
    equalRun(prevX, prevX - prevK);
    if (insert) {
      y--;
      pieces.push({ kind: 'insert', text: b[y] ?? '' });
    } else {
      x--;
      pieces.push({ kind: 'delete', text: a[x] ?? '' });
    }
  }
  equalRun(0, 0);
  return pieces.reverse();
}

/** Neighbouring pieces of one kind become one. */
function merge(pieces: readonly DiffPiece[]): DiffPiece[] {
  const merged: DiffPiece[] = [];
  for (const piece of pieces) {
    const last = merged[merged.length - 1];
    if (last !== undefined && last.kind === piece.kind)
      merged[merged.length - 1] = { kind: piece.kind, text: last.text + piece.text };
    else merged.push(piece);
  }
  return merged;
}
