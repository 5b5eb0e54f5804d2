import type { EvalCase } from '../case';
import type { ScorerInstance } from '../config/runConfig';
import type { ScorerResult, ScorerVerdict } from '../result';
import { applyFieldPaths } from '../scorers/fieldPaths';

/**
 * Scores one case with every scorer instance, `trials` times each. Every evaluation has a time limit
 * (an async scorer is abandoned at the limit and its signal aborted; a synchronous one cannot be
 * stopped, so it is measured); a scorer that throws gives an `error` result, never a crashed run.
 */
export async function scoreCase(
  evalCase: EvalCase,
  scorers: readonly ScorerInstance[],
  trials: number,
  now: () => number,
  abort: { controller: AbortController } = { controller: new AbortController() },
): Promise<ScorerResult[]> {
  const results: ScorerResult[] = [];
  // One controller serves evaluations that run one after another (a runner's worker passes its own);
  // a timeout aborts it and the next evaluation gets a fresh one. One per evaluation cost more than
  // the scoring of simple scorers.
  for (let trial = 1; trial <= trials; trial++) {
    for (const instance of scorers) {
      if (abort.controller.signal.aborted) abort.controller = new AbortController();
      const started = now();
      const verdict = await evaluate(evalCase, instance, started, now, abort.controller);
      results.push(finish(verdict, evalCase.id, instance, trial, now() - started));
    }
  }
  return results;
}

async function evaluate(evalCase: EvalCase, instance: ScorerInstance, started: number, now: () => number, controller: AbortController): Promise<ScorerVerdict> {
  const selected = applyFieldPaths(evalCase, instance.options);
  if (!selected.ok) return selected.verdict;
  try {
    const outcome = instance.scorer.score(selected.input, controller.signal);
    const verdict = isPromise(outcome) ? await withTimeout(outcome, instance.timeoutMs, controller) : outcome;
    const elapsed = now() - started;
    if (verdict.status !== 'timeout' && elapsed > instance.timeoutMs) return overTime(instance.timeoutMs, elapsed);
    return verdict;
  } catch (e) {
    return { status: 'error', reason: `the scorer failed: ${e instanceof Error ? e.message : String(e)}` };
  }
}

function overTime(limit: number, elapsed: number): ScorerVerdict {
  return { status: 'timeout', reason: `the scorer took ${Math.round(elapsed)} ms, over its time limit of ${limit} ms` };
}

function withTimeout(outcome: Promise<ScorerVerdict>, limitMs: number, controller: AbortController): Promise<ScorerVerdict> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<ScorerVerdict>((resolve) => {
    timer = setTimeout(() => {
      // Settle first, so a scorer that rejects on abort cannot turn the timeout into an error.
      resolve({ status: 'timeout', reason: `the scorer did not answer within its time limit of ${limitMs} ms` });
      controller.abort();
    }, limitMs);
  });
  return Promise.race([outcome, timeout]).finally(() => clearTimeout(timer));
}

function isPromise(value: unknown): value is Promise<ScorerVerdict> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * The threshold rule (EvalHub): where a threshold resolves and the scorer decided with a number,
 * pass is `score >= threshold` (`<=` with lower_is_better). A result that did not decide has no `passed`.
 */
function finish(verdict: ScorerVerdict, caseId: string, instance: ScorerInstance, trial: number, durationMs: number): ScorerResult {
  let status = verdict.status;
  const decidable = status === 'pass' || status === 'fail' || status === 'measured';
  if (decidable && instance.threshold !== undefined && typeof verdict.score === 'number') {
    const ok = instance.lowerIsBetter ? verdict.score <= instance.threshold : verdict.score >= instance.threshold;
    status = ok ? 'pass' : 'fail';
  }
  const decided = status === 'pass' || status === 'fail';
  return {
    caseId,
    scorer: instance.name,
    trial,
    status,
    ...(verdict.score === undefined ? {} : { score: verdict.score }),
    ...(decided ? { passed: status === 'pass' } : {}),
    reason: status !== verdict.status ? thresholdReason(verdict, instance, status === 'pass') : verdict.reason,
    ...(verdict.details === undefined ? {} : { details: verdict.details }),
    durationMs: Math.round(durationMs * 1000) / 1000,
  };
}

function thresholdReason(verdict: ScorerVerdict, instance: ScorerInstance, passed: boolean): string {
  const relation = instance.lowerIsBetter ? (passed ? 'at most' : 'above') : passed ? 'at least' : 'below';
  return `score ${String(verdict.score)} is ${relation} the threshold ${String(instance.threshold)} (${verdict.reason})`;
}
