import { error, fail, pass, type ScorerVerdict } from '../../result';
import schema from '../../../schemas/scorers/edit_similarity.schema.json';
import { kindOf, textOutput } from '../support/describe';
import {
  codePointCount,
  interruptibleLevenshtein,
  normalizedSimilarity,
  type EditDistance,
} from '../support/levenshtein';
import { checked, defineScorer, type OptionIssue, prepared, refused } from '../scorer';

/** The pass mark when the config gives no `threshold`. */
export const EDIT_SIMILARITY_DEFAULT_THRESHOLD = 0.8;

/**
 * The longest text (output or expected) compared, in code points: the work grows with the product of
 * the two lengths, and at this size a comparison takes a few seconds. Longer is an `error`.
 */
export const EDIT_SIMILARITY_MAX_CODE_POINTS = 100_000;

/**
 * Normalized Levenshtein similarity `1 − distance / max(length)` over code points (1 for two empty
 * texts); passes when it reaches the threshold (at most the threshold with `lower_is_better`).
 */
export const editSimilarity = defineScorer('edit_similarity', {
  origin: 'EvalBook',
  scale: { kind: 'bounded', max: 1 },
  defaultThreshold: EDIT_SIMILARITY_DEFAULT_THRESHOLD,
  schema,
  check(options) {
    return checked(thresholdIssues(options.threshold ?? EDIT_SIMILARITY_DEFAULT_THRESHOLD));
  },
  create(options) {
    const threshold = options.threshold ?? EDIT_SIMILARITY_DEFAULT_THRESHOLD;
    const issues = thresholdIssues(threshold);
    if (issues.length > 0) return refused(...issues);
    const lowerIsBetter = options.lower_is_better === true;
    return prepared({
      score({ output: given, expected: caseExpected }, signal) {
        const expected = options.value !== undefined ? options.value : caseExpected;
        if (expected === undefined)
          return error('there is no expected value (the case has no `expected` and the scorer no `value`)');
        if (typeof expected !== 'string')
          return error(`the expected value is ${kindOf(expected)}, not a string; nothing is converted`);
        const text = textOutput(given);
        if (!text.ok) return text.verdict;
        const output = text.text;
        const tooLong = overCap(output, 'output') ?? overCap(expected, 'expected value');
        if (tooLong !== undefined) return tooLong;
        const decide = (result: EditDistance) => verdictOf(result, output, expected, threshold, lowerIsBetter);
        // Long texts are compared in chunks that give way to the event loop and stop once the signal aborts.
        const result = interruptibleLevenshtein(output, expected, signal);
        return result instanceof Promise
          ? result.then(decide, (e: unknown) => error(e instanceof Error ? e.message : String(e)))
          : decide(result);
      },
    });
  },
});

/** The verdict on a computed distance: similarity against the threshold, the texts in `details` when it fails. */
function verdictOf(
  result: EditDistance,
  output: string,
  expected: string,
  threshold: number,
  lowerIsBetter: boolean,
): ScorerVerdict {
  const similarity = normalizedSimilarity(result);
  const passed = lowerIsBetter ? similarity <= threshold : similarity >= threshold;
  const details = {
    distance: result.distance,
    output_length: result.lengthA,
    expected_length: result.lengthB,
    threshold,
  };
  const shown = formatRatio(similarity, threshold);
  const lengths = `output ${plural(result.lengthA)}, expected ${plural(result.lengthB)}`;
  const mark = lowerIsBetter ? `at most ${threshold}` : `at least ${threshold}`;
  return passed
    ? pass(`the similarity ${shown} meets the pass threshold (${mark}; ${lengths})`, similarity, details)
    : // The two texts compared, so an editor can open a diff of a failing case (payload goes in details only).
      fail(`the similarity ${shown} misses the pass threshold (${mark}; ${lengths})`, similarity, {
        ...details,
        expected,
        actual: output,
      });
}

/** Four decimals, or every digit when four would round onto the threshold and hide why it failed or passed. */
function formatRatio(value: number, threshold: number): string {
  const short = Number(value.toFixed(4));
  return short === threshold && value !== threshold ? String(value) : String(short);
}

function overCap(text: string, what: string): ScorerVerdict | undefined {
  // A UTF-16 length within the cap has at most that many code points.
  if (text.length <= EDIT_SIMILARITY_MAX_CODE_POINTS) return undefined;
  const length = codePointCount(text, 0, text.length);
  if (length <= EDIT_SIMILARITY_MAX_CODE_POINTS) return undefined;
  return error(
    `the ${what} is ${length} code points long, over the ${EDIT_SIMILARITY_MAX_CODE_POINTS} edit_similarity compares`,
  );
}

function plural(n: number): string {
  return `${n} character${n === 1 ? '' : 's'}`;
}

function thresholdIssues(threshold: number): OptionIssue[] {
  if (threshold >= 0 && threshold <= 1) return [];
  return [
    {
      path: ['threshold'],
      message: `the threshold must lie between 0 and 1: edit_similarity scores a similarity from 0 to 1`,
    },
  ];
}
