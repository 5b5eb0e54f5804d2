import { withPrimaryMetric } from '../evalhub/primaryMetric';
import type { EvalCase } from '../case';
import type { ScorerResult, ScorerVerdict } from '../result';
import { applyFieldPaths } from '../scorers/fieldPaths';
import type { TrialInput } from '../scorers/scorer';
import type { CasePreparer } from './casePreparer';
import type { LiveScorer } from './prepareScorers';
import { capDetails, capText } from './detailsCap';
import { trialCases, type TrialCase } from './trials';
import type { ScoringCache } from '../cache/scoringCache';

/**
 * Scores one case with every scorer instance, `trials` times each; across-trials scorers run once
 * after all trials, on all of them (trial 0). Every evaluation has a time limit (an async scorer is
 * abandoned at the limit and its signal aborted; a synchronous one cannot be stopped, so it is
 * measured); a scorer that throws gives an `error` result, never a crashed run.
 */
export async function scoreCase(
  evalCase: EvalCase,
  scorers: readonly LiveScorer[],
  trials: number,
  context: CaseContext,
): Promise<ScorerResult[]> {
  const { now, preparer } = context;
  const abort = context.abort ?? { controller: new AbortController() };
  if (context.trusted === false) {
    const gated = scorers.filter((s) => s.definition.reaches !== undefined);
    // A target is workspace code too: a case that needs it has no output to score, so nothing runs.
    if (preparer !== undefined && preparerReaches(preparer, evalCase, trials))
      return untrusted(evalCase.id, scorers, trials);
    if (gated.length > 0) {
      const allowed = scorers.filter((s) => s.definition.reaches === undefined);
      const results = await scoreCase(evalCase, allowed, trials, { ...context, trusted: true });
      return [...results, ...untrusted(evalCase.id, gated, trials)];
    }
  }
  const results: ScorerResult[] = [];
  // One controller serves evaluations that run one after another (a runner's worker passes its own);
  // a timeout aborts it and the next evaluation gets a fresh one. One per evaluation cost more than
  // the scoring of simple scorers.
  const controller = () => {
    if (abort.controller.signal.aborted) abort.controller = new AbortController();
    return abort.controller;
  };
  const recorded: readonly TrialCase[] =
    trials === 1 && evalCase.trials === undefined ? [{ ok: true, case: evalCase }] : trialCases(evalCase, trials);
  const cases = preparer === undefined ? recorded : await prepareTrials(recorded, preparer, controller().signal);
  for (let trial = 1; trial <= trials; trial++) {
    const trialCase = cases[trial - 1];
    for (const instance of scorers) {
      if (instance.acrossTrials !== undefined) continue;
      if (trialCase === undefined || !trialCase.ok) {
        results.push(
          finish({ status: 'error', reason: trialCase?.reason ?? 'no such trial' }, evalCase.id, instance, trial, 0),
        );
        continue;
      }
      const started = now();
      const selected = applyFieldPaths(trialCase.case, instance.options);
      if (!selected.ok) {
        results.push(...finishParts(selected.verdict, evalCase.id, instance, trial, now() - started));
        continue;
      }
      const run = () =>
        evaluate((signal) => instance.scorer.score(selected.input, signal), instance, started, now, controller());
      // The result cache's seam (core/cache/scoringCache.ts): a kept verdict instead of the call. A
      // synchronous scorer's verdict is used as it comes: no promise and no turn of the queue per evaluation.
      let outcome: { readonly verdict: ScorerVerdict; readonly cached: boolean };
      if (context.cache === undefined) {
        const verdict = run();
        outcome = { verdict: isPromise(verdict) ? await verdict : verdict, cached: false };
      } else outcome = await context.cache.score(instance, trial, selected.input, async () => run());
      results.push(...markCached(finishParts(outcome.verdict, evalCase.id, instance, trial, now() - started), outcome));
    }
  }
  for (const instance of scorers) {
    const across = instance.acrossTrials;
    if (across === undefined) continue;
    const started = now();
    const outcome = { cached: false };
    const verdict = await acrossTrials(cases, instance, async (inputs) => {
      const run = () => evaluate((signal) => across.scoreTrials(inputs, signal), instance, started, now, controller());
      if (context.cache === undefined) return run();
      const found = await context.cache.scoreTrials(instance, inputs, async () => run());
      outcome.cached = found.cached;
      return found.verdict;
    });
    results.push(...markCached([finish(verdict, evalCase.id, instance, 0, now() - started)], outcome));
  }
  return results;
}

