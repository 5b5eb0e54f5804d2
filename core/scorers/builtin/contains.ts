import type { Json } from '../../case';
import { fail, pass } from '../../result';
import schema from '../../../schemas/scorers/contains.schema.json';
import { textOutput } from '../support/describe';
import { describeText, findNeedles, nameNeedles, resolveNeedles, type NeedleHit } from '../support/textNeedles';
import { defineScorer, prepared } from '../scorer';

/** Passes when the output text contains every (`match: all`) or any (`match: any`) of the values. */
export const contains = defineScorer('contains', {
  origin: 'EvalBook',
  scale: { kind: 'bounded', max: 1 },
  schema,
  create(options) {
    return prepared({
      score({ output: given, expected }) {
        const resolved = resolveNeedles(options, expected);
        if (!resolved.ok) return resolved.verdict;
        const text = textOutput(given);
        if (!text.ok) return text.verdict;
        const output = text.text;
        const { needles } = resolved;
        const hits = findNeedles(output, needles, options.case_sensitive);
        const present = hits.filter((h) => h.at >= 0);
        const missing = hits.filter((h) => h.at < 0);
        const details = detailsOf(present, missing, resolved.from);
        const seen = describeText(output);
        if (options.match === 'all') {
          if (missing.length === 0) {
            const first = present[0];
            return needles.length === 1 && first !== undefined
              ? pass(`the output (${seen}) contains the value at character ${first.at + 1}`, 1, details)
              : pass(`the output (${seen}) contains all ${needles.length} values`, 1, details);
          }
          const verb = missing.length === 1 ? 'is' : 'are';
          return fail(`${nameNeedles(missing, needles.length)} ${verb} missing from the output (${seen})`, 0, details);
        }
        const first = present[0];
        if (first !== undefined) {
          return pass(
            `${nameNeedles([first], needles.length)} appears in the output (${seen}) at character ${first.at + 1}`,
            1,
            details,
          );
        }
        return needles.length === 1
          ? fail(`the value is missing from the output (${seen})`, 0, details)
          : fail(`none of the ${needles.length} values appears in the output (${seen})`, 0, details);
      },
    });
  },
});

function detailsOf(
  present: readonly NeedleHit[],
  missing: readonly NeedleHit[],
  from: 'options' | 'expected',
): { [key: string]: Json } {
  return {
    values_from: from,
    present: present.map((h) => ({ value: h.number, text: h.needle, at: h.at + 1 })),
    missing: missing.map((h) => ({ value: h.number, text: h.needle })),
  };
}
