/**
 * Retries of one judge call. A 429 or a 5xx (or a failed connection) is tried again, up to
 * `maxAttempts` in all; the wait is what the server's `Retry-After` says (seconds or an HTTP date),
 * else exponential backoff with full jitter, and never more than `maxDelayMs`. Aborting the signal
 * ends the wait at once.
 */

export type AttemptOutcome<T> =
  | { readonly kind: 'done'; readonly value: T }
  /** Worth another attempt; `retryAfterMs` when the server said how long to wait. */
  | { readonly kind: 'retry'; readonly reason: string; readonly retryAfterMs?: number }
  | { readonly kind: 'failed'; readonly reason: string }
  /** Not attempted: what the call needs is missing (credentials); never retried. */
  | { readonly kind: 'skipped'; readonly reason: string };

export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
}

export interface RetryClock {
  /** Waits `ms`, or rejects when `signal` aborts. Injectable so tests see the waits without waiting. */
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** In [0, 1); injectable so jitter is deterministic in tests. */
  readonly random: () => number;
}

export type RetryResult<T> =
  | { readonly ok: true; readonly value: T; readonly attempts: number }
  | { readonly ok: false; readonly reason: string; readonly attempts: number; readonly skipped?: true };

export async function withRetry<T>(
  attempt: (n: number) => Promise<AttemptOutcome<T>>,
  policy: RetryPolicy,
  clock: RetryClock,
  signal: AbortSignal,
): Promise<RetryResult<T>> {
  for (let n = 1; ; n++) {
    const outcome = await attempt(n);
    if (outcome.kind === 'done') return { ok: true, value: outcome.value, attempts: n };
    if (outcome.kind === 'failed') return { ok: false, reason: outcome.reason, attempts: n };
    if (outcome.kind === 'skipped') return { ok: false, reason: outcome.reason, attempts: n - 1, skipped: true };
    if (n >= policy.maxAttempts)
      return { ok: false, reason: `${outcome.reason}; gave up after ${n} attempt${n === 1 ? '' : 's'}`, attempts: n };
    const wait = outcome.retryAfterMs ?? backoffMs(n, policy, clock.random);
    try {
      await clock.sleep(Math.min(wait, policy.maxDelayMs), signal);
    } catch {
      return { ok: false, reason: `${outcome.reason}; stopped while waiting to retry`, attempts: n };
    }
  }
}

/** Full jitter: a uniform wait in [0, initial × 2^(attempt−1)], so concurrent callers spread out. */
export function backoffMs(attempt: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling);
}

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, nowMs: number): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** The real clock: a timer that an abort clears. */
export const realRetryClock: RetryClock = {
  random: Math.random,
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal.aborted) {
        reject(new Error('aborted'));
        return;
      }
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(new Error('aborted'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
    }),
};
