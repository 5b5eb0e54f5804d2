/**
 * The shared checks of the long comparisons that run in chunks (edit_similarity's Levenshtein over
 * texts, skills_trajectory's and trajectory_matcher's over name lists): they give the event loop a turn
 * between chunks, stop when their signal aborts, and so let the runner's time limit fire mid-way.
 */
import assert from 'node:assert/strict';
import { parseRunConfig } from '../../core/config/parseRunConfig';
import type { EvalCase } from '../../core/case';
import { prepareScorers } from '../../core/runner/prepareScorers';
import { scoreCase } from '../../core/runner/scoreCase';
import { seededRandom } from './seededRandom';

/** Seeded picks from `alphabet`, `length` at a time, so a failure is reproducible. */
export function seededPicks<T>(seed: number, alphabet: readonly T[]): (length: number) => T[] {
  const next = seededRandom(seed);
  return (length) => Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)] as T);
}

/**
 * Starts a comparison with an abort signal and a per-chunk callback, aborts at its third chunk, and
 * checks that it was asynchronous, stopped there (rejecting with "stopped") and let a timer set before
 * it run meanwhile.
 */
export async function assertYieldsAndStops(
  start: (signal: AbortSignal, onChunk: () => void) => Promise<unknown> | unknown,
): Promise<void> {
  const controller = new AbortController();
  let timerRan = false;
  setTimeout(() => (timerRan = true), 0);
  let chunks = 0;
  const running = start(controller.signal, () => {
    chunks++;
    if (chunks === 3) controller.abort();
  });
  assert.ok(running instanceof Promise, 'a long comparison is asynchronous');
  await assert.rejects(running, /stopped/);
  assert.equal(chunks, 3, 'it stopped at the chunk that aborted it');
  assert.equal(timerRan, true, 'a timer set before the comparison ran while it was under way');
}

/** Scores `evalCase` with the config's scorers (one, with `timeout_ms: 1`) and checks the timer, not a measurement afterwards, ended it. */
export async function assertTimesOutMidway(yaml: string, evalCase: EvalCase): Promise<void> {
  const parsed = parseRunConfig(yaml, '/virtual/bounds.eval.yaml', {});
  assert.deepEqual(parsed.problems, []);
  assert.ok(parsed.config);
  const [result] = await scoreCase(evalCase, prepareScorers(parsed.config.scorers), 1, {
    now: () => performance.now(),
  });
  assert.equal(result?.status, 'timeout');
  // "did not answer within" is the timer's verdict; a blocked loop can only say afterwards that it "took" too long.
  assert.match(result?.reason ?? '', /did not answer within its time limit of 1 ms/);
}
