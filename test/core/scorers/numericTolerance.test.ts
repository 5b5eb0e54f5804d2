import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { numericTolerance } from '../../../core/scorers/builtin/numericTolerance';
import { schemaErrors, score } from '../../support/scoring';

describe('numeric_tolerance', () => {
  it('passes a number within the absolute tolerance with score 1', async () => {
    const v = await score(numericTolerance, { absolute: 0.5 }, { output: 10.2, expected: 10 });
    assert.equal(v.status, 'pass');
    assert.equal(v.score, 1);
  });

  it('fails a number outside the absolute tolerance with score 0', async () => {
    const v = await score(numericTolerance, { absolute: 0.5 }, { output: 10.6, expected: 10 });
    assert.equal(v.status, 'fail');
    assert.equal(v.score, 0);
  });

  it('includes the absolute bound: a difference of exactly the tolerance passes, on either side', async () => {
    assert.equal((await score(numericTolerance, { absolute: 2 }, { output: 12, expected: 10 })).status, 'pass');
    assert.equal((await score(numericTolerance, { absolute: 2 }, { output: 8, expected: 10 })).status, 'pass');
    assert.equal((await score(numericTolerance, { absolute: 2 }, { output: 12.000001, expected: 10 })).status, 'fail');
  });

  it('includes the relative bound, taken against |expected|', async () => {
    assert.equal((await score(numericTolerance, { relative: 0.01 }, { output: 101, expected: 100 })).status, 'pass');
    assert.equal((await score(numericTolerance, { relative: 0.01 }, { output: -101, expected: -100 })).status, 'pass');
    assert.equal((await score(numericTolerance, { relative: 0.01 }, { output: 101.01, expected: 100 })).status, 'fail');
    // against the expected number, not max(|a|, |b|): 0.01 × 100 = 1 allows 99, not 98.99
    assert.equal((await score(numericTolerance, { relative: 0.01 }, { output: 98.99, expected: 100 })).status, 'fail');
  });

  it('counts a bound missed only by binary rounding as at the bound: 1.0 is within 0.1 of 1.1', async () => {
    assert.ok(1.1 - 1.0 > 0.1, 'the premise: the subtraction rounds above the tolerance');
    assert.equal((await score(numericTolerance, { absolute: 0.1 }, { output: 1.0, expected: 1.1 })).status, 'pass');
    assert.equal(
      (await score(numericTolerance, { absolute: 0.1 }, { output: 0.9999999, expected: 1.1 })).status,
      'fail',
    );
  });

  it('allows only the expected number itself under a relative tolerance when expected is 0', async () => {
    assert.equal((await score(numericTolerance, { relative: 0.5 }, { output: 0, expected: 0 })).status, 'pass');
    assert.equal((await score(numericTolerance, { relative: 0.5 }, { output: 1e-9, expected: 0 })).status, 'fail');
  });

  it('uses the larger bound when both absolute and relative are given', async () => {
    // absolute 1 vs relative 0.1 × 50 = 5: the bound is 5
    assert.equal(
      (await score(numericTolerance, { absolute: 1, relative: 0.1 }, { output: 55, expected: 50 })).status,
      'pass',
    );
    assert.equal(
      (await score(numericTolerance, { absolute: 1, relative: 0.1 }, { output: 55.5, expected: 50 })).status,
      'fail',
    );
    // absolute 1 vs relative 0.1 × 2 = 0.2: the bound is 1
    assert.equal(
      (await score(numericTolerance, { absolute: 1, relative: 0.1 }, { output: 3, expected: 2 })).status,
      'pass',
    );
  });

  it('puts the difference and the allowed bound in details, and no payload number in the reason', async () => {
    const v = await score(numericTolerance, { relative: 0.1 }, { output: 137.25, expected: 120 });
    assert.equal(v.status, 'fail');
    assert.deepEqual(v.details, { difference: 17.25, allowed: 12 });
    assert.doesNotMatch(v.reason, /137|120|17\.25|\b12\b/);
    assert.match(v.reason, /relative 0\.1/);
  });

  it('converts nothing: a numeric string output fails and names the kind it saw', async () => {
    const v = await score(numericTolerance, { absolute: 1 }, { output: '10', expected: 10 });
    assert.equal(v.status, 'fail');
    assert.match(v.reason, /the output is a string of 2 characters, not a number; nothing is converted/);
  });

  it('fails other wrong output kinds, naming each', async () => {
    assert.match(
      (await score(numericTolerance, { absolute: 1 }, { output: true, expected: 1 })).reason,
      /output is a boolean, not a number/,
    );
    assert.match(
      (await score(numericTolerance, { absolute: 1 }, { output: null, expected: 1 })).reason,
      /output is null, not a number/,
    );
    assert.match(
      (await score(numericTolerance, { absolute: 1 }, { output: [1], expected: 1 })).reason,
      /output is an array of 1 item, not a number/,
    );
    assert.equal((await score(numericTolerance, { absolute: 1 }, { output: { n: 1 }, expected: 1 })).status, 'fail');
  });

  it('fails a case without an output', async () => {
    assert.equal((await score(numericTolerance, { absolute: 1 }, { expected: 1 })).status, 'fail');
  });

  it('is an error when the expected value is missing', async () => {
    const v = await score(numericTolerance, { absolute: 1 }, { output: 1 });
    assert.equal(v.status, 'error');
    assert.match(v.reason, /no expected value/);
  });

  it('is an error when the expected value is not a number (a numeric string is not converted)', async () => {
    const v = await score(numericTolerance, { absolute: 1 }, { output: 1, expected: '1' });
    assert.equal(v.status, 'error');
    assert.match(v.reason, /expected value is a string of 1 character, not a number/);
    assert.equal((await score(numericTolerance, { absolute: 1 }, { output: 1, expected: null })).status, 'error');
  });

  it('uses an explicit value before the case expected', async () => {
    assert.equal(
      (await score(numericTolerance, { absolute: 0.01, value: 3.14 }, { output: 3.141, expected: 99 })).status,
      'pass',
    );
    assert.equal((await score(numericTolerance, { absolute: 0.01, value: 3.14 }, { output: 3.141 })).status, 'pass');
  });

  it('compares fields picked with output_path and expected_path', async () => {
    const v = await score(
      numericTolerance,
      { absolute: 0.5, output_path: 'result.total', expected_path: 'total' },
      { output: { result: { total: 41.6 } }, expected: { total: 42 } },
    );
    assert.equal(v.status, 'pass');
    const wrong = await score(
      numericTolerance,
      { absolute: 0.5, output_path: 'result.total' },
      { output: { result: { total: '42' } }, expected: 42 },
    );
    assert.equal(wrong.status, 'fail');
    assert.match(wrong.reason, /string/);
  });

  it('requires absolute or relative in the schema', () => {
    assert.notDeepEqual(schemaErrors(numericTolerance, {}), []);
    assert.notDeepEqual(schemaErrors(numericTolerance, { value: 1 }), []);
    assert.deepEqual(schemaErrors(numericTolerance, { absolute: 0 }), []);
    assert.deepEqual(schemaErrors(numericTolerance, { relative: 0.2 }), []);
  });

  it('rejects negative or non-number tolerances and a non-number value in the schema', () => {
    assert.notDeepEqual(schemaErrors(numericTolerance, { absolute: -0.1 }), []);
    assert.notDeepEqual(schemaErrors(numericTolerance, { relative: -1 }), []);
    assert.notDeepEqual(schemaErrors(numericTolerance, { absolute: '0.1' }), []);
    assert.notDeepEqual(schemaErrors(numericTolerance, { absolute: 1, value: '3' }), []);
    assert.notDeepEqual(schemaErrors(numericTolerance, { absolute: 1, tolerance: 2 }), []);
  });
});
