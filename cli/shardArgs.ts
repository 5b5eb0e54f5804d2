/**
 * The shard a run is asked for on the command line, in one of two spellings:
 * - `--shard i/n`, one-based as Playwright's `--shard` and people count: `--shard 1/3` … `--shard 3/3`;
 * - `--shard-index k --shard-count n`, zero-based, for schedulers that count from 0 (Kubernetes Indexed
 *   Jobs' JOB_COMPLETION_INDEX, `--shard-index $JOB_COMPLETION_INDEX --shard-count 3` is 0 … 2).
 * Both name the same shards: `--shard 2/3` is `--shard-index 1 --shard-count 3`.
 */
import { MAX_SHARDS, parseShardLabel, type Shard } from '../core/runner/shard';

export interface ShardFlags {
  readonly shard?: string | undefined;
  readonly 'shard-index'?: string | undefined;
  readonly 'shard-count'?: string | undefined;
}

/** The shard the flags ask for, none, or why they cannot be read (a usage error's text). */
export function shardFromFlags(flags: ShardFlags): Shard | undefined | string {
  const one = flags.shard;
  const index = flags['shard-index'];
  const count = flags['shard-count'];
  if (one !== undefined) {
    if (index !== undefined || count !== undefined)
      return '--shard i/n (one-based) and --shard-index/--shard-count (zero-based) name the same thing; give one of them';
    const shard = parseShardLabel(one);
    return typeof shard === 'string' ? `--shard ${one}: ${shard}` : shard;
  }
  if (index === undefined && count === undefined) return undefined;
  if (index === undefined || count === undefined)
    return '--shard-index and --shard-count go together (e.g. --shard-index $JOB_COMPLETION_INDEX --shard-count 3)';
  const n = wholeNumber(count);
  if (n === undefined || n < 1 || n > MAX_SHARDS)
    return `--shard-count must be a whole number from 1 to ${MAX_SHARDS}; got "${count}"`;
  const k = wholeNumber(index);
  if (k === undefined || k >= n)
    return `--shard-index is zero-based and must be from 0 to ${n - 1} for --shard-count ${n}; got "${index}"`;
  return { index: k, count: n };
}

function wholeNumber(text: string): number | undefined {
  return /^\s*\d{1,9}\s*$/.test(text) ? Number(text) : undefined;
}
