import schema from '../../../schemas/scorers/end_to_end_latency.schema.json';
import { formatFigure, turnCounter } from '../support/turnCounters';

/** EvalBench's `end_to_end_latency`: tool execution time plus model API latency, summed over the turns. */
export const endToEndLatency = turnCounter({
  key: 'end_to_end_latency',
  unit: 'ms',
  schema,
  figure: 'latency',
  describe: (total) => `${formatFigure(total)} ms of model and tool time`,
  fold: () => ({
    add: (turn) =>
      turn.toolDurationMs === undefined && turn.modelLatencyMs === undefined
        ? undefined
        : (turn.toolDurationMs ?? 0) + (turn.modelLatencyMs ?? 0),
    parts: (turn) => ({ model_latency_ms: turn.modelLatencyMs ?? 0, tool_duration_ms: turn.toolDurationMs ?? 0 }),
  }),
});
