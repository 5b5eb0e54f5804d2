/**
 * Shards of a run (issue 17): a case belongs to shard `shardOf(id, count)` (zero-based), decided by a
 * stable hash of its id alone, so the same case lands in the same shard on every machine, whatever
 * the dataset's order, the other cases or the number of cores. The hash is FNV-1a (32-bit) over the
 * id's UTF-8 bytes followed by MurmurHash3's finalizer, whose avalanche evens out the low bits that
 * `% count` reads (ids such as `case-000001` … differ only in their last characters).
 */

/** A shard of a run: `index` zero-based (0 … count − 1), as Kubernetes' JOB_COMPLETION_INDEX counts. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** The most shards a run may be split into. */
export const MAX_SHARDS = 10_000;

const encoder = new TextEncoder();

/** The shard (zero-based, below `count`) case `id` belongs to. */
export function shardOf(id: string, count: number): number {
  return caseHash(id) % count;
}

/** An unsigned 32-bit hash of the id's UTF-8 bytes; the same on every platform. */
export function caseHash(id: string): number {
  let h = 0x811c9dc5;
  for (const byte of encoder.encode(id)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Whether case `id` is in `shard`. */
export function inShard(id: string, shard: Shard): boolean {
  return shardOf(id, shard.count) === shard.index;
}

/** How people and the run folder name a shard: one-based, `2/3` is the second of three. */
export function shardLabel(shard: Shard): string {
  return `${shard.index + 1}/${shard.count}`;
}

/**
 * A one-based `i/n` (as `--shard` takes it and run folders record it) as a Shard, or why it is not
 * one: n from 1 to MAX_SHARDS, i from 1 to n.
 */
export function parseShardLabel(text: string): Shard | string {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (match === null) return `expected i/n, one-based (e.g. 2/3 is the second of three shards)`;
  const i = Number(match[1]);
  const n = Number(match[2]);
  if (n < 1 || n > MAX_SHARDS) return `the shard count must be from 1 to ${MAX_SHARDS}; got ${n}`;
  if (i < 1 || i > n)
    return `the shard number is one-based and must be from 1 to ${n}; got ${i}${i === 0 ? ' (for a zero-based index such as JOB_COMPLETION_INDEX, use --shard-index and --shard-count)' : ''}`;
  return { index: i - 1, count: n };
}
