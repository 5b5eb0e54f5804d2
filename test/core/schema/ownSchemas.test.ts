/**
 * EvalLens compiles its own schemas without checking them against the JSON Schema meta-schema at run
 * time (createAjv's `ownSchemas`, for the language server's start-up): this is where they are checked.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createAjv } from '../../../core/schema/ajv';

const SCHEMAS = join(__dirname, '..', '..', '..', 'schemas');
const files = [
  ...readdirSync(SCHEMAS).filter((f) => f.endsWith('.schema.json')),
  ...readdirSync(join(SCHEMAS, 'scorers'))
    .filter((f) => f.endsWith('.schema.json'))
    .map((f) => join('scorers', f)),
  ...readdirSync(join(SCHEMAS, 'scorers', 'evalbench'))
    .filter((f) => f.endsWith('.schema.json'))
    .map((f) => join('scorers', 'evalbench', f)),
];

describe('EvalLens schemas', () => {
  it('finds the run config, the common options and every scorer', () => {
    assert.ok(files.includes('run-config.schema.json'));
    assert.ok(files.includes('scorer-common.schema.json'));
    assert.ok(files.filter((f) => f.startsWith('scorers')).length >= 10);
  });

  for (const file of files) {
    it(`${file} is a valid draft 2020-12 schema`, () => {
      const ajv = createAjv({ useDefaults: false });
      const schema: unknown = JSON.parse(readFileSync(join(SCHEMAS, file), 'utf8'));
      assert.equal(typeof schema, 'object');
      const valid = ajv.validateSchema(schema as object);
      assert.equal(valid, true, `${file}: ${ajv.errorsText(ajv.errors)}`);
    });
  }
});
