/**
 * What a result's trial is called wherever a person reads it: the CLI's console, Test Explorer
 * messages and output, hovers and lenses. Trial 0 is not a trial: it is a scorer that compares the
 * trials of a case with each other (exact_match_consistency, llm_consistency), so its result belongs
 * to the case and is called "across trials" everywhere.
 */

export const ACROSS_TRIALS = 'across trials';

/** "across trials" for trial 0, "trial 2" for the others. */
export function trialName(trial: number): string {
  return trial === 0 ? ACROSS_TRIALS : `trial ${trial}`;
}

/**
 * The trial's name when it tells something: always for a result across trials, for the others only
 * when the run has several trials.
 */
export function shownTrialName(trial: number, numTrials: number): string | undefined {
  return trial === 0 || numTrials > 1 ? trialName(trial) : undefined;
}
