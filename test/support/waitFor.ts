/**
 * Polls `condition` every 10 ms until it holds (tests never sleep a fixed time); rejects after `limitMs`
 * naming what it waited for. The condition may be async (a database query, a file read). A condition that
 * throws has not held yet: what it waits on may not exist yet (a run's folder appears a moment after its
 * runs folder). Its last error is named if the time runs out.
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  limitMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + limitMs;
  let lastError: unknown;
  for (;;) {
    try {
      if (await condition()) return;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const why = lastError === undefined ? '' : ` (the condition last threw: ${String(lastError)})`;
      throw new Error(`timed out after ${limitMs} ms waiting for ${what}${why}`, { cause: lastError });
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}
