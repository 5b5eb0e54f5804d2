/**
 * Whether a run goes ahead, in one pure function: the Test Explorer, a CodeLens, a save and a
 * continuous run all ask it. The rules:
 * - A run started by a save (evallens.run.onSave, continuous runs) runs only what spends nothing and
 *   reaches nothing the workspace chose: no target, no LLM judge call, no scorer reaching the network,
 *   no server database (discovery and the plan both say `network` for one).
 *   `evallens.run.costlyScorersOnSave` lifts that in a trusted workspace only: in Restricted Mode a
 *   save never runs a config that would reach the network, whatever the setting says.
 * - A run the person started asks first when its judge calls exceed `evallens.confirmJudgeCallsAbove`;
 *   in Restricted Mode no judge is called, so there is nothing to confirm.
 * vscode-free.
 */
import type { RunPlan } from '../runner/plan';
import { estimateText, planIsFree } from '../runner/plan';
import type { DiscoveredConfig } from './caseDiscovery';

/** Whether discovery alone shows the config spends nothing (no plan needed): it loaded, no target, nothing reaching the network. */
export function freeByDiscovery(discovered: DiscoveredConfig | undefined): boolean {
  return (
    discovered !== undefined &&
    discovered.problem === undefined &&
    discovered.target === false &&
    !discovered.reaches.includes('network')
  );
}

export interface RunContext {
  /** The config as the person sees it named (relative to the workspace). */
  readonly configName: string;
  /** Started by a save (run on save, continuous run), not by the person. */
  readonly fromSave: boolean;
  /** The workspace is trusted (not Restricted Mode). */
  readonly trusted: boolean;
  readonly costlyScorersOnSave: boolean;
  readonly confirmJudgeCallsAbove: number;
}

export type RunDecision =
  | { readonly kind: 'run' }
  /** Not run; `message` says why and how to change that. */
  | { readonly kind: 'refuse'; readonly message: string }
  /** Run only if the person agrees: a modal `question` with `detail`, and what to say when they do not. */
  | { readonly kind: 'confirm'; readonly question: string; readonly detail: string; readonly declined: string };

/**
 * The decision for one config's run. `plan` is the CLI's plan when it could be had (it is not asked
 * for when discovery shows the config is free); without one, discovery's view decides (a config that
 * did not load is left to the run, which says why).
 */
export function runDecision(
  context: RunContext,
  discovered: DiscoveredConfig | undefined,
  plan: RunPlan | undefined,
): RunDecision {
  if (freeByDiscovery(discovered)) return { kind: 'run' };
  const refusal = saveRefusal(context, discovered, plan);
  if (refusal !== undefined)
    return { kind: 'refuse', message: `${context.configName} was not run on save: ${refusal}.` };
  if (plan === undefined || !context.trusted || context.fromSave || plan.judgeCalls <= context.confirmJudgeCallsAbove)
    return { kind: 'run' };
  const judges = plan.scorers.filter((s) => s.judgeCalls > 0).map((s) => `${s.name}: ${s.judgeCalls}`);
  return {
    kind: 'confirm',
    question: `This run of ${context.configName} makes ${plan.judgeCalls} LLM judge calls (${plan.cases} cases × ${plan.trials} trial${plan.trials === 1 ? '' : 's'}; ${judges.join(', ')}).`,
    detail: `${plan.estimate === undefined ? '' : `${estimateText(plan.estimate)}\n\n`}Runs that need more than ${context.confirmJudgeCallsAbove} judge calls ask first (evallens.confirmJudgeCallsAbove).`,
    declined: `${context.configName} was not run: ${plan.judgeCalls} judge calls were not confirmed.`,
  };
}

/** Why a save must not run this config, or undefined when it may. */
function saveRefusal(
  context: RunContext,
  discovered: DiscoveredConfig | undefined,
  plan: RunPlan | undefined,
): string | undefined {
  if (!context.fromSave || (context.costlyScorersOnSave && context.trusted)) return undefined;
  const how = context.trusted
    ? 'set evallens.run.costlyScorersOnSave to run it on save'
    : 'Restricted Mode: trust the workspace to run it on save';
  if (plan !== undefined) {
    if (planIsFree(plan)) return undefined;
    const why = plan.target
      ? 'it calls a target'
      : plan.judgeCalls > 0
        ? `it makes ${plan.judgeCalls} LLM judge calls`
        : (plan.reaches ?? []).includes('network')
          ? 'it connects to a server database'
          : 'its scorers reach the network';
    return `${why} (${how})`;
  }
  if (discovered?.target === true) return `it calls a target (${how})`;
  if (discovered?.reaches.includes('network') === true)
    return `it reaches the network: LLM judges or a server database (${how})`;
  return undefined;
}
