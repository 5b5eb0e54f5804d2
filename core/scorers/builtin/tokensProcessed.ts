import schema from '../../../schemas/scorers/tokens_processed.schema.json';
import { countOf, turnCounter } from '../support/turnCounters';

/**
 * EvalBench's `tokens_processed`: input + candidates (output) + cached + cache-creation tokens, summed
 * over the turns; `prompt`, `thoughts` and `tool` tokens are left out, as in EvalBench.
 */
export const tokensProcessed = turnCounter({
  key: 'tokens_processed',
  unit: 'tokens',
  schema,
  figure: 'token counts',
  describe: (total) => `${countOf(total, 'token')} processed`,
  fold: () => ({
    add: (turn) => {
      const t = turn.tokens;
      return t === undefined
        ? undefined
        : (t.input ?? 0) + (t.candidates ?? 0) + (t.cached ?? 0) + (t.cacheCreation ?? 0);
    },
    parts: (turn) => ({
      input: turn.tokens?.input ?? 0,
      candidates: turn.tokens?.candidates ?? 0,
      cached: turn.tokens?.cached ?? 0,
      cache_creation: turn.tokens?.cacheCreation ?? 0,
    }),
  }),
});
