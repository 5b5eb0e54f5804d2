import schema from '../../../schemas/scorers/tool_call_latency.schema.json';
import { formatFigure, turnCounter } from '../support/turnCounters';

/** EvalBench's `tool_call_latency`: tool execution time, summed over the turns. */
export const toolCallLatency = turnCounter({
  key: 'tool_call_latency',
  unit: 'ms',
  schema,
  figure: 'tool duration',
  describe: (total) => `${formatFigure(total)} ms of tool execution`,
  fold: () => ({ add: (turn) => turn.toolDurationMs }),
});
