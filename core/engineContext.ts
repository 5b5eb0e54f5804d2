import type { ValidateFunction } from 'ajv';
import type { GoogleAuth } from 'google-auth-library';
import type { ConfigFamily } from './config/configFamily';
import type { RateLimiter } from './judge/rateLimit';
import type { OptionsValidators } from './scorers/optionsValidator';
import type { ScorerRegistry } from './scorers/registry';
import type { VerdictCache } from './scorers/support/boundedRegex';
import { KeptVerdicts } from './scorers/support/keptVerdicts';
import { BoundedCache } from './boundedCache';

/** The registry and options validators of a config family (options validators are cached by scorer key, so each family has its own). */
export interface ScorerSet {
  readonly registry: ScorerRegistry;
  readonly validators: OptionsValidators;
}

/**
 * What the engine keeps between one config check or run and the next: compiled validators, compiled
 * user schemas, regex safety verdicts, judge prompts, rate limiters and Google sign-ins. Each host
 * makes one and owns it (the CLI one per process, the language server one per server, a test its
 * own), so no two hosts or tests share an entry and core holds no state of its own. Every cache
 * here is bounded.
 *
 * Not here, on purpose: WeakMaps keyed by a case or a trace (traceOf, traceSteps, non-final output
 * tokens) hold what one object gives and go with it; levenshtein's scratch buffers are reused
 * memory, not kept results. Neither depends on a config. The process's list of secrets to mask
 * (shared/text/secretMask.ts) stays process-wide too: it says why.
 */
export interface EngineContext {
  /** The run-config schema with `scorers:` narrowed (parseRunConfig), compiled at first use. */
  readonly validators: { topLevel?: ValidateFunction; modelConfig?: ValidateFunction };
  /** One scorer set per config family (two families: bounded by the type). */
  readonly scorerSets: Map<ConfigFamily, ScorerSet>;
  /** Regex safety verdicts by checker, flags and source (recheck takes up to a second on one pattern). */
  readonly regexVerdicts: KeptVerdicts;
  /** json_schema's compiled user schemas by where they came from and their JSON text. */
  readonly compiledSchemas: BoundedCache<string, unknown>;
  /** The judges' prompt templates by name (a fixed set of files shipped with EvalLens). */
  readonly prompts: BoundedCache<string, string>;
  /** One rate limiter per provider, URL, model and limit: every scorer that judges with one model shares it. */
  readonly rateLimiters: BoundedCache<string, RateLimiter>;
  /** One Google sign-in per credentials file: it caches its access token and refreshes it. */
  readonly googleAuths: BoundedCache<string, GoogleAuth>;
}

/** Caps: a few large configs' worth of patterns and schemas; far more models and credentials files than a run names. */
export const ENGINE_CACHE_LIMITS = {
  regexVerdicts: 500,
  compiledSchemas: 200,
  prompts: 64,
  rateLimiters: 256,
  googleAuths: 32,
} as const;

export interface EngineContextOptions {
  /** Where regex verdicts are also kept, beyond this context (a host's store on disk); absent: memory only. */
  readonly regexVerdictStore?: VerdictCache;
}

export function createEngineContext(options: EngineContextOptions = {}): EngineContext {
  return {
    validators: {},
    scorerSets: new Map(),
    regexVerdicts: new KeptVerdicts(ENGINE_CACHE_LIMITS.regexVerdicts, options.regexVerdictStore),
    compiledSchemas: new BoundedCache(ENGINE_CACHE_LIMITS.compiledSchemas),
    prompts: new BoundedCache(ENGINE_CACHE_LIMITS.prompts),
    rateLimiters: new BoundedCache(ENGINE_CACHE_LIMITS.rateLimiters),
    googleAuths: new BoundedCache(ENGINE_CACHE_LIMITS.googleAuths),
  };
}
