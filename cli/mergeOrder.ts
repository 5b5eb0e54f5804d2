/**
 * Dataset order for `evallens merge`. A run folder lists cases in the order they finished, which is
 * dataset order give or take the cases running at once and the slow ones. Each shard is put back in
 * order through a window of at most WINDOW cases (memory bounded by the window, not the run), the
 * smallest that does it (none for a shard written in order); a shard whose cases are further out of
 * order than that (a case that took far longer than thousands of others) is sorted whole in memory
 * instead. A first pass over its small cases.jsonl finds which.
 * The shards, each in order, are then merged by dataset index.
 */
import { join } from 'node:path';
import { caseIndexes, folderCaseBatches, type FolderCase } from './runFolderCases';

/** Cases held back per shard to put it in order, at most (fewer when fewer do: smallestWindow). */
export const WINDOW = 2048;

/** A binary min-heap on a numeric key. */
export class MinHeap<T> {
  private readonly items: T[] = [];

  constructor(private readonly key: (item: T) => number) {}

  get size(): number {
    return this.items.length;
  }

  push(item: T): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.key(items[parent] as T) <= this.key(item)) break;
      items[i] = items[parent] as T;
      i = parent;
    }
    items[i] = item;
  }

  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    let i = 0;
    const k = this.key(last);
    for (;;) {
      const left = 2 * i + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child = right < items.length && this.key(items[right] as T) < this.key(items[left] as T) ? right : left;
      if (this.key(items[child] as T) >= k) break;
      items[i] = items[child] as T;
      i = child;
    }
    items[i] = last;
    return top;
  }
}

/** Windows tried before the largest, smallest first: most shards are in order, or nearly. */
const SMALLER_WINDOWS = [0, 16, 256];

/** A window size tried: a heap of that many indexes, the last index out of it, and whether all came out in order. */
interface WindowTry {
  readonly size: number;
  readonly heap: MinHeap<number>;
  last: number;
  fits: boolean;
}

/** Windows up to which the first pass keeps the indexes read last, not a heap per window size (below). */
const LAZY_UP_TO = 1 << 16;

/**
 * The smallest window up to `window` through which the folder's cases come out in index order, or
 * Infinity when none does (a pass over cases.jsonl, holding a window of indexes per size tried; each
 * line's index read from its front). The smaller the window, the sooner a case read is handed on:
 * cases held across thousands of others outlive the young generation and cost the collector most of
 * a merge's time.
 */
async function smallestWindow(dir: string, window: number): Promise<number> {
  const path = join(dir, 'cases.jsonl');
  const sizes = [...SMALLER_WINDOWS.filter((w) => w < window), window];
  const newTry = (size: number): WindowTry => ({
    size,
    heap: new MinHeap<number>((n) => n),
    last: -Infinity,
    fits: true,
  });
  // While the indexes come in order (most shards' do) no window is tried: the last window + 1
  // indexes are kept, and each window's state is made from them if one comes out of order (that
  // of indexes in order: the heap holds the last `size` of them; the last out is the one before).
  const keep = window + 1;
  const recent: number[] = [];
  let count = 0;
  let last = -Infinity;
  let tries: WindowTry[] | undefined = window > LAZY_UP_TO ? sizes.map(newTry) : undefined;
  for await (const indexes of caseIndexes(path))
    for (const index of indexes) {
      if (tries === undefined) {
        if (index >= last) {
          last = index;
          recent[count % keep] = index;
          count++;
          continue;
        }
        tries = sizes.map((size) => {
          const t = newTry(size);
          for (let back = 1; back <= Math.min(count, size); back++)
            t.heap.push(recent[(count - back) % keep] as number);
          if (count > size) t.last = recent[(count - size - 1) % keep] as number;
          return t;
        });
      }
      for (const t of tries) {
        if (!t.fits) continue;
        t.heap.push(index);
        if (t.heap.size > t.size) {
          const out = t.heap.pop() ?? 0;
          if (out < t.last) t.fits = false;
          t.last = out;
        }
      }
    }
  // In order throughout: every window fits, the smallest first.
  if (tries === undefined) return sizes[0] ?? window;
  return tries.find((t) => t.fits)?.size ?? Infinity;
}

/** A finished shard's cases in dataset order. */
export async function* inDatasetOrder(dir: string, window = WINDOW): AsyncIterable<FolderCase> {
  for await (const batch of inDatasetOrderBatches(dir, window)) yield* batch;
}

/** inDatasetOrder in batches (a promise per case cost more than the case). */
export async function* inDatasetOrderBatches(dir: string, window = WINDOW): AsyncIterable<FolderCase[]> {
  const held = new MinHeap<FolderCase>((c) => c.case.index);
  const limit = await smallestWindow(dir, window);
  for await (const batch of folderCaseBatches(dir)) {
    const out: FolderCase[] = [];
    for (const item of batch) {
      held.push(item);
      if (held.size > limit) out.push(held.pop() as FolderCase);
    }
    if (out.length > 0) yield out;
  }
  const rest: FolderCase[] = [];
  while (held.size > 0) rest.push(held.pop() as FolderCase);
  if (rest.length > 0) yield rest;
}

/** Merged cases handed on at once. */
const MERGED_BATCH = 64;

/**
 * Several streams of batches, each in dataset order, merged into one by dataset index, in batches.
 * Two streams holding the same index is a MergeOverlapError naming both (by their position in `streams`).
 */
export async function* mergeByIndex(streams: readonly AsyncIterable<FolderCase[]>[]): AsyncIterable<FolderCase[]> {
  const iterators = streams.map((s) => s[Symbol.asyncIterator]());
  const batches: FolderCase[][] = streams.map(() => []);
  const at: number[] = streams.map(() => 0);
  const headIndex = (origin: number) =>
    ((batches[origin] as FolderCase[])[at[origin] as number] as FolderCase).case.index;
  const heads = new MinHeap<number>(headIndex);
  /** Loads the origin's next batch when its current one is used up; false when the stream has ended. */
  const ready = async (origin: number): Promise<boolean> => {
    while ((at[origin] as number) >= (batches[origin] as FolderCase[]).length) {
      const next = await (iterators[origin] as AsyncIterator<FolderCase[]>).next();
      if (next.done === true) return false;
      batches[origin] = next.value;
      at[origin] = 0;
    }
    return true;
  };
  for (let origin = 0; origin < iterators.length; origin++) if (await ready(origin)) heads.push(origin);
  let last = -1;
  let lastOrigin = -1;
  let out: FolderCase[] = [];
  while (heads.size > 0) {
    const origin = heads.pop() as number;
    const item = (batches[origin] as FolderCase[])[at[origin] as number] as FolderCase;
    at[origin] = (at[origin] as number) + 1;
    if (item.case.index === last) throw new MergeOverlapError(last, lastOrigin, origin);
    last = item.case.index;
    lastOrigin = origin;
    out.push(item);
    if (out.length >= MERGED_BATCH) {
      yield out;
      out = [];
    }
    if (await ready(origin)) heads.push(origin);
  }
  if (out.length > 0) yield out;
}

/** Two shards hold the same case: they are not shards of one split. */
export class MergeOverlapError extends Error {
  constructor(
    readonly index: number,
    readonly first: number,
    readonly second: number,
  ) {
    super(`case index ${index} is in two shards`);
  }
}
