import type { Json } from '../../case';
import { fail, pass } from '../../result';
import schema from '../../../schemas/scorers/required_fields.schema.json';
import { kindOf, typeName } from '../support/describe';
import { parseFieldPath, valueAt } from '../support/path';
import { checked, defineScorer, type OptionIssue, type OptionsOf, prepared, refused } from '../scorer';

type FieldType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null' | 'any';

interface CompiledField {
  readonly path: string;
  readonly segments: readonly (string | number)[];
  readonly types: readonly FieldType[];
}

interface Unsatisfied {
  readonly path: string;
  readonly types: readonly FieldType[];
  readonly value: Json | undefined;
}

/** How many failing fields a reason names before it says "and N more". */
const NAMED_IN_REASON = 5;

/**
 * Passes when the output object has every listed field with one of its declared types. Binary: one
 * unsatisfied field fails the case; `details.satisfied` / `details.total` give the fraction.
 */
export const requiredFields = defineScorer('required_fields', {
  origin: 'EvalBook',
  scale: { kind: 'bounded', max: 1 },
  schema,
  check(options) {
    return checked(compileFields(options).issues);
  },
  create(options) {
    const { issues, fields } = compileFields(options);
    if (issues.length > 0) return refused(...issues);
    return prepared({
      score({ output }) {
        if (output === undefined) return fail('the case has no output');
        if (output === null || typeof output !== 'object' || Array.isArray(output)) {
          return fail(`the output is ${kindOf(output)}, not an object; nothing is converted`);
        }
        const unsatisfied: Unsatisfied[] = [];
        for (const field of fields) {
          const value = valueAt(output, field.segments);
          if (!field.types.some((type) => satisfies(value, type)))
            unsatisfied.push({ path: field.path, types: field.types, value });
        }
        const total = fields.length;
        const satisfied = total - unsatisfied.length;
        const details: { [key: string]: Json } = {
          satisfied,
          total,
          unsatisfied: unsatisfied.map((u) => ({ path: u.path, types: [...u.types], saw: typeName(u.value) })),
        };
        if (unsatisfied.length === 0)
          return pass(
            `the output has all ${total} required field${total === 1 ? '' : 's'} with their declared types`,
            1,
            details,
          );
        const named = unsatisfied.slice(0, NAMED_IN_REASON).map(describeUnsatisfied);
        const more = unsatisfied.length > NAMED_IN_REASON ? `; and ${unsatisfied.length - NAMED_IN_REASON} more` : '';
        return fail(
          `${unsatisfied.length} of ${total} required field${total === 1 ? '' : 's'} ${unsatisfied.length === 1 ? 'is' : 'are'} not satisfied: ${named.join('; ')}${more}`,
          0,
          details,
        );
      },
    });
  },
});

function satisfies(value: Json | undefined, type: FieldType): boolean {
  if (value === undefined) return false;
  switch (type) {
    case 'any':
      return true;
    case 'null':
      return value === null;
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
  }
}

/** "`a.b` is missing", "`n` is a string of 3 characters, not integer or null": kinds, never values. */
function describeUnsatisfied(u: Unsatisfied): string {
  const wanted = u.types.join(' or ');
  if (u.value === undefined) return `\`${u.path}\` is missing`;
  const seen =
    typeof u.value === 'number' && !Number.isInteger(u.value) ? 'a number with a fractional part' : kindOf(u.value);
  return `\`${u.path}\` is ${seen}, not ${wanted}`;
}

/** The fields' paths parsed, or why one cannot be read. */
function compileFields(options: OptionsOf<'required_fields'>): { issues: OptionIssue[]; fields: CompiledField[] } {
  const issues: OptionIssue[] = [];
  const fields: CompiledField[] = [];
  options.fields.forEach((field, index) => {
    const parsed = parseFieldPath(field.path);
    if (!parsed.ok) issues.push({ path: ['fields', index, 'path'], message: `field ${index + 1}: ${parsed.message}` });
    else
      fields.push({
        path: field.path,
        segments: parsed.segments,
        types: typeof field.type === 'string' ? [field.type] : field.type,
      });
  });
  return { issues, fields };
}
