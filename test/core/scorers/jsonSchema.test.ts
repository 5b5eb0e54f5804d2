import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { jsonSchema } from '../../../core/scorers/builtin/jsonSchema';
import { refusal, schemaErrors, score } from '../../support/scoring';
import { createEngineContext } from '../../../core/engineContext';

const person = {
  type: 'object',
  required: ['name', 'age'],
  properties: { name: { type: 'string', minLength: 1 }, age: { type: 'integer', minimum: 0 } },
};

describe('json_schema', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'evallens-json-schema-'));
    writeFileSync(join(dir, 'person.schema.json'), JSON.stringify(person));
    writeFileSync(join(dir, 'broken.json'), '{"type": "object",');
    writeFileSync(join(dir, 'list.json'), '[1, 2]');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('passes with score 1 when the output is valid', async () => {
    const v = await score(jsonSchema, { schema: person }, { output: { name: 'Ada', age: 36 } });
    assert.equal(v.status, 'pass');
    assert.equal(v.score, 1);
  });

  it('gives each scorer its own verdict when several share one schema (compiled once, see compileUserSchemaOnce)', async () => {
    const [bad, good] = await Promise.all([
      score(jsonSchema, { schema: person }, { output: { name: '' } }),
      score(jsonSchema, { schema: person }, { output: { name: 'Ada', age: 1 } }),
    ]);
    assert.equal(bad.status, 'fail');
    assert.match(bad.reason ?? '', /2 errors/);
    assert.equal(good.status, 'pass');
  });

  it('fails with score 0, giving the error count and the first errors as path and keyword', async () => {
    const v = await score(jsonSchema, { schema: person }, { output: { name: '', age: -1 } });
    assert.equal(v.status, 'fail');
    assert.equal(v.score, 0);
    assert.match(v.reason, /2 errors \(\/name minLength, \/age minimum\)/);
    assert.equal(v.details?.['error_count'], 2);
  });

  it('names a missing property error at (root), with the property the schema requires (issue 13, item 18)', async () => {
    const v = await score(jsonSchema, { schema: person }, { output: { name: 'Ada' } });
    assert.match(v.reason, /1 error \(\(root\) required "age"\)/);
  });

  it('names the property a dependentRequired lacks, and no key that only the output has', async () => {
    const schema = {
      type: 'object',
      dependentRequired: { card: ['billing'] },
      additionalProperties: false,
      properties: { card: {}, billing: {} },
    };
    const v = await score(jsonSchema, { schema }, { output: { card: 1, secretKeyName: 2 } });
    assert.match(v.reason, /\(root\) dependentRequired "billing"/);
    assert.doesNotMatch(v.reason, /secretKeyName/);
  });

  it('lists only the first three errors in the reason, all of them in details', async () => {
    const schema = { type: 'array', items: { type: 'string' } };
    const v = await score(jsonSchema, { schema }, { output: [1, 2, 3, 4, 5] });
    assert.match(v.reason, /5 errors \(\/0 type, \/1 type, \/2 type, …\)/);
    assert.equal((v.details?.['errors'] as unknown[]).length, 5);
  });

  it('validates a string output as a string by default: nothing is converted', async () => {
    const v = await score(jsonSchema, { schema: person }, { output: '{"name":"Ada","age":36}' });
    assert.equal(v.status, 'fail');
    assert.match(v.reason, /\(root\) type/);
    assert.match(v.reason, /nothing is converted/);
    assert.equal(
      (await score(jsonSchema, { schema: { type: 'string', maxLength: 3 } }, { output: 'abc' })).status,
      'pass',
    );
  });

  it('parses a string output as JSON text with parse_output', async () => {
    const v = await score(jsonSchema, { schema: person, parse_output: true }, { output: '{"name":"Ada","age":36}' });
    assert.equal(v.status, 'pass');
    assert.match(v.reason, /parsed as JSON text/);
  });

  it('fails an output that is not JSON text with parse_output, without quoting it', async () => {
    const v = await score(jsonSchema, { schema: person, parse_output: true }, { output: 'name: Ada' });
    assert.equal(v.status, 'fail');
    assert.match(v.reason, /a string of 9 characters that is not valid JSON text/);
    assert.doesNotMatch(v.reason, /Ada/);
  });

  it('validates a non-string output as it is, even with parse_output', async () => {
    assert.equal(
      (await score(jsonSchema, { schema: person, parse_output: true }, { output: { name: 'Ada', age: 1 } })).status,
      'pass',
    );
    assert.equal(
      (await score(jsonSchema, { schema: { type: 'string' }, parse_output: true }, { output: 5 })).status,
      'fail',
    );
  });

  it('treats 7.0 in JSON text as an integer (draft 2020-12)', async () => {
    assert.equal(
      (await score(jsonSchema, { schema: { type: 'integer' }, parse_output: true }, { output: '7.0' })).status,
      'pass',
    );
    assert.equal(
      (await score(jsonSchema, { schema: { type: 'integer' }, parse_output: true }, { output: '7.5' })).status,
      'fail',
    );
  });

  it('asserts formats', async () => {
    const schema = { type: 'string', format: 'email' };
    assert.equal((await score(jsonSchema, { schema }, { output: 'ada@example.com' })).status, 'pass');
    assert.equal((await score(jsonSchema, { schema }, { output: 'not an address' })).status, 'fail');
  });

  it('follows references inside the schema: $defs and embedded $id', async () => {
    const defs = { $ref: '#/$defs/name', $defs: { name: { type: 'string' } } };
    assert.equal((await score(jsonSchema, { schema: defs }, { output: 'Ada' })).status, 'pass');
    const embedded = { $id: 'https://example.test/root', $ref: 'name', $defs: { n: { $id: 'name', type: 'string' } } };
    assert.equal((await score(jsonSchema, { schema: embedded }, { output: 3 })).status, 'fail');
  });

  it('accepts style ajv strict mode would flag: required without type, required inside anyOf', async () => {
    const schema = { required: ['a'], anyOf: [{ required: ['b'] }, { required: ['c'] }] };
    assert.equal((await score(jsonSchema, { schema }, { output: { a: 1, c: 2 } })).status, 'pass');
    assert.equal((await score(jsonSchema, { schema }, { output: { a: 1 } })).status, 'fail');
  });

  it('fails a case without an output', async () => {
    assert.equal((await score(jsonSchema, { schema: {} }, {})).status, 'fail');
  });

  it('validates the field picked with output_path', async () => {
    const v = await score(
      jsonSchema,
      { schema: person, output_path: 'result' },
      { output: { result: { name: 'Ada', age: 36 }, debug: 'x' } },
    );
    assert.equal(v.status, 'pass');
  });

  it('keeps values, and keys the schema does not declare, out of reasons; details keep ajv messages', async () => {
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' } },
      additionalProperties: { type: 'number' },
    };
    const v = await score(jsonSchema, { schema }, { output: { name: 'sk-live-123', 'user-ssn-078': 'x' } });
    assert.equal(v.status, 'fail');
    assert.match(v.reason, /\/\* type/);
    assert.doesNotMatch(v.reason, /sk-live|ssn|078/);
    const errors = v.details?.['errors'] as { instance_path: string; message: string }[];
    assert.equal(errors[0]?.instance_path, '/user-ssn-078');
    assert.equal(errors[0]?.message, 'must be number');
  });

  it('reads schema_path relative to the config folder', async () => {
    const made = jsonSchema.create(
      { schema_path: 'person.schema.json', parse_output: false },
      { engine: createEngineContext(), configDir: dir, timeoutMs: 30_000, env: {} },
    );
    assert.equal(made.ok, true);
    if (!made.ok) return;
    const v = await made.scorer.score(
      { case: { id: 'c' }, output: { name: 'Ada' }, expected: undefined },
      new AbortController().signal,
    );
    assert.equal(v.status, 'fail');
  });

  it('refuses a missing schema file, naming the path', () => {
    const issues = refusal(jsonSchema, { schema_path: join(dir, 'missing.json') });
    assert.deepEqual(issues[0]?.path, ['schema_path']);
    assert.match(issues[0]?.message ?? '', /missing\.json.*does not exist/);
  });

  it('refuses a schema file that is not valid JSON, or not an object', () => {
    assert.match(
      refusal(jsonSchema, { schema_path: join(dir, 'broken.json') })[0]?.message ?? '',
      /broken\.json.*not valid JSON/,
    );
    assert.match(
      refusal(jsonSchema, { schema_path: join(dir, 'list.json') })[0]?.message ?? '',
      /list\.json.*array.*not a JSON Schema object/,
    );
  });

  it('refuses a folder given as a schema file', () => {
    assert.match(refusal(jsonSchema, { schema_path: dir })[0]?.message ?? '', /is a folder/);
  });

  it('refuses an unknown keyword, naming it and where it is', () => {
    const issues = refusal(jsonSchema, {
      schema: { type: 'object', properties: { name: { type: 'string', maxLenght: 3 } } },
    });
    assert.deepEqual(issues[0]?.path, ['schema', 'properties', 'name', 'maxLenght']);
    assert.match(issues[0]?.message ?? '', /keyword "maxLenght".*does not support/);
  });

  it("places a schema the meta-schema refuses on the keyword it is about, in ajv's words", () => {
    const issues = refusal(jsonSchema, { schema: { type: 'object', properties: { age: { type: 12 } } } });
    assert.deepEqual(issues[0]?.path, ['schema', 'properties', 'age', 'type']);
    assert.match(issues[0]?.message ?? '', /schema is invalid: data\/properties\/age\/type must be/);
    // A pointer past what the schema has stops at the deepest part it does have.
    const required = refusal(jsonSchema, { schema: { type: 'object', required: 'name' } });
    assert.deepEqual(required[0]?.path, ['schema', 'required']);
  });

  it('refuses an unknown format', () => {
    const issues = refusal(jsonSchema, { schema: { type: 'string', format: 'colour' } });
    assert.deepEqual(issues[0]?.path, ['schema', 'format']);
    assert.match(issues[0]?.message ?? '', /format "colour"/);
  });

  it('refuses a schema that does not compile', () => {
    assert.match(refusal(jsonSchema, { schema: { type: 'strong' } })[0]?.message ?? '', /does not compile/);
  });

  it('refuses a $schema other than draft 2020-12', () => {
    const issues = refusal(jsonSchema, {
      schema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' },
    });
    assert.deepEqual(issues[0]?.path, ['schema', '$schema']);
    assert.match(issues[0]?.message ?? '', /only JSON Schema draft 2020-12/);
  });

  it('refuses $ref to anything outside the schema: a URL, another file, even the meta-schema', () => {
    for (const ref of [
      'https://example.com/person.json',
      'person.schema.json',
      'https://json-schema.org/draft/2020-12/schema',
    ]) {
      const issues = refusal(jsonSchema, { schema: { properties: { a: { $ref: ref } } } });
      assert.deepEqual(issues[0]?.path, ['schema', 'properties', 'a', '$ref']);
      assert.match(issues[0]?.message ?? '', /outside the schema itself.*nothing is fetched/);
    }
  });

  it('refuses a catastrophic pattern in the schema, quoting it', () => {
    const issues = refusal(jsonSchema, { schema: { type: 'string', pattern: '^(a|a)+$' } });
    assert.deepEqual(issues[0]?.path, ['schema', 'pattern']);
    assert.match(issues[0]?.message ?? '', /catastrophically.*exponential/);
    const keys = refusal(jsonSchema, { schema: { patternProperties: { '^(x+x+)+y$': {} } } });
    assert.deepEqual(keys[0]?.path, ['schema', 'patternProperties', '^(x+x+)+y$']);
  });

  it('refuses a schema pattern that does not compile with the u flag', () => {
    assert.match(refusal(jsonSchema, { schema: { pattern: '(' } })[0]?.message ?? '', /does not compile/);
  });

  it('interrupts a schema pattern recheck cannot decide and answers timeout', async () => {
    const schema = { type: 'string', pattern: '^(a|\\1a)+$' };
    assert.equal((await score(jsonSchema, { schema }, { output: 'aaa' })).status, 'pass');
    const v = await score(jsonSchema, { schema }, { output: `${'a'.repeat(40)}!` });
    assert.equal(v.status, 'timeout');
    assert.match(v.reason, /stopped at its 100 ms time limit/);
  });

  it('schema: needs exactly one of schema and schema_path', () => {
    assert.notDeepEqual(schemaErrors(jsonSchema, {}), []);
    assert.notDeepEqual(schemaErrors(jsonSchema, { schema: {}, schema_path: 'a.json' }), []);
    assert.deepEqual(schemaErrors(jsonSchema, { schema_path: 'a.json' }), []);
  });

  it('schema: rejects a schema that is not an object, an empty path and a non-boolean parse_output', () => {
    assert.notDeepEqual(schemaErrors(jsonSchema, { schema: 'person.json' }), []);
    assert.notDeepEqual(schemaErrors(jsonSchema, { schema_path: '' }), []);
    assert.notDeepEqual(schemaErrors(jsonSchema, { schema: {}, parse_output: 'yes' }), []);
  });
});
