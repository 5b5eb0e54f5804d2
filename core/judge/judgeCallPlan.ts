import type { DatasetRecord, EvalCase } from '../case';
import type { RunConfig } from '../config/runConfig';
import { caseSelector, type CaseSelection } from '../dataset/caseSelection';

/** How many judge calls a run will make, at most: what a person is told (and asked to confirm) before it starts. */
export interface JudgeCallPlan {
  /** Cases the run would score (selected, readable). */
  readonly cases: number;
  readonly trials: number;
  readonly judgeCalls: number;
  readonly scorers: readonly PlannedScorer[];
}

export interface PlannedScorer {
  readonly name: string;
  readonly key: string;
  readonly reaches?: string;
  readonly judgeCalls: number;
}

/**
 * Streams the cases once and adds up each judge scorer's calls: per case, `judgeCalls(options, case)`
 * for every trial, or once for a scorer that compares trials (llm_consistency). The count is an
 * upper bound: a scorer that decides without its judge (llmrater on results that match as sets) makes
 * fewer; retries are not counted.
 */
export async function planJudgeCalls(
  config: RunConfig,
  records: AsyncIterable<DatasetRecord>,
  options: { readonly selection?: CaseSelection; readonly trials?: number } = {},
): Promise<JudgeCallPlan> {
  const trials = options.trials ?? config.numTrials;
  const selected = caseSelector(options.selection ?? {});
  const counts = config.scorers.map(() => 0);
  let cases = 0;
  for await (const record of records) {
    if (!record.ok || !selected(record.value.case.id)) continue;
    cases++;
    judgeCallsPerEvaluation(config, record.value.case).forEach((perEvaluation, i) => {
      counts[i] = (counts[i] ?? 0) + perEvaluation * (config.scorers[i]?.definition.acrossTrials === true ? 1 : trials);
    });
  }
  const scorers = config.scorers.map((instance, i): PlannedScorer => ({
    name: instance.name,
    key: instance.definition.key,
    ...(instance.definition.reaches === undefined ? {} : { reaches: instance.definition.reaches }),
    judgeCalls: counts[i] ?? 0,
  }));
  return { cases, trials, judgeCalls: counts.reduce((a, b) => a + b, 0), scorers };
}

/**
 * The judge calls one evaluation of `evalCase` makes, per scorer of the config (in its order): the
 * count `evallens plan` adds up, and what `validate --cases` lists per case so an editor can add it up.
 */
export function judgeCallsPerEvaluation(config: RunConfig, evalCase: EvalCase): number[] {
  return config.scorers.map((instance) => instance.definition.judgeCalls?.(instance.options, evalCase) ?? 0);
}

/** Whether any scorer of the config calls a judge. */
export function hasJudges(config: RunConfig): boolean {
  return config.scorers.some((s) => s.definition.judgeCalls !== undefined);
}

/** The announcement: "This run will make 12 judge calls (3 cases × 2 trials; goal_completion 6, binary_rubric_scorer 6)". */
export function describePlan(plan: JudgeCallPlan): string {
  const per = plan.scorers.filter((s) => s.judgeCalls > 0).map((s) => `${s.name} ${s.judgeCalls}`);
  const shape = `${plan.cases} case${plan.cases === 1 ? '' : 's'} × ${plan.trials} trial${plan.trials === 1 ? '' : 's'}`;
  return `This run will make ${plan.judgeCalls} judge call${plan.judgeCalls === 1 ? '' : 's'} at most (${shape}${per.length === 0 ? '' : `; ${per.join(', ')}`})`;
}
