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
  /**
   * The open-addressing table, four numbers a slot side by side (one cache line serves a probe):
   * hash halves, 1-based line (0 = empty slot), arrival number.
   */
  private table = new Uint32Array(INITIAL_SLOTS * SLOT);
  private count = 0;
  /** The most recent ids, whole: the id of arrival `a` is at `a % recentIdsKept` while it is among them. */
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
    const [high, low] = this.hash(id);
    const taken = this.find(id, high, low);
    if (taken !== undefined) return taken;
    this.insert(id, high, low, line);
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
    const [high, low] = this.hash(id);
    return this.find(id, high, low) !== undefined;
  }

  /** Bytes held for the ids taken so far (the table and the recent ids' characters): bounded per id. */
  get storedBytes(): number {
    let recentChars = 0;
    for (const id of this.ring) recentChars += id?.length ?? 0;
    return this.table.byteLength + recentChars * 2;
  }

  /**
   * The earlier holder of `id`, if any: confirmed by the id itself when it is still kept. A kept id
   * equal to `id` wins over a match by hash alone, wherever each sits in the probe sequence.
   */
  private find(id: string, high: number, low: number): { line: number; byHash: boolean } | undefined {
    const table = this.table;
    const mask = table.length / SLOT - 1;
    const kept = this.recentIdsKept;
    const oldestKept = this.count - Math.min(this.count, kept);
    let byHash: { line: number; byHash: boolean } | undefined;
    for (let slot = low & mask; table[slot * SLOT + LINE] !== 0; slot = (slot + 1) & mask) {
      const at = slot * SLOT;
      if (table[at + HIGH] !== high || table[at + LOW] !== low) continue;
      const arrival = table[at + ARRIVAL] ?? 0;
      const line = (table[at + LINE] ?? 1) - 1;
      if (arrival >= oldestKept) {
        // The earlier id is kept whole: the same id is a duplicate; another is a hash collision, not one.
        if (this.ring[arrival % kept] === id) return { line, byHash: false };
      } else byHash ??= { line, byHash: true };
    }
    return byHash;
  }

  private insert(id: string, high: number, low: number, line: number): void {
    if ((this.count + 1) * 2 > this.table.length / SLOT) this.grow();
    // eslint-disable-next-line no-restricted-syntax -- a slot marker, not a shown line: 0 marks an empty slot
    this.place(high, low, line + 1, this.count);
    if (this.recentIdsKept > 0) this.ring[this.count % this.recentIdsKept] = id;
    this.count += 1;
  }

  private place(high: number, low: number, oneBasedLine: number, arrival: number): void {
    const table = this.table;
    const mask = table.length / SLOT - 1;
    let slot = low & mask;
    while (table[slot * SLOT + LINE] !== 0) slot = (slot + 1) & mask;
    const at = slot * SLOT;
    table[at + HIGH] = high;
    table[at + LOW] = low;
    table[at + LINE] = Math.min(oneBasedLine, 0xffffffff);
    table[at + ARRIVAL] = arrival;
  }

  private grow(): void {
    const old = this.table;
    this.table = new Uint32Array(old.length * 2);
    for (let at = 0; at < old.length; at += SLOT) {
      const line = old[at + LINE] ?? 0;
      if (line !== 0) this.place(old[at + HIGH] ?? 0, old[at + LOW] ?? 0, line, old[at + ARRIVAL] ?? 0);
    }
  }
}

/** Ids kept whole, most recent first out: a match with one of them is confirmed by comparing the ids. */
export const RECENT_IDS_KEPT = 65_536;

const INITIAL_SLOTS = 64;
/** A slot's four numbers and where each sits in it. */
const SLOT = 4;
const HIGH = 0;
const LOW = 1;
const LINE = 2;
const ARRIVAL = 3;

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
