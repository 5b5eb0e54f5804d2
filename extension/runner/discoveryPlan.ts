/**
 * The run plan from discovery's listing (`evallens validate … --cases`), with no second CLI process:
 * the listing carries the config's trials, its scorers and each case's judge calls per evaluation, and
 * this adds them up as `evallens plan --json` does (core/judge/judgeCallPlan.ts): per selected case
 * that could be read, each scorer's calls × trials, or × 1 for a scorer that compares trials. Pure.
 */
import type { CaseList } from '../../protocol/caseList';
import type { PlannedScorer, RunPlan } from './plan';

export interface PlanSelection {
  /** Only these cases; empty or undefined plans every case. */
  readonly caseIds?: readonly string[];
  /** Overrides the config's trials. */
  readonly trials?: number;
}

/** The plan `evallens plan <config> [--case id]… [--trials n] --json` prints, or undefined for a listing without the plan part (an older CLI, a config that did not load). */
export function planFromDiscovery(list: CaseList, selection: PlanSelection = {}): RunPlan | undefined {
  const part = list.plan;
  if (part === undefined || list.problem !== undefined) return undefined;
  const trials = selection.trials ?? part.trials;
  const ids = selection.caseIds !== undefined && selection.caseIds.length > 0 ? new Set(selection.caseIds) : undefined;
  const counts = part.scorers.map(() => 0);
  let cases = 0;
  for (const listed of list.cases) {
    if (listed.readError !== undefined || (ids !== undefined && !ids.has(listed.id))) continue;
    cases++;
    part.scorers.forEach((scorer, i) => {
      counts[i] = (counts[i] ?? 0) + (listed.judgeCalls?.[i] ?? 0) * (scorer.acrossTrials ? 1 : trials);
    });
  }
  const scorers = part.scorers.map((scorer, i): PlannedScorer => ({
    name: scorer.name,
    key: scorer.key,
    ...(scorer.reaches === undefined ? {} : { reaches: scorer.reaches }),
    judgeCalls: counts[i] ?? 0,
  }));
  return {
    cases,
    trials,
    judgeCalls: counts.reduce((a, b) => a + b, 0),
    scorers,
    target: list.target === true,
    reaches: [...part.reaches],
  };
}
