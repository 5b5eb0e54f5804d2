import type { Json } from '../case';
import type { ScorerInstance } from '../config/runConfig';
import type { ScorerVerdict } from '../result';
import type { ScoringInput, TrialInput } from '../scorers/scorer';
import { maskJson, maskSecretText } from '../../shared/text/secretMask';
import { capDetails, capText } from '../runner/detailsCap';
import { isCacheable } from './cacheable';
import { caseFields, evaluationKey } from './cacheKey';
import { scorerFingerprint } from './scorerFingerprint';

/**
 * Where kept verdicts live (the CLI's is cli/cacheStore.ts). A store answers what it holds and
 * never throws: an entry it cannot read or verify is a miss, and a write it cannot make is its own
 * warning, never the run's failure.
 */
export interface ResultStore {
  get(key: string): ScorerVerdict | undefined | Promise<ScorerVerdict | undefined>;
  set(key: string, verdict: ScorerVerdict): void;
}

/** A run's cache: the store, and the version of the scorers (EvalLens's version) that keys their verdicts. */
export interface RunCache {
  readonly store: ResultStore;
  readonly version: string;
}

/** An evaluation's verdict, and whether it came from the cache rather than from the scorer. */
export interface CachedVerdict {
  readonly verdict: ScorerVerdict;
  readonly cached: boolean;
}

/**
 * The seam between the runner and the cache: for a scorer that is expensive (runs workspace code or
 * calls a service: subprocess, python_scorer, the LLM judges), a kept verdict for the same scorer,
 * options, case fields and trial is given back instead of calling it; a new verdict that may be kept
 * (cacheable.ts) is kept, masked. The microsecond scorers are never looked up: a lookup costs more
 * than they do. One per run.
 */
export class ScoringCache {
  private readonly fingerprints = new Map<ScorerInstance['name'], string>();

  constructor(
    private readonly cache: RunCache,
    private readonly secrets: readonly string[] = [],
  ) {}

  /** A single trial's evaluation (trial 1..n). */
  score(
    instance: ScorerInstance,
    trial: number,
    input: ScoringInput,
    evaluate: () => Promise<ScorerVerdict>,
  ): Promise<CachedVerdict> {
    return this.through(instance, () => caseFields(instance.definition.key, input), trial, evaluate);
  }

  /** An across-trials evaluation (trial 0): keyed by every trial's fields and recorded error. */
  scoreTrials(
    instance: ScorerInstance,
    inputs: readonly TrialInput[],
    evaluate: () => Promise<ScorerVerdict>,
  ): Promise<CachedVerdict> {
    const fields = (): Json =>
      inputs.map((i) => ({ fields: caseFields(instance.definition.key, i), error: i.error ?? null }));
    return this.through(instance, fields, 0, evaluate);
  }

  private async through(
    instance: ScorerInstance,
    fields: () => Json,
    trial: number,
    evaluate: () => Promise<ScorerVerdict>,
  ): Promise<CachedVerdict> {
    if (instance.definition.reaches === undefined) return { verdict: await evaluate(), cached: false };
    const key = evaluationKey(this.fingerprint(instance), fields(), trial);
    const kept = await this.cache.store.get(key);
    if (kept !== undefined) return { verdict: kept, cached: true };
    const verdict = await evaluate();
    if (isCacheable(verdict)) this.cache.store.set(key, this.kept(verdict));
    return { verdict, cached: false };
  }

  private fingerprint(instance: ScorerInstance): string {
    let found = this.fingerprints.get(instance.name);
    if (found === undefined) {
      found = scorerFingerprint(instance, this.cache.version);
      this.fingerprints.set(instance.name, found);
    }
    return found;
  }

  /** What is written to the store: masked and cut as a result is, so the cache holds no secret and no 200 MB detail. */
  private kept(verdict: ScorerVerdict): ScorerVerdict {
    const one = <T extends Omit<ScorerVerdict, 'parts'>>(v: T): T => ({
      ...v,
      reason: capText(maskSecretText(v.reason, this.secrets)),
      ...(v.details === undefined ? {} : { details: capDetails(maskJson(v.details, this.secrets)) }),
    });
    return verdict.parts === undefined ? one(verdict) : { ...one(verdict), parts: verdict.parts.map(one) };
  }
}
