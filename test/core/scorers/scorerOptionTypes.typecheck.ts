// Type-level test, checked by `npm run typecheck` (tsconfig includes test/; the test runner skips it,
// its name does not end in .test.ts). Each `@ts-expect-error` line must fail to compile, or tsc
// reports the directive as unused: a scorer reading an option its schema does not declare, or reading
// it with the wrong type, is a type error.
import { defineScorer, prepared } from '../../../core/scorers/scorer';
import { contains } from '../../../core/scorers/builtin/contains';

const schema = { type: 'object' };

export const readsDeclaredOptions = defineScorer('contains', {
  origin: 'EvalBook',
  scale: { kind: 'bounded', max: 1 },
  schema,
  create(options) {
    const sensitive: boolean = options.case_sensitive;
    const match: 'all' | 'any' = options.match;
    // @ts-expect-error -- `caseSensitive` is not an option of contains.schema.json (it is `case_sensitive`)
    const renamed: unknown = options.caseSensitive;
    // @ts-expect-error -- `value` is optional in the schema: the scorer must handle its absence
    const value: string = options.value;
    // @ts-expect-error -- `match` is an enum of 'all' | 'any', not any string
    const wrongMatch: 'every' = options.match;
    return prepared({
      score: () => ({
        status: 'pass',
        reason: `${sensitive} ${match} ${String(renamed)} ${value} ${wrongMatch}`,
        score: 1,
      }),
    });
  },
});

// The key comes from the schema's file name, EvalBench's variant included.
export const key: 'contains' = contains.key;

// @ts-expect-error -- a schema name with no schemas/scorers/<name>.schema.json
export const unknownSchema = defineScorer('contains_text', {
  origin: 'EvalBook',
  scale: { kind: 'bounded', max: 1 },
  schema,
  create: () => prepared({ score: () => ({ status: 'pass', reason: '', score: 1 }) }),
});
