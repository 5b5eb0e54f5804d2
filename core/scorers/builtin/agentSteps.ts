import schema from '../../../schemas/scorers/agent_steps.schema.json';
import { countOf, turnCounter } from '../support/turnCounters';

/** EvalBench's `agent_steps`: the tool calls of every turn, summed. */
export const agentSteps = turnCounter({
  key: 'agent_steps',
  unit: 'steps',
  schema,
  figure: 'tool call count',
  describe: (total) => countOf(total, 'tool call'),
  fold: () => ({ add: (turn) => turn.toolCalls }),
});
