import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { notContains } from '../../../core/scorers/builtin/notContains';
import { schemaErrors, score } from '../../support/scoring';

describe('not_contains', () => {
  it('passes with score 1 when none of the values appears', async () => {
    const v = await score(notContains, { values: ['As an AI', 'I cannot'] }, { output: 'Here is the answer.' });
    assert.equal(v.status, 'pass');
    assert.equal(v.score, 1);
  });

  it('fails with score 0 when any one value appears, naming it by index and position, not by text', async () => {
    const v = await score(
      notContains,
      { values: ['password', 'hunter2', 'token'] },
      { output: 'the password is hunter2' },
    );
    assert.equal(v.status, 'fail');
    assert.equal(v.score, 0);
    assert.match(v.reason, /values 1, 2 of 3 appear .* at characters 5, 17/);
    assert.doesNotMatch(v.reason, /password|hunter2/);
    assert.deepEqual(v.details?.['present'], [
      { value: 1, text: 'password', at: 5 },
      { value: 2, text: 'hunter2', at: 17 },
    ]);
  });

  it('fails when one of several values appears, even though the others do not', async () => {
    const v = await score(notContains, { values: ['a', 'b', 'c'] }, { output: 'xbx' });
    assert.equal(v.status, 'fail');
    assert.match(v.reason, /value 2 of 3 appears/);
  });

  it('is case-sensitive by default and compares Unicode lower case when case_sensitive is false', async () => {
    assert.equal((await score(notContains, { value: 'SECRET' }, { output: 'a secret' })).status, 'pass');
    assert.equal(
      (await score(notContains, { value: 'SECRET', case_sensitive: false }, { output: 'a secret' })).status,
      'fail',
    );
    assert.equal(
      (await score(notContains, { value: 'STRASSE', case_sensitive: false }, { output: 'straße' })).status,
      'pass',
    );
  });

  it('uses the case expected value (a string or a list of strings) when no value is set', async () => {
    assert.equal((await score(notContains, {}, { output: 'fine', expected: 'bad' })).status, 'pass');
    assert.equal((await score(notContains, {}, { output: 'so bad', expected: ['worse', 'bad'] })).status, 'fail');
  });

  it('is an error when there is no value and no expected value', async () => {
    assert.equal((await score(notContains, {}, { output: 'x' })).status, 'error');
  });

  it('is an error when the expected value has the wrong type, never a pass', async () => {
    const v = await score(notContains, {}, { output: 'anything', expected: true });
    assert.equal(v.status, 'error');
    assert.match(v.reason, /expected value is a boolean/);
    assert.equal((await score(notContains, {}, { output: 'x', expected: ['a', null] })).status, 'error');
  });

  it('is an error when the expected value is an empty string or an empty list', async () => {
    assert.equal((await score(notContains, {}, { output: 'x', expected: '' })).status, 'error');
    assert.equal((await score(notContains, {}, { output: 'x', expected: [] })).status, 'error');
  });

  it('converts nothing: a non-string output fails and names the kind it saw', async () => {
    const v = await score(notContains, { value: '7' }, { output: 42 });
    assert.equal(v.status, 'fail');
    assert.match(v.reason, /the output is a number, not a string; nothing is converted/);
    assert.match(
      (await score(notContains, { value: 'x' }, { output: ['y'] })).reason,
      /output is an array of 1 item, not a string/,
    );
  });

  it('fails a case without an output', async () => {
    assert.equal((await score(notContains, { value: 'x' }, {})).status, 'fail');
  });

  it('looks in the field picked with output_path', async () => {
    const options = { value: 'internal', output_path: 'reply' };
    assert.equal(
      (await score(notContains, options, { output: { reply: 'public text', notes: 'internal' } })).status,
      'pass',
    );
    assert.equal((await score(notContains, options, { output: { reply: 'internal text' } })).status, 'fail');
  });

  it('keeps payload text out of reasons', async () => {
    const v = await score(notContains, {}, { output: 'leaked AKIA1234 here', expected: ['AKIA1234'] });
    assert.equal(v.status, 'fail');
    assert.doesNotMatch(v.reason, /AKIA|leaked|here/);
  });

  it('schema: has no match option (not_contains always means none of them)', () => {
    assert.notDeepEqual(schemaErrors(notContains, { values: ['a'], match: 'any' }), []);
  });

  it('schema: rejects empty texts, an empty list and both value and values', () => {
    assert.notDeepEqual(schemaErrors(notContains, { value: '' }), []);
    assert.notDeepEqual(schemaErrors(notContains, { values: [] }), []);
    assert.notDeepEqual(schemaErrors(notContains, { value: 'a', values: ['b'] }), []);
    assert.deepEqual(schemaErrors(notContains, { value: 'a' }), []);
  });
});
