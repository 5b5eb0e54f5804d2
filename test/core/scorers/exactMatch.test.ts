import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exactMatch } from '../../../core/scorers/builtin/exactMatch';
import { score } from '../../support/scoring';

describe('exact_match', () => {
  it('passes equal texts with score 1', async () => {
    const v = await score(exactMatch, {}, { output: 'Paris', expected: 'Paris' });
    assert.equal(v.status, 'pass');
    assert.equal(v.score, 1);
  });

  it('compares text exactly by default: case and white space matter', async () => {
    assert.equal((await score(exactMatch, {}, { output: 'paris ', expected: 'Paris' })).status, 'fail');
  });

  it('says where two texts first differ, without quoting them', async () => {
    const v = await score(exactMatch, {}, { output: 'secret-ABC', expected: 'secret-XYZ' });
    assert.equal(v.status, 'fail');
    assert.match(v.reason, /at character 8/);
    assert.doesNotMatch(v.reason, /ABC|XYZ/);
    assert.deepEqual(v.details, { actual: 'secret-ABC', expected: 'secret-XYZ' });
  });

  it('applies trim, collapse_whitespace, ignore_case and unicode_nfc when asked', async () => {
    const options = { trim: true, collapse_whitespace: true, ignore_case: true, unicode_nfc: true };
    const v = await score(exactMatch, options, { output: '  Cafe\u0301   AU  lait ', expected: 'caf\u00e9 au lait' });
    assert.equal(v.status, 'pass');
  });

  it('leaves Unicode forms apart unless unicode_nfc is on', async () => {
    assert.equal((await score(exactMatch, {}, { output: 'Cafe\u0301', expected: 'Caf\u00e9' })).status, 'fail');
  });

  it('compares non-string expected values as canonical JSON: 1.0 equals 1 and key order is ignored', async () => {
    const v = await score(
      exactMatch,
      { mode: 'json' },
      { output: '{"b": [1.0, 2], "a": 1e0}', expected: { a: 1, b: [1, 2] } },
    );
    assert.equal(v.status, 'pass');
  });

  it('compares objects against objects without a mode', async () => {
    assert.equal((await score(exactMatch, {}, { output: { x: 1, y: 2 }, expected: { y: 2, x: 1 } })).status, 'pass');
    assert.equal((await score(exactMatch, {}, { output: { x: 1 }, expected: { x: 2 } })).status, 'fail');
  });

  it('converts nothing: a number output against a string expected fails and names the kind it saw', async () => {
    const v = await score(exactMatch, {}, { output: 42, expected: '42' });
    assert.equal(v.status, 'fail');
    assert.match(v.reason, /output is a number, not a string/);
  });

  it('converts nothing: a JSON-looking string against an object fails in auto mode', async () => {
    const v = await score(exactMatch, {}, { output: '{"x":1}', expected: { x: 1 } });
    assert.equal(v.status, 'fail');
    assert.match(v.reason, /nothing is converted/);
  });

  it('fails an output that is not JSON text in json mode', async () => {
    assert.equal(
      (await score(exactMatch, { mode: 'json' }, { output: 'not json', expected: { x: 1 } })).status,
      'fail',
    );
  });

  it('is an error when the expected value is missing', async () => {
    const v = await score(exactMatch, {}, { output: 'x' });
    assert.equal(v.status, 'error');
  });

  it('is an error when text mode gets a non-string expected value', async () => {
    const v = await score(exactMatch, { mode: 'text' }, { output: '1', expected: 1 });
    assert.equal(v.status, 'error');
  });

  it('uses an explicit value before the case expected', async () => {
    assert.equal((await score(exactMatch, { value: 'yes' }, { output: 'yes', expected: 'no' })).status, 'pass');
  });

  it('compares a field picked with output_path and expected_path', async () => {
    const v = await score(
      exactMatch,
      { output_path: 'answer.city', expected_path: 'city' },
      { output: { answer: { city: 'Oslo' } }, expected: { city: 'Oslo' } },
    );
    assert.equal(v.status, 'pass');
  });

  it('fails when output_path is missing from the output, errors when expected_path is missing from expected', async () => {
    assert.equal(
      (await score(exactMatch, { output_path: 'answer' }, { output: { other: 1 }, expected: 1 })).status,
      'fail',
    );
    assert.equal(
      (await score(exactMatch, { expected_path: 'answer' }, { output: 1, expected: { other: 1 } })).status,
      'error',
    );
  });
});
