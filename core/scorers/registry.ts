import { BUILTIN_SCORER_INDEX, type ScorerEntry } from './builtinIndex';
import { isBooleanVerdict, negatedKey, negationOf } from './negation';
import type { ScorerDefinition } from './scorer';

/**
 * The scorers a config may name, by key. Built from definitions or from entries that load a definition
 * the first time its key is asked for (the built-ins: builtinIndex.ts), so checking a config sets up only
 * the scorers it names. Listing them all (`all()`, `negationKeys()`: an editor's completion, a `not-` key's
 * near misses) loads them all.
 */
export class ScorerRegistry {
  private readonly byKey = new Map<string, ScorerDefinition | ScorerEntry>();
  /** Negations made on first use, one per key, so a key always selects the same definition. */
  private readonly negations = new Map<string, ScorerDefinition>();

  constructor(scorers: readonly (ScorerDefinition | ScorerEntry)[] = BUILTIN_SCORER_INDEX) {
    for (const s of scorers) this.byKey.set(s.key, s);
  }

  /** The scorer a key selects: a registered one, else the negation a `not-` / `not_` key names (negation.ts). */
  get(key: string): ScorerDefinition | undefined {
    const found = this.own(key) ?? this.negations.get(key);
    if (found !== undefined) return found;
    const negation = negationOf(key, (base) => this.own(base));
    if (negation !== undefined) this.negations.set(key, negation);
    return negation;
  }

  keys(): string[] {
    return [...this.byKey.keys()].sort();
  }

  /**
   * The `not-<key>` of every boolean-verdict scorer (negation.ts), sorted: what an editor offers and
   * suggests beside keys(). A scorer that is itself a negation (`not_contains`) gets none.
   */
  negationKeys(): string[] {
    return this.all()
      .filter((d) => isBooleanVerdict(d) && negatedKey(d.key) === undefined && !this.byKey.has(`not-${d.key}`))
      .map((d) => `not-${d.key}`);
  }

  /** The scorer a key negates, when the key selects a negation rather than a scorer of its own (`not_contains` is one). */
  negatedScorer(key: string): ScorerDefinition | undefined {
    const base = this.byKey.has(key) ? undefined : negatedKey(key);
    return base === undefined || this.get(key) === undefined ? undefined : this.own(base);
  }

  all(): ScorerDefinition[] {
    return this.keys()
      .map((k) => this.own(k))
      .filter((d): d is ScorerDefinition => d !== undefined);
  }

  /** The definition registered under a key, loaded (and kept) on first use. */
  private own(key: string): ScorerDefinition | undefined {
    const registered = this.byKey.get(key);
    if (registered === undefined || !isEntry(registered)) return registered;
    const definition = registered.load();
    this.byKey.set(key, definition);
    return definition;
  }
}

function isEntry(scorer: ScorerDefinition | ScorerEntry): scorer is ScorerEntry {
  return 'load' in scorer;
}
