/**
 * The ids of one dataset's records, so that every record a reader yields has an id no other record of
 * the dataset has. A case whose id was taken earlier becomes an error record (the first one still
 * runs); error records take their own id when it is free, else a positional one.
 *
 * Memory is a fixed size per id, whatever the id's length: a 64-bit hash of it, the line that took it
 * and its arrival number, in typed arrays (16 bytes a slot, two to four slots per id), instead
 * of every id string in a map (a 1 GB dataset whose cases were all filtered out held 1.26 GB). The
 * ids themselves are kept only for the most recent RECENT_IDS_KEPT ids, so a hash match is confirmed
 * against the real id whenever the earlier id is among them, and two different ids with the same
 * hash are then never a duplicate. An earlier id outside that window cannot be compared: a match with
 * it is a duplicate by hash, and its message says so. With 64-bit hashes the chance that any such
 * match is false is below n²/2⁶⁵ for n ids (under one in a hundred thousand at ten million ids).
 */
export class CaseIdTracker {
  /** Slots of the open-addressing table: hash halves, 1-based line (0 = empty slot), arrival number. */
  private hashHigh = new Uint32Array(INITIAL_SLOTS);
  private hashLow = new Uint32Array(INITIAL_SLOTS);
  private lines = new Uint32Array(INITIAL_SLOTS);
  private arrivals = new Uint32Array(INITIAL_SLOTS);
  private count = 0;
  /** The most recent ids, whole (id → 0-based line), in arrival order. */
  private readonly recent = new Map<string, number>();
  private readonly ring: (string | undefined)[] = [];

  /** `hash` is replaceable so tests can make different ids collide. */
  constructor(
    private readonly recentIdsKept = RECENT_IDS_KEPT,
    private readonly hash: (id: string) => readonly [number, number] = idHash,
  ) {}

  /**
   * Takes `id` for the record that starts at the 0-based `line`. Returns `undefined` when it was free
   * (it is now taken), else the 0-based line of the record that has it.
   */
  claim(id: string, line: number): number | undefined {
    return this.claimWithProof(id, line)?.line;
  }

  /**
   * Like `claim`, and says whether a duplicate was confirmed by comparing the ids themselves
   * (`byHash: true` when the earlier id is no longer kept and only its hash matched).
   */
  claimWithProof(id: string, line: number): { readonly line: number; readonly byHash: boolean } | undefined {
    const taken = this.find(id);
    if (taken !== undefined) return taken;
    this.insert(id, line);
    return undefined;
  }

  /**
   * An id for an error record at the 0-based `line`: `preferred` when given and free, else `positional`,
   * else `positional` with the first free `~2`, `~3`, … suffix. The id returned is taken.
   */
  claimForError(preferred: string | undefined, positional: string, line: number): string {
    if (preferred !== undefined && this.claim(preferred, line) === undefined) return preferred;
    if (this.claim(positional, line) === undefined) return positional;
    for (let n = 2; ; n++) {
      const candidate = `${positional}~${n}`;
      if (this.claim(candidate, line) === undefined) return candidate;
    }
  }

  /** Whether `id` is taken. */
  has(id: string): boolean {
    return this.find(id) !== undefined;
  }

  /** Bytes held for the ids taken so far (the table and the recent ids' characters): bounded per id. */
  get storedBytes(): number {
    let recentChars = 0;
    for (const id of this.recent.keys()) recentChars += id.length;
    return this.hashHigh.byteLength * 4 + recentChars * 2;
  }

  /** The earlier holder of `id`, if any: confirmed by the id itself when it is still kept. */
  private find(id: string): { line: number; byHash: boolean } | undefined {
    const recentLine = this.recent.get(id);
    if (recentLine !== undefined) return { line: recentLine, byHash: false };
    const [high, low] = this.hash(id);
    const mask = this.lines.length - 1;
    const oldestKept = this.count - this.recent.size;
    for (let slot = low & mask; this.lines[slot] !== 0; slot = (slot + 1) & mask) {
      if (this.hashHigh[slot] !== high || this.hashLow[slot] !== low) continue;
      // The earlier id is kept whole and is not `id` (the map said so): a hash collision, not a duplicate.
      if ((this.arrivals[slot] ?? 0) >= oldestKept) continue;
      return { line: (this.lines[slot] ?? 1) - 1, byHash: true };
    }
    return undefined;
  }

  private insert(id: string, line: number): void {
    if ((this.count + 1) * 2 > this.lines.length) this.grow();
    const [high, low] = this.hash(id);
    // eslint-disable-next-line no-restricted-syntax -- a slot marker, not a shown line: 0 marks an empty slot
    this.place(high, low, line + 1, this.count);
    this.count += 1;
    if (this.recentIdsKept === 0) return;
    // A ring of the recent ids says which one leaves the map (iterating a map that is deleted from at
    // its front skips every deleted entry: slow).
    const at = (this.count - 1) % this.recentIdsKept;
    const leaving = this.ring[at];
    if (leaving !== undefined) this.recent.delete(leaving);
    this.ring[at] = id;
    this.recent.set(id, line);
  }

  private place(high: number, low: number, oneBasedLine: number, arrival: number): void {
    const mask = this.lines.length - 1;
    let slot = low & mask;
    while (this.lines[slot] !== 0) slot = (slot + 1) & mask;
    this.hashHigh[slot] = high;
    this.hashLow[slot] = low;
    this.lines[slot] = Math.min(oneBasedLine, 0xffffffff);
    this.arrivals[slot] = arrival;
  }

  private grow(): void {
    const { hashHigh, hashLow, lines, arrivals } = this;
    const size = lines.length * 2;
    this.hashHigh = new Uint32Array(size);
    this.hashLow = new Uint32Array(size);
    this.lines = new Uint32Array(size);
    this.arrivals = new Uint32Array(size);
    for (let slot = 0; slot < lines.length; slot++) {
      const line = lines[slot] ?? 0;
      if (line !== 0) this.place(hashHigh[slot] ?? 0, hashLow[slot] ?? 0, line, arrivals[slot] ?? 0);
    }
  }
}

/** Ids kept whole, most recent first out: a match with one of them is confirmed by comparing the ids. */
export const RECENT_IDS_KEPT = 65_536;

const INITIAL_SLOTS = 64;

/** A 64-bit hash of `id` as two 32-bit halves: two multiplicative hashes over its UTF-16 units, mixed at the end. */
export function idHash(id: string): [number, number] {
  let a = 0xdeadbeef ^ id.length;
  let b = 0x41c6ce57 ^ id.length;
  for (let i = 0; i < id.length; i++) {
    const unit = id.charCodeAt(i);
    a = Math.imul(a ^ unit, 2654435761);
    b = Math.imul(b ^ unit, 1597334677);
  }
  a = Math.imul(a ^ (a >>> 16), 2246822507) ^ Math.imul(b ^ (b >>> 13), 3266489909);
  b = Math.imul(b ^ (b >>> 16), 2246822507) ^ Math.imul(a ^ (a >>> 13), 3266489909);
  return [a >>> 0, b >>> 0];
}

/**
 * The stable id of a case without one: `line-N` (1-based line) in JSONL and CSV, `case-N` (1-based
 * position among the file's cases) in JSON, YAML and inline cases.
 */
export function positionalId(kind: 'line' | 'case', oneBased: number): string {
  return `${kind}-${oneBased}`;
}
