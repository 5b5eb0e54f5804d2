/**
 * Levenshtein edit distance over Unicode code points (an emoji or any astral character is one
 * character, never two UTF-16 units). Insertions, deletions and substitutions cost 1.
 *
 * It is on a hot path (one call per case), so it:
 * - trims the common prefix and suffix first, in UTF-16 units without splitting a surrogate pair;
 * - decodes only the differing middles into reused Int32Array buffers;
 * - runs Myers' bit-parallel algorithm (1999), in 32-bit blocks as his paper describes for patterns
 *   longer than a machine word, with the shorter text as the pattern: O(n·⌈m/32⌉) time. The classic
 *   dynamic programme stays as the reference the tests compare it with.
 */

export interface EditDistance {
  /** The number of code point insertions, deletions and substitutions that turn one text into the other. */
  readonly distance: number;
  /** Length of the first text in code points. */
  readonly lengthA: number;
  /** Length of the second text in code points. */
  readonly lengthB: number;
}

// The synchronous path is single-threaded and never yields, so one set of scratch buffers is safe to
// share between its calls; the interruptible path (long texts) allocates its own.
let pointsA = new Int32Array(64);
let pointsB = new Int32Array(64);
let row = new Int32Array(65);

/**
 * Block steps (columns × 32-bit blocks) computed between two checks of the signal on the
 * interruptible path: a few milliseconds of work.
 */
export const STEPS_PER_CHUNK = 1 << 21;

/** How an interruptible computation reports its progress (tests count the chunks). */
export interface ChunkOptions {
  readonly stepsPerChunk?: number;
  readonly onChunk?: () => void;
}

export function levenshtein(a: string, b: string): EditDistance {
  const middle = differingMiddles(a, b, false);
  return middle.done ?? atOnce(middle);
}

function atOnce(middle: Middles): EditDistance {
  const state = bitParallelState(middle, false);
  advance(state, 0, state.columns);
  return { distance: state.score, lengthA: middle.lengthA, lengthB: middle.lengthB };
}

/**
 * The same distance, but a long comparison (over `stepsPerChunk` block steps) runs in chunks: between
 * chunks it gives the event loop a turn (so a time limit's timer and Ctrl-C are served) and stops,
 * rejecting, once `signal` is aborted. A short one is answered synchronously, as `levenshtein` does.
 */
export function interruptibleLevenshtein(
  a: string,
  b: string,
  signal: AbortSignal,
  options: ChunkOptions = {},
): EditDistance | Promise<EditDistance> {
  const stepsPerChunk = options.stepsPerChunk ?? STEPS_PER_CHUNK;
  const middle = differingMiddles(a, b, false);
  if (middle.done !== undefined) return middle.done;
  const blocks = (Math.min(middle.n, middle.m) + 31) >>> 5;
  if (Math.max(middle.n, middle.m) * blocks <= stepsPerChunk) return atOnce(middle);
  // The middles sit in the shared buffers, which other calls reuse while this one waits: decode again into its own.
  return chunked(a, b, signal, stepsPerChunk, options.onChunk);
}

async function chunked(
  a: string,
  b: string,
  signal: AbortSignal,
  stepsPerChunk: number,
  onChunk: (() => void) | undefined,
): Promise<EditDistance> {
  const middle = differingMiddles(a, b, true);
  if (middle.done !== undefined) return middle.done;
  const state = bitParallelState(middle, true);
  const columnsPerChunk = Math.max(1, Math.floor(stepsPerChunk / state.blocks));
  for (let from = 0; from < state.columns; from += columnsPerChunk) {
    if (signal.aborted) throw new Error('the edit distance computation was stopped (time limit or cancellation)');
    advance(state, from, Math.min(state.columns, from + columnsPerChunk));
    onChunk?.();
    await nextTurn();
  }
  return { distance: state.score, lengthA: middle.lengthA, lengthB: middle.lengthB };
}

/** Resolves after pending timers and I/O callbacks have had their turn. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

interface Middles {
  /** Set when no bit-parallel work is needed (equal texts, or one middle empty). */
  readonly done?: EditDistance;
  readonly a: Int32Array;
  readonly n: number;
  readonly b: Int32Array;
  readonly m: number;
  readonly lengthA: number;
  readonly lengthB: number;
}

/**
 * Trims the common prefix and suffix (in UTF-16 units, never splitting a surrogate pair) and decodes
 * the differing middles into code points: into the shared buffers, or fresh ones when `own`.
 */
