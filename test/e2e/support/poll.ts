/** Waiting for a condition with a bound: the suite's only way to wait (it never sleeps a fixed time). */

const POLL_INTERVAL_MS = 100;

/** Calls `condition` until it returns true; rejects naming `what` after `limitMs`. Errors it throws end the wait. */
export async function pollUntil(
  condition: () => Promise<boolean> | boolean,
  what: string,
  limitMs: number,
): Promise<void> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${limitMs} ms waiting for ${what}`);
    await new Promise((resolveTick) => setTimeout(resolveTick, POLL_INTERVAL_MS));
  }
}
