import schema from '../../../schemas/scorers/turn_count.schema.json';
import { countOf, turnCounter } from '../support/turnCounters';

/** EvalBench's `turn_count`: the number of user↔agent turns in the trace. */
export const turnCount = turnCounter({
  key: 'turn_count',
  unit: 'turns',
  schema,
  figure: 'turn',
  describe: (total) => countOf(total, 'turn'),
  fold: () => ({ add: () => 1 }),
});
