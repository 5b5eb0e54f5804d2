import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requiredFields } from '../../../core/scorers/builtin/requiredFields';
import { refusal, schemaErrors, score } from '../../support/scoring';

const order = {
  id: 1042,
  customer: { name: 'Ada Lovelace', email: null },
  items: [{ sku: 'A-1', qty: 2, price: 9.5 }],
  paid: true,
  notes: 'leave at the door',
};

describe('required_fields', () => {
  it('passes when every field is present with its type, score 1 and satisfied/total in details', async () => {
    const v = await score(
      requiredFields,
      {
        fields: [
          { path: 'id', type: 'integer' },
          { path: 'customer.name', type: 'string' },
          { path: 'items[0].qty', type: 'number' },
          { path: 'items', type: 'array' },
          { path: 'customer', type: 'object' },
          { path: 'paid', type: 'boolean' },
        ],
      },
      { output: order },
    );
    assert.equal(v.status, 'pass');
    assert.equal(v.score, 1);
    assert.equal(v.details?.['satisfied'], 6);
    assert.equal(v.details?.['total'], 6);
  });

  it('is binary: one unsatisfied field of three fails with score 0 and details 2/3', async () => {
    const v = await score(
      requiredFields,
      {
        fields: [
          { path: 'id', type: 'integer' },
          { path: 'paid', type: 'boolean' },
          { path: 'shipping.address', type: 'string' },
        ],
      },
      { output: order },
    );
    assert.equal(v.status, 'fail');
    assert.equal(v.score, 0);
    assert.equal(v.details?.['satisfied'], 2);
    assert.equal(v.details?.['total'], 3);
    assert.match(v.reason, /1 of 3 required fields is not satisfied: `shipping\.address` is missing/);
  });

  it('names the failing path and the kind seen, never the value', async () => {
    const v = await score(
      requiredFields,
      {
        fields: [
          { path: 'notes', type: 'integer' },
          { path: 'customer.name', type: ['number', 'null'] },
        ],
      },
      { output: order },
    );
    assert.equal(v.status, 'fail');
    assert.match(v.reason, /`notes` is a string of 17 characters, not integer/);
    assert.match(v.reason, /`customer\.name` is a string of 12 characters, not number or null/);
    assert.doesNotMatch(v.reason, /leave at the door|Ada|Lovelace/);
    assert.doesNotMatch(JSON.stringify(v.details), /leave at the door|Ada|Lovelace/);
  });

  it('treats integer as a number with no fractional part, and says so when it has one', async () => {
    assert.equal(
      (await score(requiredFields, { fields: [{ path: 'n', type: 'integer' }] }, { output: { n: 150 } })).status,
      'pass',
    );
    // JSON cannot tell 150.0 from 150: the parsed value is the integer 150
    assert.equal(
      (
        await score(
          requiredFields,
          { fields: [{ path: 'n', type: 'integer' }] },
          { output: JSON.parse('{"n": 150.0}') as { n: number } },
        )
      ).status,
      'pass',
    );
    const v = await score(requiredFields, { fields: [{ path: 'n', type: 'integer' }] }, { output: { n: 1.5 } });
    assert.equal(v.status, 'fail');
    assert.match(v.reason, /`n` is a number with a fractional part, not integer/);
    assert.doesNotMatch(v.reason, /1\.5/);
  });

  it('accepts integers as number', async () => {
    assert.equal(
      (await score(requiredFields, { fields: [{ path: 'n', type: 'number' }] }, { output: { n: 3 } })).status,
      'pass',
    );
  });

  it('lets null satisfy only a type list that includes null, or any', async () => {
    assert.equal(
      (await score(requiredFields, { fields: [{ path: 'customer.email', type: 'string' }] }, { output: order })).status,
      'fail',
    );
    assert.equal(
      (await score(requiredFields, { fields: [{ path: 'customer.email', type: 'object' }] }, { output: order })).status,
      'fail',
    );
    assert.equal(
      (
        await score(
          requiredFields,
          { fields: [{ path: 'customer.email', type: ['string', 'null'] }] },
          { output: order },
        )
      ).status,
      'pass',
    );
    assert.equal(
      (await score(requiredFields, { fields: [{ path: 'customer.email', type: 'null' }] }, { output: order })).status,
      'pass',
    );
    assert.equal(
      (await score(requiredFields, { fields: [{ path: 'customer.email', type: 'any' }] }, { output: order })).status,
      'pass',
    );
    const v = await score(requiredFields, { fields: [{ path: 'customer.email', type: 'string' }] }, { output: order });
    assert.match(v.reason, /`customer\.email` is null, not string/);
  });

  it('defaults type to any, which a missing field still fails', async () => {
    assert.equal(
      (await score(requiredFields, { fields: [{ path: 'customer.email' }] }, { output: order })).status,
      'pass',
    );
    assert.equal(
      (await score(requiredFields, { fields: [{ path: 'customer.phone' }] }, { output: order })).status,
      'fail',
    );
  });

  it('does not count arrays or null as object', async () => {
    assert.equal(
      (await score(requiredFields, { fields: [{ path: 'items', type: 'object' }] }, { output: order })).status,
      'fail',
    );
  });

  it('converts nothing: a numeric string is not a number', async () => {
    assert.equal(
      (await score(requiredFields, { fields: [{ path: 'n', type: 'number' }] }, { output: { n: '42' } })).status,
      'fail',
    );
  });

  it('fails an output that is not an object, naming the kind', async () => {
    const fields = [{ path: 'id', type: 'integer' }];
    const text = await score(requiredFields, { fields }, { output: '{"id": 1}' });
    assert.equal(text.status, 'fail');
    assert.match(text.reason, /the output is a string of 9 characters, not an object; nothing is converted/);
    assert.match(
      (await score(requiredFields, { fields }, { output: [1, 2] })).reason,
      /the output is an array of 2 items, not an object/,
    );
    assert.match(
      (await score(requiredFields, { fields }, { output: null })).reason,
      /the output is null, not an object/,
    );
    assert.equal((await score(requiredFields, { fields }, {})).status, 'fail');
  });

  it('checks the object picked with output_path', async () => {
    const v = await score(
      requiredFields,
      {
        output_path: 'items[0]',
        fields: [
          { path: 'sku', type: 'string' },
          { path: 'price', type: 'number' },
        ],
      },
      { output: order },
    );
    assert.equal(v.status, 'pass');
  });

  it('names at most five failing paths and counts the rest', async () => {
    const fields = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((path) => ({ path, type: 'string' }));
    const v = await score(requiredFields, { fields }, { output: {} });
    assert.match(v.reason, /7 of 7 required fields are not satisfied: .*`e` is missing; and 2 more$/);
    assert.doesNotMatch(v.reason, /`f`/);
  });

  it('refuses a malformed path when the config loads, naming its index', () => {
    const issues = refusal(requiredFields, {
      fields: [
        { path: 'ok', type: 'string' },
        { path: 'items[x]', type: 'string' },
      ],
    });
    assert.equal(issues.length, 1);
    assert.deepEqual(issues[0]?.path, ['fields', 1, 'path']);
    assert.match(issues[0]?.message ?? '', /field 2: the field path "items\[x\]" is malformed at character 6/);
  });

  it('rejects in the schema: no fields, an empty list, an unknown type, a duplicate in a type list, an empty path, an unknown key', () => {
    assert.notDeepEqual(schemaErrors(requiredFields, {}), []);
    assert.notDeepEqual(schemaErrors(requiredFields, { fields: [] }), []);
    assert.notDeepEqual(schemaErrors(requiredFields, { fields: [{ path: 'a', type: 'float' }] }), []);
    assert.notDeepEqual(schemaErrors(requiredFields, { fields: [{ path: 'a', type: ['string', 'string'] }] }), []);
    assert.notDeepEqual(schemaErrors(requiredFields, { fields: [{ path: 'a', type: [] }] }), []);
    assert.notDeepEqual(schemaErrors(requiredFields, { fields: [{ path: '', type: 'string' }] }), []);
    assert.notDeepEqual(schemaErrors(requiredFields, { fields: [{ path: 'a', type: 'string', optional: true }] }), []);
    assert.notDeepEqual(schemaErrors(requiredFields, { fields: ['a'] }), []);
    assert.deepEqual(schemaErrors(requiredFields, { fields: [{ path: 'a', type: ['string', 'null'] }] }), []);
  });
});
