import schema from '../../../schemas/scorers/effective_billed_tokens.schema.json';
import { formatFigure, turnCounter } from '../support/turnCounters';

/**
 * EvalBench's `effective_billed_tokens`: input × input_weight + cached × cached_weight + cache
 * creation × cache_write_weight + candidates (output) × output_weight, summed over the turns. The
 * default weights (1.0, 0.1, 1.25, 5.0) are EvalBench's.
 */
export const effectiveBilledTokens = turnCounter({
  key: 'effective_billed_tokens',
  unit: 'weighted tokens',
  schema,
  figure: 'token counts',
  describe: (total) => `${formatFigure(total)} weighted tokens`,
  fold: (w) => {
    return {
      add: (turn) => {
        const t = turn.tokens;
        if (t === undefined) return undefined;
        return (
          (t.input ?? 0) * w.input_weight +
          (t.cached ?? 0) * w.cached_weight +
          (t.cacheCreation ?? 0) * w.cache_write_weight +
          (t.candidates ?? 0) * w.output_weight
        );
      },
      parts: (turn) => ({
        input: turn.tokens?.input ?? 0,
        cached: turn.tokens?.cached ?? 0,
        cache_creation: turn.tokens?.cacheCreation ?? 0,
        candidates: turn.tokens?.candidates ?? 0,
      }),
      details: {
        weights: {
          input_weight: w.input_weight,
          cached_weight: w.cached_weight,
          cache_write_weight: w.cache_write_weight,
          output_weight: w.output_weight,
        },
      },
    };
  },
});
