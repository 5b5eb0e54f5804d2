/**
 * Dataset order for `evallens merge`. A run folder lists cases in the order they finished, which is
 * dataset order give or take the cases running at once and the slow ones. Each shard is put back in
 * order through a window of at most WINDOW cases (memory bounded by the window, not the run); a shard
 * whose cases are further out of order than that (a case that took far longer than thousands of
 * others) is sorted whole in memory instead, which a first pass over its small cases.jsonl detects.
 * The shards, each in order, are then merged by dataset index.
 */
import { join } from 'node:path';
import { caseIndexes, folderCases, type FolderCase } from './runFolderCases';

/** Cases held back per shard to put it in order. */
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

/**
 * Whether the folder's cases come out in index order through a window of `window` (a pass over
 * cases.jsonl, holding a window of indexes only; each line's index read from its front).
 */
async function fitsWindow(dir: string, window: number): Promise<boolean> {
  const path = join(dir, 'cases.jsonl');
  const heap = new MinHeap<number>((n) => n);
  let last = -Infinity;
  let fits = true;
  for await (const index of caseIndexes(path)) {
    heap.push(index);
    if (heap.size > window) {
      const out = heap.pop() ?? 0;
      if (out < last) fits = false;
      last = out;
    }
  }
  return fits;
}

/** A finished shard's cases in dataset order. */
export async function* inDatasetOrder(dir: string, window = WINDOW): AsyncIterable<FolderCase> {
  const held = new MinHeap<FolderCase>((c) => c.case.index);
  const limit = (await fitsWindow(dir, window)) ? window : Infinity;
  for await (const item of folderCases(dir)) {
    held.push(item);
    if (held.size > limit) yield held.pop() as FolderCase;
  }
  while (held.size > 0) yield held.pop() as FolderCase;
}

/** Several ordered streams merged into one, by dataset index; `origin` says which stream a case came from. */
export async function* mergeByIndex(
  streams: readonly AsyncIterable<FolderCase>[],
): AsyncIterable<{ readonly item: FolderCase; readonly origin: number }> {
  const iterators = streams.map((s) => s[Symbol.asyncIterator]());
  const heads = new MinHeap<{ item: FolderCase; origin: number }>((h) => h.item.case.index);
  const advance = async (origin: number) => {
    const next = await (iterators[origin] as AsyncIterator<FolderCase>).next();
    if (next.done !== true) heads.push({ item: next.value, origin });
  };
  for (let i = 0; i < iterators.length; i++) await advance(i);
  let last: { index: number; origin: number } | undefined;
  while (heads.size > 0) {
    const head = heads.pop() as { item: FolderCase; origin: number };
    if (last !== undefined && last.index === head.item.case.index)
      throw new MergeOverlapError(head.item.case.index, last.origin, head.origin);
    last = { index: head.item.case.index, origin: head.origin };
    yield head;
    await advance(head.origin);
  }
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
