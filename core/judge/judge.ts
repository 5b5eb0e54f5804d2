import { requestCompletion, type FetchLike, type JudgePrompt } from './client';
import type { BoundedCache } from '../boundedCache';
import type { EngineContext } from '../engineContext';
import { googleAccessTokenWith, type GoogleTokenSource } from './googleCredentials';
import type { ModelConfig } from './modelConfig';
import type { TokenUsage } from './usage';
import type { JudgeGate } from './budget';
import { RateLimiter } from './rateLimit';
import { realRetryClock, withRetry, type RetryClock } from './retry';

/** `missingCredentials`: the judge was not called because its key or Google credentials are absent (the reason says which). */
export type JudgeAnswer =
  | { readonly ok: true; readonly text: string; readonly attempts: number }
  | {
      readonly ok: false;
      readonly reason: string;
      readonly attempts: number;
      readonly missingCredentials?: true;
      /** The run's budget (or a plan's recorder) refused the call: nothing was sent. */
      readonly budgetReached?: true;
    };

/** What a judge uses besides its config; tests inject a clock, the hosts use the real ones. */
export interface JudgeDependencies {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly fetch: FetchLike;
  readonly now: () => number;
  readonly clock: RetryClock;
  /** The judges' prompt templates kept between calls (the host's engine context); absent: read at each call. */
  readonly prompts?: BoundedCache<string, string>;
  /** The model's shared `execs_per_minute` limit, looked up at the first call; absent when the config sets none. */
  readonly limiter?: () => RateLimiter | undefined;
  /** Google access tokens for the Vertex providers; default: application-default credentials through google-auth-library. */
  readonly googleToken?: GoogleTokenSource;
  /** Asked before each call and told its usage: a run's spend meter, or a plan's prompt recorder (budget.ts). */
  readonly gate?: JudgeGate;
}

/**
 * One model as a judge: each `ask` is one judge call, which makes one HTTP request per attempt (each
 * attempt waits its turn under the model's rate limit) and retries 429s, 5xx and failed connections.
 * Nothing connects until `ask` is called.
 */
export class Judge {
  constructor(
    readonly config: ModelConfig,
    private readonly deps: JudgeDependencies,
  ) {}

  /** Where this judge's prompt templates are kept, if anywhere. */
  get prompts(): BoundedCache<string, string> | undefined {
    return this.deps.prompts;
  }

  /** Application-default credentials, signed in once per judge when the host gave no token source. */
  private defaultGoogleToken: GoogleTokenSource | undefined;

  async ask(prompt: JudgePrompt, signal: AbortSignal): Promise<JudgeAnswer> {
    const { config, deps } = this;
    const refused = deps.gate?.admit(config, prompt);
    if (refused !== undefined) return { ok: false, reason: refused, attempts: 0, budgetReached: true };
    let requested = false;
    const limiter = deps.limiter?.();
    const outcome = await withRetry(
      async () =>
        requestCompletion(config, prompt, {
          env: deps.env,
          fetch: deps.fetch,
          now: deps.now,
          signal,
          onRequest: () => {
            requested = true;
          },
          ...(deps.gate === undefined ? {} : { onUsage: (usage: TokenUsage) => deps.gate?.addUsage(config, usage) }),
          googleToken: deps.googleToken ?? (this.defaultGoogleToken ??= googleAccessTokenWith()),
          // After the credentials are found: a call skipped for missing ones takes no turn.
          ...(limiter === undefined
            ? {}
            : {
                waitTurn: async () => {
                  try {
                    await limiter.acquire(signal);
                    return undefined;
                  } catch {
                    return `stopped while waiting for the rate limit (execs_per_minute ${limiter.perMinute})`;
                  }
                },
              }),
        }),
      {
        maxAttempts: config.maxAttempts,
        initialDelayMs: config.retryInitialDelayMs,
        maxDelayMs: config.retryMaxDelayMs,
      },
      deps.clock,
      signal,
    );
    if (!requested) deps.gate?.release(config);
    if (outcome.ok) return { ok: true, text: outcome.value, attempts: outcome.attempts };
    return outcome.skipped === true
      ? { ok: false, reason: outcome.reason, attempts: outcome.attempts, missingCredentials: true }
      : { ok: false, reason: outcome.reason, attempts: outcome.attempts };
  }
}

/**
 * The host's rate limiter for a provider, URL, model and limit (kept in its engine context): every
 * scorer that judges with the same model shares one, across the scorers of a run (a limit is the
 * API's, not a scorer's). Made at a judge's first call, so the language server, which never scores,
 * never makes one.
 */
export function sharedLimiter(
  config: ModelConfig,
  clock: { readonly now: () => number; readonly sleep: RetryClock['sleep'] },
  limiters: BoundedCache<string, RateLimiter>,
): RateLimiter | undefined {
  const perMinute = config.execsPerMinute;
  if (perMinute === undefined) return undefined;
  const key = JSON.stringify([config.provider, config.baseUrl, config.model, perMinute]);
  return limiters.getOrMake(key, () => new RateLimiter(perMinute, clock));
}

/** A judge with the real network, clock and timers, sharing the host's limiters, sign-ins and prompts. */
export function realJudge(
  config: ModelConfig,
  env: Readonly<Record<string, string | undefined>>,
  engine: EngineContext,
  gate?: JudgeGate,
): Judge {
  const now = () => performance.now();
  // Looked up at the first call: loading a config (the language server does it on every edit) makes no limiter.
  const limiter = () => sharedLimiter(config, { now, sleep: realRetryClock.sleep }, engine.rateLimiters);
  return new Judge(config, {
    env,
    fetch: (url, init) => fetch(url, init),
    now,
    clock: realRetryClock,
    limiter,
    prompts: engine.prompts,
    googleToken: googleAccessTokenWith(engine.googleAuths),
    ...(gate === undefined ? {} : { gate }),
  });
}
