/**
 * A map that keeps at most `capacity` entries: reading or writing an entry makes it the most recent,
 * and past the limit the least recently used goes first.
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }

  get(key: K): V | undefined {
    const found = this.entries.get(key);
    if (found !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, found);
    }
    return found;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
  }

  /** The value kept under `key`, else `make()`'s, kept. */
  getOrMake(key: K, make: () => V): V {
    const found = this.get(key);
    if (found !== undefined) return found;
    const made = make();
    this.set(key, made);
    return made;
  }
}
