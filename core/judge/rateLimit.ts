/**
 * At most `perMinute` requests started in any 60-second window (EvalBench's `execs_per_minute`).
 * A caller over the limit waits until the oldest start in the window is a minute old; callers are
 * served in the order they asked. The clock and the wait are injectable so tests are deterministic.
 */
export class RateLimiter {
  private readonly starts: number[] = [];
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly perMinute: number,
    private readonly clock: {
      readonly now: () => number;
      readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
    },
  ) {}

  /** Resolves when a request may start (and counts it as started); rejects when `signal` aborts first. */
  acquire(signal: AbortSignal): Promise<void> {
    const turn = this.queue.then(() => this.take(signal));
    // The next caller waits for this one's turn, whether it got a slot or gave up.
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** Requests started in the current window (for tests and diagnostics). */
  inWindow(): number {
    this.forget(this.clock.now());
    return this.starts.length;
  }

  private async take(signal: AbortSignal): Promise<void> {
    for (;;) {
      if (signal.aborted) throw new Error('aborted');
      const now = this.clock.now();
      this.forget(now);
      if (this.starts.length < this.perMinute) {
        this.starts.push(now);
        return;
      }
      const oldest = this.starts[0] ?? now;
      await this.clock.sleep(Math.max(1, oldest + WINDOW_MS - now), signal);
    }
  }

  private forget(now: number): void {
    while (this.starts.length > 0 && (this.starts[0] ?? now) <= now - WINDOW_MS) this.starts.shift();
  }
}

const WINDOW_MS = 60_000;
