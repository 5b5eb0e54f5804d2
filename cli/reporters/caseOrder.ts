/** Finished cases the console holds back behind one that has not finished, at most. */
const MAX_HELD = 1000;

/**
 * Puts finished cases back in dataset order for the console. Cases start in dataset order but end in
 * whatever order their scorers take (several at a time, a persistent subprocess answering in
 * batches); each is printed once every case that started before it has been. A case that takes
 * long holds back at most MAX_HELD others: past that they are printed, and it is when it ends.
 */
export class CaseOrder<T> {
  private readonly started: number[] = [];
  private head = 0;
  private readonly waiting = new Set<number>();
  private readonly ended = new Map<number, T>();
  /**
   * A case started while no other waited, not yet in `started` and `waiting`: when it ends before
   * another starts (a merge's cases all do) it is printed at once, with no set or list to keep.
   */
  private alone: number | undefined;

  start(index: number): void {
    this.settle();
    if (this.head === this.started.length) this.alone = index;
    else {
      this.started.push(index);
      this.waiting.add(index);
    }
  }

  /** The case started alone, kept as any other from here on. */
  private settle(): void {
    if (this.alone === undefined) return;
    this.started.push(this.alone);
    this.waiting.add(this.alone);
    this.alone = undefined;
  }

  /** What can be printed now that case `index` has ended, in order. */
  end(index: number, item: T): T[] {
    if (this.alone === index) {
      this.alone = undefined;
      return [item];
    }
    this.settle();
    // A case never announced (a report shown again) or given up waiting for is printed as it comes.
    if (!this.waiting.has(index)) return [item];
    // The case every other waits for, none held: printed at once (a merge's cases all come so).
    if (this.ended.size === 0 && this.started[this.head] === index) {
      this.waiting.delete(index);
      this.head++;
      this.compact();
      return [item];
    }
    this.ended.set(index, item);
    const ready: T[] = [];
    while (this.head < this.started.length) {
      const next = this.started[this.head] ?? -1;
      const done = this.ended.get(next);
      if (done === undefined && this.ended.size <= MAX_HELD) break;
      if (done !== undefined) {
        ready.push(done);
        this.ended.delete(next);
      }
      this.waiting.delete(next);
      this.head++;
    }
    this.compact();
    return ready;
  }

  /** Drops the printed cases' indexes once they are most of the list. */
  private compact(): void {
    if (this.head > 1024 && this.head * 2 > this.started.length) {
      this.started.splice(0, this.head);
      this.head = 0;
    }
  }

  /** At the end (a run stopped early), what is still held, in order. */
  rest(): T[] {
    this.settle();
    const held = this.started.slice(this.head).flatMap((index) => {
      const item = this.ended.get(index);
      return item === undefined ? [] : [item];
    });
    this.ended.clear();
    return held;
  }
}
