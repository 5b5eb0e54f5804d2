/**
 * What a run started by a save may include (evallens.run.onSave, continuous runs). A save runs only
 * what spends nothing and reaches nothing the workspace chose: no target, no LLM judge call, no scorer
 * reaching the network, no server database (discovery and the plan both say `network` for one).
 * `evallens.run.costlyScorersOnSave` lifts that in a trusted workspace only: in Restricted Mode a save
 * never runs a config that would reach the network, whatever the setting says. vscode-free.
 */
import type { RunPlan } from '../runner/plan';
import { planIsFree } from '../runner/plan';
import type { DiscoveredConfig } from './caseDiscovery';

/** Whether discovery alone shows the config spends nothing (no plan needed): it loaded, no target, nothing reaching the network. */
export function freeByDiscovery(discovered: DiscoveredConfig | undefined): boolean {
  return discovered !== undefined && discovered.problem === undefined && discovered.target === false && !discovered.reaches.includes('network');
}

export interface SaveContext {
  readonly fromSave: boolean;
  readonly costlyScorersOnSave: boolean;
  readonly trusted: boolean;
}

/**
 * Why a save must not run this config, or undefined when it may. `plan` is the CLI's plan when it
 * could be had; without one, discovery's view decides (a config that did not load is left to the run,
 * which says why).
 */
export function saveRefusal(context: SaveContext, discovered: DiscoveredConfig | undefined, plan: RunPlan | undefined): string | undefined {
  if (!context.fromSave || (context.costlyScorersOnSave && context.trusted)) return undefined;
  const how = context.trusted ? 'set evallens.run.costlyScorersOnSave to run it on save' : 'Restricted Mode: trust the workspace to run it on save';
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
  if (discovered?.reaches.includes('network') === true) return `it reaches the network: LLM judges or a server database (${how})`;
  return undefined;
}
