import type { Json } from '../../case';
import { error, measured, unsupported } from '../../result';
import schema from '../../../schemas/scorers/mcp_token_cost.schema.json';
import type { JsonObject } from '../../trace/fields';
import { formatFigure } from '../support/turnCounters';
import { defineScorer, prepared } from '../scorer';
import { maskThenCut } from '../../../shared/text/secretMask';
import { isObject } from '../../../shared/isObject';

/** How much of a recorded probe error a reason repeats. */
const PROBE_ERROR_SHOWN = 200;

/**
 * EvalBench's `mcp_token_cost` (scorers/mcptokencost.py): reads the token estimate the MCP
 * compliance check recorded for a row, its output. A tool row scores `approx_tokens` (EvalBench:
 * len(tool schema as YAML) // 4); the endpoint's aggregate row (`is_aggregate`) scores
 * `avg_approx_tokens`; a row with a `probe_error` scores 0. A missing figure is 0.
 */
export const mcpTokenCost = defineScorer('mcp_token_cost', {
  origin: 'EvalBench',
  scale: { kind: 'count', unit: 'tokens' },
  schema,
  create() {
    return prepared({
      score({ output }) {
        if (output === undefined) return unsupported('the case records no MCP compliance row as its output');
        if (!isObject(output))
          return unsupported(
            'the output is not an MCP compliance row (an object with `approx_tokens`, or `is_aggregate` and `avg_approx_tokens`)',
          );
        const probeError = output['probe_error'];
        if (truthy(probeError)) {
          const text = typeof probeError === 'string' ? probeError : JSON.stringify(probeError);
          const shown = maskThenCut(text, PROBE_ERROR_SHOWN);
          return measured(`0 tokens: the endpoint could not be probed (${shown}), as EvalBench scores it`, 0, {
            probe_error: true,
          });
        }
        const aggregate = truthy(output['is_aggregate']);
        const field = aggregate ? 'avg_approx_tokens' : 'approx_tokens';
        const tokens = pythonFloat(fieldOr(output, field));
        if (tokens === undefined)
          return error(
            `\`${field}\` is ${JSON.stringify(output[field])}, not a number; EvalBench's mcp_token_cost fails on it`,
          );
        if (aggregate) {
          const tools = fieldOr(output, 'tool_count');
          const total = fieldOr(output, 'total_approx_tokens');
          return measured(
            `${formatFigure(tokens)} tokens per tool on average across ${JSON.stringify(tools)} tools (total ${JSON.stringify(total)})`,
            tokens,
            { aggregate: true, tool_count: tools, total_approx_tokens: total },
          );
        }
        const name = output['tool_name'];
        return measured(
          `${formatFigure(tokens)} tokens for tool ${typeof name === 'string' ? name : JSON.stringify(name ?? null)}`,
          tokens,
          { aggregate: false },
        );
      },
    });
  },
});

/** `row.get(field, 0)`: a recorded null stays null. */
function fieldOr(row: JsonObject, field: string): Json {
  return Object.hasOwn(row, field) ? (row[field] as Json) : 0;
}

/** Python's truthiness of a JSON value: null, false, 0, "", [] and {} are false. */
function truthy(value: Json | undefined): boolean {
  if (value === undefined || value === null) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return Boolean(value);
}

/** Python's `float(value)` for a JSON value, or undefined where Python raises. */
function pythonFloat(value: Json): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && /^\s*[+-]?(\d+\.?\d*(e[+-]?\d+)?|\.\d+(e[+-]?\d+)?)\s*$/i.test(value))
    return Number(value.trim());
  return undefined;
}
