import schema from '../../../schemas/scorers/token_consumption.schema.json';
import { countOf, turnCounter } from '../support/turnCounters';

/** EvalBench's `token_consumption`: the models' `total` token counts, summed over the turns. */
export const tokenConsumption = turnCounter({
  key: 'token_consumption',
  unit: 'tokens',
  schema,
  figure: 'total token count',
  describe: (total) => countOf(total, 'token'),
  fold: () => ({ add: (turn) => turn.tokens?.total }),
});
