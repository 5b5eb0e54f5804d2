import type { ScorerInstance } from '../config/runConfig';
import type { ScorerVerdict } from '../result';
import type { AcrossTrialsScorer, Scorer } from '../scorers/scorer';
import { UNTRUSTED_REASON } from './scoreCase';
import type { JudgeGate } from '../judge/budget';

/** A config's scorer entry with its scorer built for a run. */
export interface LiveScorer extends ScorerInstance {
  readonly scorer: Scorer;
  /** Set for scorers that compare a case's trials with each other (run once per case, trial 0). */
  readonly acrossTrials?: AcrossTrialsScorer;
}

/**
 * Builds the scorers of checked entries when a run starts: the one place `create` is called. A
 * checked config holds no live scorer (checking is what the language server does on every edit).
 * An entry whose `create` refuses now though its check passed (a file it names was deleted since)
 * answers `error` with the reason for every case rather than stopping the run. A run without trust
 * does not build the scorers that run workspace code or call a service (it never calls them).
 */
export function prepareScorers(
  instances: readonly ScorerInstance[],
  options: { readonly trusted?: boolean; readonly judgeGate?: JudgeGate } = {},
): LiveScorer[] {
  return instances.map((instance): LiveScorer => {
    if (options.trusted === false && instance.definition.reaches !== undefined)
      return answering(instance, { status: 'skipped', reason: UNTRUSTED_REASON });
    const context =
      options.judgeGate === undefined ? instance.context : { ...instance.context, judgeGate: options.judgeGate };
    const made = instance.definition.create(instance.options, context);
    if (made.ok)
      return {
        ...instance,
        scorer: made.scorer,
        ...(made.acrossTrials === undefined ? {} : { acrossTrials: made.acrossTrials }),
      };
    return answering(instance, {
      status: 'error',
      reason: `the scorer cannot be prepared: ${made.issues.map((i) => i.message).join('; ')}`,
    });
  });
}

/** An entry whose scorer gives one verdict to every case, built without calling `create`. */
function answering(instance: ScorerInstance, verdict: ScorerVerdict): LiveScorer {
  const scorer: Scorer = { score: () => verdict };
  if (instance.definition.acrossTrials !== true) return { ...instance, scorer };
  return { ...instance, scorer, acrossTrials: { scoreTrials: () => verdict } };
}
