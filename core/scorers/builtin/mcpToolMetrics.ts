import type { Json } from '../../case';
import { error, fail, pass, unsupported } from '../../result';
import schema from '../../../schemas/scorers/mcp_tool_metrics.schema.json';
import { toolListing, wireLength } from '../support/mcpToolListing';
import { pythonRound, pythonRound2 } from '../support/pythonRound';
import { defineScorer, prepared } from '../scorer';
import { isObject } from '../../../shared/isObject';

/** EvalBench's estimate of how many characters make one token. */
const CHARS_PER_TOKEN = 4;

/**
 * EvalBench's `mcp_tool_metrics` (scorers/mcp_readability/tool_metrics.py): the size of an MCP
 * endpoint's tool listing, recorded as the case's output. estimated_tokens = round(Σ len(tool as
 * JSON) / 4); with a positive token budget, token_budget_used_percent = round(estimated / budget ×
 * 100, 2). Scores 100 (pass) within budget (≤ 100 %, or no budget) and 0 (fail) over it.
 */
export const mcpToolMetrics = defineScorer('mcp_tool_metrics', {
  origin: 'EvalBench',
  scale: { kind: 'bounded', max: 100 },
  schema,
  create(options) {
    const configured = options['token_budget'];
    return prepared({
      score({ case: evalCase, output }) {
        if (output === undefined) return unsupported('the case records no MCP tool listing as its output');
        const listing = toolListing(output);
        if (!listing.ok) return error(listing.reason);
        const budget = budgetOf(evalCase.metadata) ?? (typeof configured === 'number' ? configured : undefined);
        let chars = 0;
        for (const tool of listing.tools) chars += wireLength(tool);
        const estimated = pythonRound(chars / CHARS_PER_TOKEN);
        const used = budget !== undefined && budget > 0 ? pythonRound2((estimated / budget) * 100) : null;
        const details: { [key: string]: Json } = {
          total_tools: listing.tools.length,
          estimated_tokens: estimated,
          token_budget_used_percent: used,
          characters: chars,
        };
        if (budget !== undefined) details['token_budget'] = budget;
        const size = `${listing.tools.length} tool${listing.tools.length === 1 ? '' : 's'}, about ${estimated} tokens`;
        if (used === null) return pass(`${size}; no positive token budget, so nothing to exceed`, 100, details);
        if (used <= 100) return pass(`${size}: ${used}% of the ${budget} token budget`, 100, details);
        return fail(`${size}: ${used}% of the ${budget} token budget, over it`, 0, details);
      },
    });
  },
});

/**
 * The case's own budget (EvalBench: the endpoint's `token_budget`, which wins over the scorer's);
 * a null or absent one leaves the scorer's, as in EvalBench.
 */
function budgetOf(metadata: Json | undefined): number | undefined {
  if (!isObject(metadata)) return undefined;
  const budget = metadata['token_budget'];
  return typeof budget === 'number' ? budget : undefined;
}
