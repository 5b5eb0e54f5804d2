import { error, fail, pass } from '../../result';
import schema from '../../../schemas/scorers/numeric_tolerance.schema.json';
import { kindOf } from '../support/describe';
import { defineScorer, type OptionsOf, prepared } from '../scorer';

type NumericToleranceOptions = OptionsOf<'numeric_tolerance'>;

/**
 * Passes when `|output − expected| <= max(absolute, relative × |expected|)` (of the tolerances given),
 * inclusive, with a difference that exceeds the bound only by binary rounding counted as at the bound.
 */
export const numericTolerance = defineScorer('numeric_tolerance', {
  origin: 'EvalBook',
  scale: { kind: 'bounded', max: 1 },
  schema,
  create(options) {
    const rule = describeTolerance(options);
    return prepared({
      score({ output, expected: caseExpected }) {
        const expected = options.value !== undefined ? options.value : caseExpected;
        if (expected === undefined)
          return error('there is no expected value (the case has no `expected` and the scorer no `value`)');
        if (typeof expected !== 'number')
          return error(`the expected value is ${kindOf(expected)}, not a number; nothing is converted`);
        if (output === undefined) return fail('the case has no output');
        if (typeof output !== 'number')
          return fail(`the output is ${kindOf(output)}, not a number; nothing is converted`);
        const difference = Math.abs(output - expected);
        const allowed = Math.max(options.absolute ?? 0, (options.relative ?? 0) * Math.abs(expected));
        // Rounding of the subtraction (and of the decimal tolerance itself) is at most a couple of
        // units in the last place of the larger operand; such a hair over the bound is at the bound.
        const rounding = 2 * Number.EPSILON * Math.max(Math.abs(output), Math.abs(expected));
        const details = { difference, allowed };
        if (difference <= allowed + rounding)
          return pass(`the output is within the tolerance of the expected number (${rule})`, 1, details);
        return fail(
          `the output differs from the expected number by more than the tolerance (${rule}); the difference and the allowed bound are in details`,
          0,
          details,
        );
      },
    });
  },
});

/** The tolerance options as reasons name them (config, not payload). */
function describeTolerance(options: NumericToleranceOptions): string {
  const parts: string[] = [];
  if (options.absolute !== undefined) parts.push(`absolute ${options.absolute}`);
  if (options.relative !== undefined) parts.push(`relative ${options.relative} of |expected|`);
  return parts.length > 1 ? `${parts.join(' or ')}, whichever allows more` : parts.join('');
}
