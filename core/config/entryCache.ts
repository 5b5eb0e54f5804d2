import type { ErrorObject } from 'ajv';
import type { Json } from '../case';
import type { Checked, ScorerDefinition } from '../scorers/scorer';
import { BoundedCache } from '../boundedCache';

/**
 * What checking one scorer entry gave, kept so that the next version of the same config need not check
 * an entry again when nothing it depends on changed: a one-line edit in a config with 500 scorers then
 * validates and checks one of them (checking builds no scorer: runs create them, core/runner/prepareScorers.ts). Outcomes hold no ranges: ajv's errors and the scorer's issues
 * carry paths inside the entry, which readScorers turns into ranges in the current text.
 *
 * An outcome depends only on the scorer definition, the entry's options (with the config's option
 * defaults applied), the config's folder, its default time limit and the environment. Entries whose
 * outcome may also depend on the disk are never kept: ones that set an option naming a file, ones
 * whose scorer runs workspace code or calls a service, and ones whose `check` asked whether a file
 * exists.
 */
export interface EntryOutcome {
  /** The options after validation filled in the schema's defaults. */
  readonly options: { readonly [key: string]: Json };
  /** ajv's errors; empty when the options are valid. */
  readonly errors: readonly ErrorObject[];
  /** What the scorer's `check` said; absent when the options are not valid. */
  readonly checked?: Checked;
}

export interface EntryCacheKey {
  readonly definition: ScorerDefinition;
  readonly options: { readonly [key: string]: Json };
  readonly configDir: string;
  readonly defaultTimeoutMs: number;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** How many outcomes a cache keeps (least recently used go first): a few large configs' worth. */
const DEFAULT_CAPACITY = 4000;

/** The outcomes of recent scorer entries. One per host that checks the same configs again and again (the language server). */
export class ScorerEntryCache {
  private readonly outcomes: BoundedCache<string, EntryOutcome>;
  private readonly definitionIds = new WeakMap<ScorerDefinition, number>();
  private nextId = 0;
  private env: Readonly<Record<string, string | undefined>> | undefined;

  constructor(capacity = DEFAULT_CAPACITY) {
    this.outcomes = new BoundedCache(capacity);
  }

  get size(): number {
    return this.outcomes.size;
  }

  /** The key of an entry: take it before validation, which fills defaults into the options. */
  keyOf(key: EntryCacheKey): string {
    // Outcomes made under another environment are no use (a host reads its environment once).
    if (this.env !== key.env) {
      this.outcomes.clear();
      this.env = key.env;
    }
    let id = this.definitionIds.get(key.definition);
    if (id === undefined) {
      id = this.nextId++;
      this.definitionIds.set(key.definition, id);
    }
    return `${id}\u0000${key.configDir}\u0000${key.defaultTimeoutMs}\u0000${exactJson(key.options)}`;
  }

  get(text: string): EntryOutcome | undefined {
    return this.outcomes.get(text);
  }

  set(text: string, outcome: EntryOutcome): void {
    this.outcomes.set(text, outcome);
  }
}

/** JSON text that tells apart every value YAML can give, JSON's `null` included: non-finite numbers and -0 are spelled out. */
function exactJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0)) ? { '\u0000number': String(v) } : v,
  );
}
