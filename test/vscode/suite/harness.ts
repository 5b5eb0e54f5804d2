/**
 * The in-host suite's own tiny runner, rather than mocha: the tests are a dozen ordered steps that
 * share one window (a run's results are read by the tests after it), mocha would be one more
 * dependency, and this prints each result as one JSON line (RESULT_PREFIX) that test/vscode/inHost.test.ts
 * reads back into Node's test reporter. Assertions are node:assert's. No test sleeps: `waitFor` polls
 * with a bound.
 */
import { PROBE_URL_VARIABLE, type ProbeAnswer, type ProbeRequest } from '../probeProtocol';

/** Starts every line the outer test reads: `[in-host] {"name":…,"ok":…,"ms":…,"error"?:…}`. */
export const RESULT_PREFIX = '[in-host] ';
const TEST_LIMIT_MS = 120_000;
const POLL_MS = 100;

export interface InHostTest {
  readonly name: string;
  readonly fn: () => Promise<void>;
}

/** Runs the tests in order; rejects (so the driver exits 1) when any failed. A test after a failure still runs. */
export async function runTests(tests: readonly InHostTest[]): Promise<void> {
  let failed = 0;
  for (const test of tests) {
    const started = Date.now();
    try {
      await withLimit(test.fn(), TEST_LIMIT_MS, test.name);
      console.log(`${RESULT_PREFIX}${JSON.stringify({ name: test.name, ok: true, ms: Date.now() - started })}`);
    } catch (error) {
      failed++;
      const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
      console.log(
        `${RESULT_PREFIX}${JSON.stringify({ name: test.name, ok: false, ms: Date.now() - started, error: text })}`,
      );
    }
  }
  if (failed > 0) throw new Error(`${failed} of ${tests.length} in-host tests failed`);
}

/** Calls `read` until `accept` holds for its value; rejects naming `what` and the last value after `limitMs`. */
export async function waitFor<T>(
  read: () => T | PromiseLike<T>,
  accept: (value: T) => boolean,
  what: string,
  limitMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${limitMs} ms waiting for ${what}; last seen: ${JSON.stringify(value)?.slice(0, 2000)}`,
      );
    await new Promise((resolveTick) => setTimeout(resolveTick, POLL_MS));
  }
}

function withLimit<T>(work: Promise<T>, limitMs: number, name: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`"${name}" did not finish within ${limitMs} ms`)), limitMs);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

/** Whether a driver holds the window (code-server through our launcher); not on desktop VS Code. */
export function hasProbe(): boolean {
  return process.env[PROBE_URL_VARIABLE] !== undefined;
}

/** Asks the driver; undefined without one. Its failure is the test's failure. */
export async function probe(request: ProbeRequest): Promise<string | undefined> {
  const url = process.env[PROBE_URL_VARIABLE];
  if (url === undefined) return undefined;
  const response = await fetch(url, { method: 'POST', body: JSON.stringify(request) });
  const answer = (await response.json()) as ProbeAnswer;
  if (!answer.ok) throw new Error(`the driver could not ${request.action}: ${answer.error ?? 'no reason given'}`);
  return answer.value ?? '';
}

/** A screenshot at a key step (test/e2e/artifacts/in-host/, and docs/images/ when the screenshot script runs). */
export function screenshot(name: string, waitFor?: string): Promise<string | undefined> {
  return probe({ action: 'screenshot', name, ...(waitFor === undefined ? {} : { waitFor }) });
}
