import { BoundedCache } from '../../boundedCache';
import type { Durability, PatternSafety, VerdictCache } from './boundedRegex';

/**
 * A host's regex verdicts: the most recent in memory (bounded), in front of a store the host may give
 * that keeps them longer (the CLI and the language server: a file in the user's cache folder,
 * shared/regexVerdicts/verdictStore.ts). A verdict is kept in both unless it is not `durable`.
 */
export class KeptVerdicts implements VerdictCache {
  private readonly memory: BoundedCache<string, PatternSafety>;

  constructor(
    capacity: number,
    private readonly backing?: VerdictCache,
  ) {
    this.memory = new BoundedCache(capacity);
  }

  /** How many verdicts memory keeps. */
  get capacity(): number {
    return this.memory.capacity;
  }

  /** Verdicts in memory. */
  get size(): number {
    return this.memory.size;
  }

  get(key: string): PatternSafety | undefined {
    const remembered = this.memory.get(key);
    if (remembered !== undefined) return remembered;
    const stored = this.backing?.get(key);
    if (stored !== undefined) this.memory.set(key, stored);
    return stored;
  }

  /**
   * How many verdicts of this process may say more about the machine's load than the pattern (not
   * durable, or kept only if the machine was idle): whatever was derived from them must not outlive the process.
   */
  get loadDependent(): number {
    return this.loadDependentCount;
  }

  private loadDependentCount = 0;

  set(key: string, value: PatternSafety, durable: Durability = true): void {
    if (durable !== true) this.loadDependentCount++;
    this.memory.set(key, value);
    if (durable !== false) this.backing?.set(key, value, durable);
  }
}
