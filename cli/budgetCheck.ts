import type { RunConfig } from '../core/config/runConfig';
import { pricesOf, type BudgetLimits } from '../core/judge/budget';
import { modelConfigOf } from '../core/runner/spendEstimate';
import { printable } from '../shared/text/printable';
import { displayPath } from './reporters/paths';

/**
 * `--max-cost` can only be kept when every judge's cost is known: a run with it refuses to start
 * (a usage error) when a judge scorer's model config has no prices, naming the scorer and the file.
 */
export function unpricedUnderMaxCost(config: RunConfig, budget: BudgetLimits | undefined): string | undefined {
  if (budget?.maxCost === undefined) return undefined;
  for (const instance of config.scorers) {
    if (instance.definition.judgeCalls === undefined) continue;
    const model = modelConfigOf(instance);
    if (model !== undefined && pricesOf(model) === undefined)
      return printable(
        `--max-cost ${budget.maxCost}: the judge of ${instance.name} has no price (set price_per_million_input_tokens and price_per_million_output_tokens in ${displayPath(process.cwd(), model.file)}), so its cost cannot be counted`,
      );
  }
  return undefined;
}
