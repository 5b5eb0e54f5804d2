import { fail, pass } from '../../result';
import schema from '../../../schemas/scorers/not_contains.schema.json';
import { textOutput } from '../support/describe';
import { describeText, findNeedles, nameNeedles, resolveNeedles } from '../support/textNeedles';
import { defineScorer, prepared } from '../scorer';

/** Passes when none of the values appears in the output text. */
export const notContains = defineScorer('not_contains', {
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
        const present = findNeedles(output, needles, options.case_sensitive).filter((h) => h.at >= 0);
        const seen = describeText(output);
        if (present.length === 0) {
          return needles.length === 1
            ? pass(`the output (${seen}) does not contain the value`)
            : pass(`the output (${seen}) contains none of the ${needles.length} values`);
        }
        const verb = present.length === 1 ? 'appears' : 'appear';
        const where = present.map((h) => h.at + 1).join(', ');
        return fail(
          `${nameNeedles(present, needles.length)} ${verb} in the output (${seen}) at character${present.length === 1 ? '' : 's'} ${where}`,
          0,
          {
            values_from: resolved.from,
            present: present.map((h) => ({ value: h.number, text: h.needle, at: h.at + 1 })),
          },
        );
      },
    });
  },
});
