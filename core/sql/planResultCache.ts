import type { QueryOutcome, QueryPlan, QueryRun } from './sqlResult';
import { sqlVaries } from './sqlVaries';

/**
 * What an SQLite plan gave, kept so that the same plan on the same database is not run again in the
 * same process. Every SQLite run starts from a fresh copy of the same bytes (sqliteEngine.ts), so a
 * plan whose SQL calls nothing that reads the clock or draws random numbers gives the same rows,
 * errors and setup errors each time: the golden query a run scores many cases against (a dataset
 * with several trials, or several models' answers to the same items) and generated SQL equal to the
 * golden SQL are answered from here instead of crossing to the SQLite worker again. Verdicts do not
 * change; the run's `durationMs` is that of the run the answer was kept from.
 *
 * Only runs that ended by themselves are kept (not one a time limit, a crash or an abort stopped:
 * another try might end otherwise), and the time limit is part of the key. The cache is bounded:
 * at most `maxBytes` in all, estimated as the JavaScript heap holds it (strings as UTF-16, each object,
 * row and value with its header, the key's text), a run over `maxEntryBytes` is never kept, and the
 * least recently used runs go first. A run is kept only when its plan is seen the second time (a
 * 32-bit hash of each key seen once is remembered, at most `MAX_SEEN` of them): a run of all-distinct
 * plans would otherwise fill the cache and keep evicting, and every evicted run is garbage the heap
 * grows for (+35–50 MB of peak RSS at 10,000 cases). The bound is small on purpose: a run's peak memory matters more
 * than the last hits (with every plan distinct, a 16 MiB bound raised a 10,000-case run's peak RSS by
 * ~50 MB, as the estimate then missed the objects' headers). One cache serves every SQLite engine of the process, so many
 * databases share one bound; an engine's runs are dropped when it closes.
 */
export class PlanResultCache {
  private readonly entries = new Map<string, { readonly run: QueryRun; readonly bytes: number }>();
  private bytes = 0;
  /** Hashes of the keys seen once (the second sighting keeps the run). */
  private readonly seen = new Set<number>();
  /** Answers given from the cache and runs looked up but not found, for benchmarks and tests. */
  hits = 0;
  misses = 0;

  constructor(
    readonly maxBytes = DEFAULT_MAX_BYTES,
    readonly maxEntryBytes = DEFAULT_MAX_ENTRY_BYTES,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get usedBytes(): number {
    return this.bytes;
  }

  get(key: string): QueryRun | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) {
      this.misses++;
      return undefined;
    }
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.hits++;
    return entry.run;
  }

  set(key: string, run: QueryRun): void {
    const hash = hashOf(key);
    if (!this.seen.has(hash)) {
      if (this.seen.size >= MAX_SEEN) this.seen.clear();
      this.seen.add(hash);
      return;
    }
    const bytes = ENTRY_OVERHEAD + STRING_OVERHEAD + key.length * 2 + runBytes(run);
    if (bytes > this.maxEntryBytes || bytes > this.maxBytes) return;
    this.delete(key);
    this.entries.set(key, { run, bytes });
    this.bytes += bytes;
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  /** Drops the runs whose key starts with `scope` (an engine that closed). */
  dropScope(scope: string): void {
    for (const key of [...this.entries.keys()]) if (key.startsWith(scope)) this.delete(key);
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}

const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_ENTRY_BYTES = 256 * 1024;

const MAX_SEEN = 100_000;

/** FNV-1a over the key's UTF-16 code units: a collision only keeps a run one sighting early. */
function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** Heap bytes of a kept run's objects besides its values: the entry, the run, its outcomes, the map slot. */
const ENTRY_OVERHEAD = 256;
const OUTCOME_OVERHEAD = 96;
const ROW_OVERHEAD = 32;
const VALUE_BYTES = 16;
const STRING_OVERHEAD = 24;

/** The cache every SQLite engine of this process shares unless told otherwise. */
export const sharedPlanResultCache = new PlanResultCache();

/** The key of a plan for one engine (`scope`) under one time limit; undefined when its result may differ from run to run (sqlVaries.ts). */
export function planCacheKey(scope: string, plan: QueryPlan, timeoutMs: number): string | undefined {
  const sql = [...plan.setup, plan.query, ...plan.evalQueries, ...plan.cleanup];
  if (sql.some((text) => sqlVaries(text))) return undefined;
  return `${scope}\u0000${timeoutMs}\u0000${JSON.stringify([plan.setup, plan.query, plan.evalQueries, plan.cleanup])}`;
}

function runBytes(run: QueryRun): number {
  let total = outcomeBytes(run.query);
  for (const outcome of run.evalQueries ?? []) total += outcomeBytes(outcome);
  for (const error of run.setupErrors ?? []) total += STRING_OVERHEAD + error.length * 2;
  return total;
}

function outcomeBytes(outcome: QueryOutcome): number {
  if (!outcome.ok) return OUTCOME_OVERHEAD + STRING_OVERHEAD + outcome.error.length * 2;
  let total = OUTCOME_OVERHEAD;
  for (const column of outcome.result.columns) total += VALUE_BYTES + STRING_OVERHEAD + column.length * 2;
  for (const row of outcome.result.rows) {
    total += ROW_OVERHEAD;
    for (const value of row)
      total += VALUE_BYTES + (typeof value === 'string' ? STRING_OVERHEAD + value.length * 2 : 0);
  }
  return total;
}
