import type { Json } from '../../case';
import { error, measured, unsupported } from '../../result';
import schema from '../../../schemas/scorers/mcp_compliance_check.schema.json';
import { formatFigure } from '../support/turnCounters';
import { defineScorer, prepared } from '../scorer';
import { maskThenCut } from '../../../shared/text/secretMask';
import { isObject } from '../../../shared/isObject';

/** EvalBench's default weight of each finding severity. */
const DEFAULT_WEIGHTS: { readonly [severity: string]: number } = { P0: 10, P1: 3, P2: 1 };

/** How much of a recorded probe error a reason repeats. */
const PROBE_ERROR_SHOWN = 200;

/**
 * EvalBench's `mcp_compliance_check` (scorers/mcpcompliancecheck.py): the weighted count of the
 * findings the MCP compliance check recorded for a row, its output: Σ weight(severity) × count over
 * `severity_counts` (weights P0 10, P1 3, P2 1 unless `severity_weights` overrides them; a severity
 * without a weight counts 0). Lower is better. A row with a `probe_error` scores 0.
 */
export const mcpComplianceCheck = defineScorer('mcp_compliance_check', {
  origin: 'EvalBench',
  scale: { kind: 'count', unit: 'weighted findings' },
  schema,
  create(options) {
    const configured = isObject(options['severity_weights']) ? options['severity_weights'] : {};
    // A Map, so a severity named `__proto__` is a plain key.
    const weights = new Map(Object.entries(DEFAULT_WEIGHTS));
    for (const [severity, weight] of Object.entries(configured))
      if (typeof weight === 'number') weights.set(severity, weight);
    const weightDetails = Object.fromEntries(weights);
    return prepared({
      score({ output }) {
        if (output === undefined) return unsupported('the case records no MCP compliance row as its output');
        if (!isObject(output))
          return unsupported('the output is not an MCP compliance row (an object with `severity_counts`)');
        const probeError = output['probe_error'];
        if (truthy(probeError)) {
          const text = typeof probeError === 'string' ? probeError : JSON.stringify(probeError);
          const shown = maskThenCut(text, PROBE_ERROR_SHOWN);
          return measured(`0: the endpoint could not be probed (${shown}), as EvalBench scores it`, 0, {
            probe_error: true,
          });
        }
        const recorded = output['severity_counts'];
        const counts = truthy(recorded) ? recorded : { P0: 0, P1: 0, P2: 0 };
        if (!isObject(counts))
          return error(
            "`severity_counts` is not an object of counts per severity; EvalBench's mcp_compliance_check fails on it",
          );
        let total = 0;
        for (const [severity, count] of Object.entries(counts)) {
          const n = typeof count === 'boolean' ? Number(count) : count;
          if (typeof n !== 'number')
            return error(
              `the ${severity} count is ${JSON.stringify(count)}, not a number; EvalBench's mcp_compliance_check fails on it`,
            );
          total += (weights.get(severity) ?? 0) * n;
        }
        const listed = Object.entries(counts)
          .map(([severity, n]) => `${severity} ${JSON.stringify(n)}`)
          .join(', ');
        return measured(`${formatFigure(total)} weighted findings (${listed || 'none recorded'})`, total, {
          severity_counts: counts,
          weights: weightDetails,
        });
      },
    });
  },
});

/** Python's truthiness of a JSON value: null, false, 0, "", [] and {} are false. */
function truthy(value: Json | undefined): boolean {
  if (value === undefined || value === null) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return Boolean(value);
}
