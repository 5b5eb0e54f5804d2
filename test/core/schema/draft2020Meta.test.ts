/**
 * The json_schema scorer checks users' schemas against the draft 2020-12 meta-schema with a validator
 * generated at build time (core/schema/draft2020MetaValidator.generated.ts). Here it must answer what
 * ajv compiling the meta-schema at run time answers, error for error, on valid and invalid schemas.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type Ajv2020 from 'ajv/dist/2020';
import { createUserSchemaAjv } from '../../../core/schema/ajv';
import { draft2020MetaErrors } from '../../../core/schema/draft2020Meta';

const SCHEMAS = join(__dirname, '..', '..', '..', 'schemas');

/** ajv as the json_schema scorer made it before the generated validator, meta-schema check included. */
function runtimeAjv(): Ajv2020 {
  return createUserSchemaAjv({});
}

const own = [
  ...readdirSync(SCHEMAS)
    .filter((f) => f.endsWith('.schema.json'))
    .map((f) => join(SCHEMAS, f)),
  ...readdirSync(join(SCHEMAS, 'scorers'))
    .filter((f) => f.endsWith('.schema.json'))
    .map((f) => join(SCHEMAS, 'scorers', f)),
].map((file): unknown => JSON.parse(readFileSync(file, 'utf8')));

const cases: unknown[] = [
  {},
  { type: 'object', properties: { a: { type: 'string', pattern: '^a+$' } }, required: ['a'] },
  { type: 'strong' },
  { type: ['string', 'nope'] },
  { properties: { a: 3 } },
  { required: 'a' },
  { required: ['a', 'a'] },
  { minLength: -1 },
  { minLength: 1.5 },
  { enum: [] },
  { $id: 'x#frag' },
  { $anchor: '9bad' },
  { $defs: { a: { $dynamicAnchor: 'ok' } }, $ref: '#/$defs/a' },
  { items: [{ type: 'string' }] },
  { prefixItems: { type: 'string' } },
  { allOf: [] },
  { anyOf: [{ type: 'string' }, { minimum: 'x' }] },
  { dependentRequired: { a: [1] } },
  { $schema: 'https://json-schema.org/draft/2020-12/schema', format: 7 },
  { unevaluatedProperties: 'no', contentEncoding: 1, $comment: 2, deprecated: 'yes' },
  { if: { type: 'string' }, then: 3, else: { maxLength: 2 } },
  ...own,
];

describe('the generated draft 2020-12 meta-schema validator', () => {
  for (const [i, schema] of cases.entries()) {
    it(`answers as ajv does for schema ${i + 1}: ${JSON.stringify(schema).slice(0, 60)}`, () => {
      const ajv = runtimeAjv();
      const valid = ajv.validateSchema(schema as object);
      const expected = valid === true ? [] : (ajv.errors ?? []);
      assert.deepEqual(draft2020MetaErrors(schema), expected);
    });
  }

  it('refuses the invalid ones (the list tests both answers)', () => {
    const refused = cases.filter((schema) => draft2020MetaErrors(schema).length > 0);
    assert.ok(refused.length >= 10, `${refused.length} refused`);
    assert.ok(refused.length < cases.length);
  });
});