/** Results whose verdict came from the result cache say so (`cached: true`). */
function markCached(results: ScorerResult[], outcome: { readonly cached: boolean }): ScorerResult[] {
  return outcome.cached ? results.map((r) => ({ ...r, cached: true as const })) : results;
}

export interface CaseContext {
  readonly now: () => number;
  /** A runner's worker passes its own, reused between evaluations. */
  readonly abort?: { controller: AbortController };
  readonly preparer?: CasePreparer;
  /**
   * Whether the run may execute workspace code and reach the network (default: may). When it may
   * not, every scorer or preparer that would answers `skipped` and is never called.
   */
  readonly trusted?: boolean;
  /** The run's result cache (absent: every scorer is called). */
  readonly cache?: ScoringCache;
}

export const UNTRUSTED_REASON = 'workspace is not trusted';

/** Whether preparing this case (any of its trials) would run workspace code or reach the network. */
function preparerReaches(preparer: CasePreparer, evalCase: EvalCase, trials: number): boolean {
  if (preparer.reaches === undefined) return false;
  if (preparer.reachesFor === undefined) return true;
  const recorded =
    trials === 1 && evalCase.trials === undefined
      ? [{ ok: true as const, case: evalCase }]
      : trialCases(evalCase, trials);
  return recorded.some((t) => !t.ok || preparer.reachesFor?.(t.case) !== false);
}

/** The results of scorers that a run without trust does not call: skipped, for every trial they would have had. */
function untrusted(caseId: string, scorers: readonly LiveScorer[], trials: number): ScorerResult[] {
  return scorers.flatMap((instance) => {
    const trialNumbers =
      instance.definition.acrossTrials === true ? [0] : Array.from({ length: trials }, (_, i) => i + 1);
    return trialNumbers.map((trial) =>
      finish({ status: 'skipped', reason: UNTRUSTED_REASON }, caseId, instance, trial, 0),
    );
  });
}

/** Prepares each trial's case (in order: a database sees one query at a time per worker). */
async function prepareTrials(
  cases: readonly TrialCase[],
  preparer: CasePreparer,
  signal: AbortSignal,
): Promise<TrialCase[]> {
  const prepared: TrialCase[] = [];
  for (const [index, trialCase] of cases.entries()) {
    if (!trialCase.ok) {
      prepared.push(trialCase);
      continue;
    }
    try {
      const withWork = await preparer.prepare(trialCase.case, signal, index + 1);
      prepared.push(
        trialCase.error === undefined
          ? { ok: true, case: withWork }
          : { ok: true, case: withWork, error: trialCase.error },
      );
    } catch (e) {
      prepared.push({ ok: false, reason: e instanceof Error ? e.message : String(e) });
    }
  }
  return prepared;
}

/** Gathers every trial's input for an across-trials scorer; any trial that cannot be read is an error. */
async function acrossTrials(
  cases: readonly TrialCase[],
  instance: LiveScorer,
  score: (inputs: TrialInput[]) => Promise<ScorerVerdict>,
): Promise<ScorerVerdict> {
  if (cases.length < 2)
    return {
      status: 'error',
      reason: `${instance.definition.key} compares trials with each other and needs num_trials of at least 2 (the run has ${cases.length})`,
    };
  const inputs: TrialInput[] = [];
  for (const [i, trialCase] of cases.entries()) {
    if (!trialCase.ok) return { status: 'error', reason: `trial ${i + 1}: ${trialCase.reason}` };
    const selected = applyFieldPaths(trialCase.case, instance.options);
    if (!selected.ok) return { ...selected.verdict, reason: `trial ${i + 1}: ${selected.verdict.reason}` };
    inputs.push({
      ...selected.input,
      trial: i + 1,
      ...(trialCase.error === undefined ? {} : { error: trialCase.error }),
    });
  }
  return score(inputs);
}

