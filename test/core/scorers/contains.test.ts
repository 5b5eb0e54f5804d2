import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contains } from '../../../core/scorers/builtin/contains';
import { schemaErrors, score } from '../../support/scoring';

describe('contains', () => {
  it('passes with score 1 when every value appears (match: all, the default)', async () => {
    const v = await score(
      contains,
      { values: ['refund', 'order'] },
      { output: 'Your refund for order 7 is on its way.' },
    );
    assert.equal(v.status, 'pass');
    assert.equal(v.score, 1);
  });

  it('fails with score 0 when a value is missing, naming it by index and not by text', async () => {
    const v = await score(contains, { values: ['refund', 'voucher', 'order'] }, { output: 'Your refund for order 7.' });
    assert.equal(v.status, 'fail');
    assert.equal(v.score, 0);
    assert.match(v.reason, /value 2 of 3 is missing/);
    assert.doesNotMatch(v.reason, /voucher|refund|order 7/);
    assert.deepEqual(v.details?.['missing'], [{ value: 2, text: 'voucher' }]);
  });

  it('lists every missing value by index', async () => {
    const v = await score(contains, { values: ['a', 'b', 'c'] }, { output: 'b' });
    assert.match(v.reason, /values 1, 3 of 3 are missing/);
  });

  it('with match: any passes when one value appears and fails when none does', async () => {
    const pass = await score(contains, { values: ['cat', 'dog'], match: 'any' }, { output: 'a hot dog' });
    assert.equal(pass.status, 'pass');
    assert.match(pass.reason, /value 2 of 2 appears .* at character 7/);
    const fail = await score(contains, { values: ['cat', 'dog'], match: 'any' }, { output: 'a bird' });
    assert.equal(fail.status, 'fail');
    assert.match(fail.reason, /none of the 2 values/);
  });

  it('is case-sensitive by default', async () => {
    assert.equal((await score(contains, { value: 'Paris' }, { output: 'paris' })).status, 'fail');
  });

  it('compares Unicode lower case when case_sensitive is false', async () => {
    assert.equal(
      (await score(contains, { value: 'ÉCOLE', case_sensitive: false }, { output: 'une école' })).status,
      'pass',
    );
    assert.equal(
      (await score(contains, { value: 'ÉCOLE', case_sensitive: true }, { output: 'une école' })).status,
      'fail',
    );
  });

  it('does not normalize Unicode: a decomposed accent is a different text', async () => {
    assert.equal((await score(contains, { value: 'caf\u00e9' }, { output: 'cafe\u0301' })).status, 'fail');
  });

  it('uses the case expected string when neither value nor values is set', async () => {
    assert.equal((await score(contains, {}, { output: 'the capital is Oslo', expected: 'Oslo' })).status, 'pass');
    assert.equal((await score(contains, {}, { output: 'the capital is Bergen', expected: 'Oslo' })).status, 'fail');
  });

  it('uses the case expected list of strings', async () => {
    assert.equal((await score(contains, {}, { output: 'red and blue', expected: ['red', 'blue'] })).status, 'pass');
    assert.equal(
      (await score(contains, { match: 'any' }, { output: 'red', expected: ['green', 'red'] })).status,
      'pass',
    );
  });

  it('uses the options before the case expected value', async () => {
    assert.equal((await score(contains, { value: 'yes' }, { output: 'yes', expected: 'no' })).status, 'pass');
  });

  it('is an error when there is no value and no expected value', async () => {
    const v = await score(contains, {}, { output: 'x' });
    assert.equal(v.status, 'error');
    assert.equal(v.score, undefined);
  });

  it('is an error when the expected value is not a string or list of strings', async () => {
    const number = await score(contains, {}, { output: '42', expected: 42 });
    assert.equal(number.status, 'error');
    assert.match(number.reason, /expected value is a number/);
    assert.equal((await score(contains, {}, { output: 'x', expected: { a: 'x' } })).status, 'error');
  });

  it('is an error when an item of the expected list is not a string', async () => {
    const v = await score(contains, {}, { output: 'a 1', expected: ['a', 1] });
    assert.equal(v.status, 'error');
    assert.match(v.reason, /item 2 of 2 .* is a number/);
  });

  it('is an error when the expected value is an empty string, or a list that is empty or holds one', async () => {
    assert.equal((await score(contains, {}, { output: 'x', expected: '' })).status, 'error');
    assert.equal((await score(contains, {}, { output: 'x', expected: [] })).status, 'error');
    assert.equal((await score(contains, {}, { output: 'x', expected: ['x', ''] })).status, 'error');
  });

  it('converts nothing: a number output fails and names the kind it saw', async () => {
    const v = await score(contains, { value: '4' }, { output: 42 });
    assert.equal(v.status, 'fail');
    assert.match(v.reason, /the output is a number, not a string; nothing is converted/);
  });

  it('fails an object output, naming its kind, and a case without an output', async () => {
    assert.match(
      (await score(contains, { value: 'a' }, { output: { a: 'a' } })).reason,
      /output is an object, not a string/,
    );
    assert.equal((await score(contains, { value: 'a' }, {})).status, 'fail');
  });

  it('looks in the field picked with output_path, and the list picked with expected_path', async () => {
    const v = await score(
      contains,
      { output_path: 'answer.text', expected_path: 'must' },
      { output: { answer: { text: 'Oslo, Norway' } }, expected: { must: ['Oslo'] } },
    );
    assert.equal(v.status, 'pass');
  });

  it('keeps payload text out of reasons, pass or fail', async () => {
    const secret = 'sk-live-4f9Q';
    const failed = await score(contains, { values: [secret, 'token-XYZ'] }, { output: `key ${secret} here` });
    const passed = await score(contains, { value: secret }, { output: `key ${secret} here` });
    for (const v of [failed, passed]) {
      assert.doesNotMatch(v.reason, /sk-live|4f9Q|token-XYZ|key|here/);
    }
    assert.match(passed.reason, /at character 5/);
  });

  it('schema: rejects an empty value, an empty list, an empty string in the list and both value and values', () => {
    assert.notDeepEqual(schemaErrors(contains, { value: '' }), []);
    assert.notDeepEqual(schemaErrors(contains, { values: [] }), []);
    assert.notDeepEqual(schemaErrors(contains, { values: ['a', ''] }), []);
    assert.notDeepEqual(schemaErrors(contains, { value: 'a', values: ['b'] }), []);
    assert.deepEqual(schemaErrors(contains, { values: ['b'] }), []);
  });

  it('schema: rejects an unknown match, a non-boolean case_sensitive and a non-string value', () => {
    assert.notDeepEqual(schemaErrors(contains, { match: 'some' }), []);
    assert.notDeepEqual(schemaErrors(contains, { case_sensitive: 'no' }), []);
    assert.notDeepEqual(schemaErrors(contains, { values: [1] }), []);
  });
});
