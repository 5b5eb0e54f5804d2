/**
 * Polls `condition` every 10 ms until it holds (tests never sleep a fixed time); rejects after `limitMs`
 * naming what it waited for. The condition may be async (a database query, a file read).
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  limitMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${limitMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
