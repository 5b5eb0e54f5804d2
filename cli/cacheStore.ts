import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RootDatabase } from 'lmdb';
import type { ScorerVerdict } from '../core/result';
import type { ResultStore } from '../core/cache/scoringCache';
import type { TargetOutput, TargetOutputStore } from '../core/cache/targetCache';
import { RESULT_STATUSES } from '../core/result';

/**
 * The result cache on disk (docs/cache.md): one LMDB database, `<cache dir>/results.lmdb`, through
 * the `lmdb` package. LMDB is a memory-mapped B+tree: a lookup is a few page reads whatever the
 * number of entries (measured at a million: bench/cache.mjs), readers never block, writers from
 * several processes are serialised by its lock file, and a commit is atomic — a killed run leaves
 * the entries it committed and no half-written one.
 *
 * Each value is `<sha256 of the JSON>\n<verdict as JSON>`: an entry whose checksum or shape does not
 * hold (a disk error, a hand edit, another program's bytes) is a miss, and the run's new verdict
 * overwrites it. A write that fails (a full disk) is one warning, and the run goes on: its results
 * are in the run folder whatever happens to the cache.
 */
export class CacheStore implements ResultStore, TargetOutputStore {
  /** Verdicts and target outputs found, entries missing or corrupt, written and not written, this run. */
  readonly counts = { hits: 0, outputHits: 0, misses: 0, corrupt: 0, written: 0, failedWrites: 0 };
  private readonly pending = new Set<Promise<unknown>>();
  private warned = false;

  constructor(
    readonly dir: string,
    private readonly db: Pick<RootDatabase<string, string>, 'get' | 'put' | 'close' | 'getCount' | 'clearSync'>,
    private readonly warn: (message: string) => void,
  ) {}

  get(key: string): ScorerVerdict | undefined {
    const verdict = this.read(key, isVerdict);
    if (verdict !== undefined) this.counts.hits++;
    return verdict;
  }

  set(key: string, verdict: ScorerVerdict): void {
    this.write(key, verdict);
  }

  getOutput(key: string): TargetOutput | undefined {
    const output = this.read(key, isTargetOutput);
    if (output !== undefined) this.counts.outputHits++;
    return output;
  }

  setOutput(key: string, value: TargetOutput): void {
    this.write(key, value);
  }

  /** The value under `key` when it is whole (its checksum holds) and of the expected shape; else a miss. */
  private read<T>(key: string, shaped: (value: unknown) => value is T): T | undefined {
    let value: string | undefined;
    try {
      value = this.db.get(key);
    } catch {
      value = undefined;
    }
    if (value === undefined) {
      this.counts.misses++;
      return undefined;
    }
    const decoded = decode(value);
    if (decoded === undefined || !shaped(decoded)) {
      this.counts.corrupt++;
      this.counts.misses++;
      return undefined;
    }
    return decoded;
  }

  private write(key: string, value: unknown): void {
    let written: Promise<unknown>;
    try {
      written = this.db.put(key, encode(value));
    } catch (e) {
      this.failed(e);
      return;
    }
    const tracked = written.then(
      () => {
        this.counts.written++;
      },
      (e: unknown) => this.failed(e),
    );
    this.pending.add(tracked);
    void tracked.finally(() => this.pending.delete(tracked));
  }

  /** Entries in the cache (all runs'). */
  entries(): number {
    return this.db.getCount();
  }

  /** Removes every entry; safe while another run uses the cache (it is one LMDB transaction). */
  clear(): number {
    const before = this.entries();
    this.db.clearSync();
    return before;
  }

  /** Waits for the writes in flight (committed or failed). */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  /** Waits for the writes in flight, then closes the database. Never throws. */
  async close(): Promise<void> {
    await this.flush();
    try {
      await this.db.close();
    } catch (e) {
      this.failed(e);
    }
  }

  private failed(e: unknown): void {
    this.counts.failedWrites++;
    if (this.warned) return;
    this.warned = true;
    const code = (e as NodeJS.ErrnoException | undefined)?.code;
    const why = code ?? (e instanceof Error ? e.message : String(e));
    this.warn(
      `the result cache in ${this.dir} could not be written (${why}${code === 'ENOSPC' ? ': the disk is full' : ''}); ` +
        'the run goes on and keeps every result in its run folder, but results scored from now on are not cached',
    );
  }
}

/** Opens (creating) the cache in `dir`; undefined, with a warning, when it cannot be opened. */
export function openCacheStore(dir: string, warn: (message: string) => void): CacheStore | undefined {
  try {
    mkdirSync(dir, { recursive: true });
    // Loaded here, not at start: a command that does not cache never loads the native module.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { open } = require('lmdb') as typeof import('lmdb');
    const db = open<string, string>({ path: join(dir, DATABASE_FILE), encoding: 'string', compression: false });
    return new CacheStore(dir, db, warn);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    warn(
      `the result cache in ${dir} cannot be opened (${code ?? (e instanceof Error ? e.message : String(e))}); this run scores everything and caches nothing`,
    );
    return undefined;
  }
}

/** The database file in the cache folder (LMDB adds `results.lmdb-lock` beside it). */
export const DATABASE_FILE = 'results.lmdb';

/** The cache folder's size on disk, in bytes (its database and lock files). */
export function cacheBytes(dir: string): number {
  let bytes = 0;
  try {
    for (const name of readdirSync(dir)) bytes += statSync(join(dir, name)).size;
  } catch {
    return 0;
  }
  return bytes;
}

function encode(value: unknown): string {
  const json = JSON.stringify(value);
  return `${checksum(json)}\n${json}`;
}

/** The JSON an entry holds, or undefined when the entry is not one this store wrote whole. */
export function decode(value: unknown): unknown {
  if (typeof value !== 'string') return undefined;
  const newline = value.indexOf('\n');
  if (newline !== 64) return undefined;
  const json = value.slice(65);
  if (value.slice(0, 64) !== checksum(json)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return undefined;
  }
  return parsed;
}

function checksum(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

const STATUSES: ReadonlySet<string> = new Set(RESULT_STATUSES);

function isTargetOutput(value: unknown): value is TargetOutput {
  return (
    value !== null && typeof value === 'object' && !Array.isArray(value) && 'output' in value && !('status' in value)
  );
}

function isVerdict(value: unknown): value is ScorerVerdict {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const v = value as { status?: unknown; reason?: unknown; score?: unknown; parts?: unknown };
  return (
    typeof v.status === 'string' &&
    STATUSES.has(v.status) &&
    typeof v.reason === 'string' &&
    (v.score === undefined || typeof v.score === 'number') &&
    (v.parts === undefined || Array.isArray(v.parts))
  );
}
