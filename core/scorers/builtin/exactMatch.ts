import type { Json } from '../../case';
import { error, fail, pass } from '../../result';
import schema from '../../../schemas/scorers/exact_match.schema.json';
import { canonicalJson } from '../support/canonicalJson';
import { codePointLength, firstDifference, kindOf } from '../support/describe';
import { defineScorer, type OptionsOf, prepared } from '../scorer';
import { parseJson } from '../../text/jsonDepth';

type ExactMatchOptions = OptionsOf<'exact_match'>;

export const exactMatch = defineScorer('exact_match', {
  origin: 'EvalBook',
  scale: { kind: 'bounded', max: 1 },
  schema,
  create(options) {
    const normalize = textNormalizer(options);
    return prepared({
      score({ output, expected: caseExpected }) {
        const expected = options.value !== undefined ? options.value : caseExpected;
        if (expected === undefined)
          return error('there is no expected value (the case has no `expected` and the scorer no `value`)');
        const textMode = options.mode === 'text' || (options.mode === 'auto' && typeof expected === 'string');
        if (textMode) {
          if (typeof expected !== 'string')
            return error(`the expected value is ${kindOf(expected)}, not a string; text mode compares strings`);
          if (typeof output !== 'string')
            return fail(`the output is ${kindOf(output)}, not a string; nothing is converted`);
          return compareTexts(normalize(output), normalize(expected));
        }
        let subject: Json | undefined = output;
        if (options.mode === 'json' && typeof output === 'string') {
          try {
            subject = parseJson(output) as Json;
          } catch {
            return fail(`the output is a string of ${codePointLength(output)} characters that is not valid JSON`);
          }
        }
        if (subject === undefined) return fail('the case has no output');
        if (typeof subject === 'string' && typeof expected !== 'string') {
          return fail(
            `the output is ${kindOf(subject)}, not ${kindOf(expected).replace(/ of .*/, '')}; nothing is converted (use mode: json to parse JSON text)`,
          );
        }
        const actualJson = canonicalJson(subject);
        const expectedJson = canonicalJson(expected);
        if (actualJson === expectedJson) return pass('the output equals the expected value as canonical JSON');
        const at = firstDifference(actualJson, expectedJson);
        return fail(
          `the output differs from the expected value as canonical JSON at character ${at + 1} (output ${kindOf(subject)}, expected ${kindOf(expected)})`,
          0,
          {
            actual: actualJson,
            expected: expectedJson,
          },
        );
      },
    });
  },
});

function compareTexts(actual: string, expected: string) {
  const at = firstDifference(actual, expected);
  if (at < 0) return pass(`the output equals the expected text (${codePointLength(actual)} characters)`);
  return fail(
    `the output differs from the expected text at character ${at + 1} (output ${codePointLength(actual)} characters, expected ${codePointLength(expected)})`,
    0,
    { actual, expected },
  );
}

function textNormalizer(options: ExactMatchOptions): (text: string) => string {
  return (text) => {
    let t = text;
    if (options.unicode_nfc) t = t.normalize('NFC');
    if (options.trim) t = t.trim();
    if (options.collapse_whitespace) t = t.replace(/\s+/gu, ' ');
    if (options.ignore_case) t = t.toLowerCase();
    return t;
  };
}