/**
 * One evaluation under its time limit; a synchronous scorer's verdict comes back synchronously (a
 * promise only for a scorer that answered with one).
 */
function evaluate(
  call: (signal: AbortSignal) => ScorerVerdict | Promise<ScorerVerdict>,
  instance: LiveScorer,
  started: number,
  now: () => number,
  controller: AbortController,
): ScorerVerdict | Promise<ScorerVerdict> {
  let outcome: ScorerVerdict | Promise<ScorerVerdict>;
  try {
    outcome = call(controller.signal);
    if (!isPromise(outcome)) return withinLimit(outcome, instance, started, now);
  } catch (e) {
    return scorerFailed(e);
  }
  return withTimeout(outcome, instance.timeoutMs, controller)
    .then((verdict) => withinLimit(verdict, instance, started, now))
    .catch(scorerFailed);
}

/** The verdict, or a timeout when the evaluation took longer than the scorer's limit. */
function withinLimit(verdict: ScorerVerdict, instance: LiveScorer, started: number, now: () => number): ScorerVerdict {
  const elapsed = now() - started;
  return verdict.status !== 'timeout' && elapsed > instance.timeoutMs ? overTime(instance.timeoutMs, elapsed) : verdict;
}

function scorerFailed(e: unknown): ScorerVerdict {
  return { status: 'error', reason: `the scorer failed: ${e instanceof Error ? e.message : String(e)}` };
}

function overTime(limit: number, elapsed: number): ScorerVerdict {
  return { status: 'timeout', reason: `the scorer took ${Math.round(elapsed)} ms, over its time limit of ${limit} ms` };
}

function withTimeout(
  outcome: Promise<ScorerVerdict>,
  limitMs: number,
  controller: AbortController,
): Promise<ScorerVerdict> {
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
 * An itemized verdict (`parts`) becomes one result per item, named `<instance>_<index>`, each under
 * the instance's threshold; every item carries the evaluation's duration. Any other verdict is one result.
 */
function finishParts(
  verdict: ScorerVerdict,
  caseId: string,
  instance: LiveScorer,
  trial: number,
  durationMs: number,
): ScorerResult[] {
  const parts = verdict.parts;
  if (parts === undefined || parts.length === 0) return [finish(verdict, caseId, instance, trial, durationMs)];
  return parts.map(({ index, ...part }) =>
    finish(part, caseId, { ...instance, name: `${instance.name}_${index}` }, trial, durationMs),
  );
}

/**
 * The threshold rule (EvalHub): where a threshold resolves and the scorer decided with a number,
 * pass is `score >= threshold` (`<=` with lower_is_better). A result that did not decide has no `passed`.
 */
function finish(
  given: ScorerVerdict,
  caseId: string,
  instance: LiveScorer,
  trial: number,
  durationMs: number,
): ScorerResult {
  // EvalHub's primary score: a metric of the verdict's `metrics` becomes its score, before the threshold rule.
  const verdict = withPrimaryMetric(given, instance.primaryMetric);
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
    // Every reason and detail passes the one masking rule (a scorer may copy an output holding a key),
    // then is cut to a bounded prefix (detailsCap.ts): a 200 MB output is not carried by every copy of the result.
    reason: capText(status !== verdict.status ? thresholdReason(verdict, instance, status === 'pass') : verdict.reason),
    ...(verdict.details === undefined ? {} : { details: capDetails(verdict.details) }),
    ...(verdict.metrics === undefined ? {} : { metrics: capDetails(verdict.metrics) }),
    durationMs: Math.round(durationMs * 1000) / 1000,
  };
}

function thresholdReason(verdict: ScorerVerdict, instance: LiveScorer, passed: boolean): string {
  const relation = instance.lowerIsBetter ? (passed ? 'at most' : 'above') : passed ? 'at least' : 'below';
  return `score ${String(verdict.score)} is ${relation} the threshold ${String(instance.threshold)} (${verdict.reason})`;
}