function differingMiddles(a: string, b: string, own: boolean): Middles {
  const empty = new Int32Array(0);
  if (a === b) {
    const n = codePointCount(a, 0, a.length);
    return { done: { distance: 0, lengthA: n, lengthB: n }, a: empty, n: 0, b: empty, m: 0, lengthA: n, lengthB: n };
  }
  const unitsA = a.length;
  const unitsB = b.length;
  const shorter = Math.min(unitsA, unitsB);

  let start = 0;
  while (start < shorter && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  // Do not end the prefix between the two halves of a pair: give its high surrogate back.
  if (start > 0 && isHighSurrogate(a.charCodeAt(start - 1))) start--;

  let endA = unitsA;
  let endB = unitsB;
  while (endA > start && endB > start && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) {
    endA--;
    endB--;
  }
  // Likewise, do not start the suffix on a low surrogate.
  if (endA < unitsA && isLowSurrogate(a.charCodeAt(endA))) {
    endA++;
    endB++;
  }

  const shared = codePointCount(a, 0, start) + codePointCount(a, endA, unitsA);
  let intoA: Int32Array;
  let intoB: Int32Array;
  if (own) {
    intoA = new Int32Array(endA - start);
    intoB = new Int32Array(endB - start);
  } else {
    if (pointsA.length < endA - start) pointsA = new Int32Array(growTo(endA - start));
    if (pointsB.length < endB - start) pointsB = new Int32Array(growTo(endB - start));
    intoA = pointsA;
    intoB = pointsB;
  }
  const n = decode(a, start, endA, intoA);
  const m = decode(b, start, endB, intoB);
  const lengthA = shared + n;
  const lengthB = shared + m;
  if (n === 0) return { done: { distance: m, lengthA, lengthB }, a: intoA, n, b: intoB, m, lengthA, lengthB };
  if (m === 0) return { done: { distance: n, lengthA, lengthB }, a: intoA, n, b: intoB, m, lengthA, lengthB };
  return { a: intoA, n, b: intoB, m, lengthA, lengthB };
}

/** 1 − distance / max(length), over code points; 1 for two empty texts. */
export function normalizedSimilarity(result: EditDistance): number {
  const longest = Math.max(result.lengthA, result.lengthB);
  return longest === 0 ? 1 : 1 - result.distance / longest;
}

/** Distance between `outer[0..n)` and `inner[0..m)` by the O(n·m) dynamic programme (m <= n). */
export function dynamicProgrammeDistance(a: string, b: string): number {
  const x = Int32Array.from(Array.from(a, (ch) => ch.codePointAt(0) ?? 0));
  const y = Int32Array.from(Array.from(b, (ch) => ch.codePointAt(0) ?? 0));
  if (x.length === 0 || y.length === 0) return Math.max(x.length, y.length);
  return x.length >= y.length ? dynamicProgramme(x, x.length, y, y.length) : dynamicProgramme(y, y.length, x, x.length);
}

// The slot table is filled and cleared within one synchronous call, so it is shared by every path.
const bmpSlot = new Int32Array(0x10000).fill(-1);
const astralSlot = new Map<number, number>();
// Scratch state of the synchronous path, reused between calls.
let peq = new Int32Array(64);
let plus = new Int32Array(2);
let minus = new Int32Array(2);
let columnSlots = new Int32Array(64);

/** Where Myers' algorithm stands: the vertical deltas after `score`'s columns, and what it needs for the rest. */
interface BitState {
  readonly blocks: number;
  readonly columns: number;
  readonly lastBit: number;
  /** Match bits per (pattern character slot, block). */
  readonly peq: Int32Array;
  /** The slot of each text column's character, −1 when the pattern lacks it. */
  readonly columnSlots: Int32Array;
  readonly plus: Int32Array;
  readonly minus: Int32Array;
  score: number;
}

/**
 * Myers' bit-vector edit distance, set up: the shorter middle is the pattern, split into 32-bit
 * blocks; each text character will advance every block, passing the horizontal delta of its bottom
 * row to the next block. Vertical deltas of column j are kept as bit vectors (plus: +1, minus: −1).
 */
function bitParallelState(middle: Middles, own: boolean): BitState {
  const [outer, n, inner, m] =
    middle.n >= middle.m ? [middle.a, middle.n, middle.b, middle.m] : [middle.b, middle.m, middle.a, middle.n];
  const blocks = (m + 31) >>> 5;
  // Give each distinct pattern character a slot, and set its match bits per block.
  let slots = 0;
  for (let i = 0; i < m; i++) if (slotOf(inner[i] as number) < 0) setSlot(inner[i] as number, slots++);
  let bits: Int32Array;
  let columnsOf: Int32Array;
  let up: Int32Array;
  let down: Int32Array;
  if (own) {
    bits = new Int32Array(slots * blocks);
    columnsOf = new Int32Array(n);
    up = new Int32Array(blocks);
    down = new Int32Array(blocks);
  } else {
    if (peq.length < slots * blocks) peq = new Int32Array(growTo(slots * blocks));
    if (columnSlots.length < n) columnSlots = new Int32Array(growTo(n));
    if (plus.length < blocks) {
      plus = new Int32Array(growTo(blocks));
      minus = new Int32Array(growTo(blocks));
    }
    [bits, columnsOf, up, down] = [peq, columnSlots, plus, minus];
  }
  bits.fill(0, 0, slots * blocks);
  for (let i = 0; i < m; i++) {
    const at = slotOf(inner[i] as number) * blocks + (i >>> 5);
    bits[at] = (bits[at] as number) | (1 << (i & 31));
  }
  for (let j = 0; j < n; j++) columnsOf[j] = slotOf(outer[j] as number);
  for (let i = 0; i < m; i++) clearSlot(inner[i] as number);
  up.fill(-1, 0, blocks);
  down.fill(0, 0, blocks);
  return {
    blocks,
    columns: n,
    lastBit: 1 << ((m - 1) & 31),
    peq: bits,
    columnSlots: columnsOf,
    plus: up,
    minus: down,
    score: m,
  };
}

/** Advances Myers' algorithm over text columns `from..to`. */
function advance(state: BitState, from: number, to: number): void {
  const { blocks, lastBit, peq: bits, columnSlots: columnsOf, plus: up, minus: down } = state;
  let score = state.score;
  for (let j = from; j < to; j++) {
    const slot = columnsOf[j] as number;
    // The top row of the matrix is 0, 1, 2, …: every column enters the first block with +1.
    let carry = 1;
    for (let b = 0; b < blocks; b++) {
      let eq = slot < 0 ? 0 : (bits[slot * blocks + b] as number);
      const pv = up[b] as number;
      const mv = down[b] as number;
      const xv = eq | mv;
      if (carry < 0) eq |= 1;
      const xh = (((eq & pv) + pv) ^ pv) | eq;
      let ph = mv | ~(xh | pv);
      let mh = pv & xh;
      const high = b === blocks - 1 ? lastBit : 1 << 31;
      const out = (ph & high) !== 0 ? 1 : (mh & high) !== 0 ? -1 : 0;
      ph <<= 1;
      mh <<= 1;
      if (carry < 0) mh |= 1;
      else if (carry > 0) ph |= 1;
      up[b] = mh | ~(xv | ph);
      down[b] = ph & xv;
      carry = out;
    }
    score += carry;
  }
  state.score = score;
}

function slotOf(codePoint: number): number {
  return codePoint < 0x10000 ? (bmpSlot[codePoint] as number) : (astralSlot.get(codePoint) ?? -1);
}

function setSlot(codePoint: number, slot: number): void {
  if (codePoint < 0x10000) bmpSlot[codePoint] = slot;
  else astralSlot.set(codePoint, slot);
}

function clearSlot(codePoint: number): void {
  if (codePoint < 0x10000) bmpSlot[codePoint] = -1;
  else astralSlot.delete(codePoint);
}

/** Distance between `outer[0..n)` and `inner[0..m)`, with m <= n so the row is the short one. */
function dynamicProgramme(outer: Int32Array, n: number, inner: Int32Array, m: number): number {
  if (row.length < m + 1) row = new Int32Array(growTo(m + 1));
  const r = row;
  for (let j = 0; j <= m; j++) r[j] = j;
  for (let i = 1; i <= n; i++) {
    const c = outer[i - 1];
    let diagonal = r[0] as number; // the previous row's cell j − 1
    let left = i; // this row's cell j − 1
    r[0] = i;
    for (let j = 1; j <= m; j++) {
      const up = r[j] as number;
      let value = inner[j - 1] === c ? diagonal : diagonal + 1;
      if (up + 1 < value) value = up + 1;
      if (left + 1 < value) value = left + 1;
      r[j] = value;
      left = value;
      diagonal = up;
    }
  }
  return r[m] as number;
}

/** Writes the code points of `text[start..end)` into `into` (sized for end − start); returns how many. */
function decode(text: string, start: number, end: number, into: Int32Array): number {
  let count = 0;
  for (let i = start; i < end; i++) {
    const unit = text.charCodeAt(i);
    if (isHighSurrogate(unit) && i + 1 < end) {
      const next = text.charCodeAt(i + 1);
      if (isLowSurrogate(next)) {
        into[count++] = ((unit - 0xd800) << 10) + (next - 0xdc00) + 0x10000;
        i++;
        continue;
      }
    }
    into[count++] = unit; // a BMP character, or a lone surrogate counted as one character
  }
  return count;
}

/** The number of code points in `text[start..end)`; a lone surrogate counts as one. */
export function codePointCount(text: string, start: number, end: number): number {
  let count = 0;
  for (let i = start; i < end; i++) {
    if (isHighSurrogate(text.charCodeAt(i)) && i + 1 < end && isLowSurrogate(text.charCodeAt(i + 1))) i++;
    count++;
  }
  return count;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

function growTo(size: number): number {
  let capacity = 64;
  while (capacity < size) capacity *= 2;
  return capacity;
}
