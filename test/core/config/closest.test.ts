import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { closestNames, didYouMean } from '../../../core/config/closest';

const KEYS = [
  'exact_match',
  'exact_match_consistency',
  'contains',
  'not_contains',
  'regex',
  'trajectory',
  'trajectory_matcher',
];

describe('suggestions for unknown names', () => {
  it('offers the near names, best first', () => {
    assert.deepEqual(closestNames('exact_matc', KEYS), ['exact_match']);
    assert.deepEqual(closestNames('contians', KEYS), ['contains']);
    assert.deepEqual(closestNames('Regex', KEYS), ['regex']);
  });

  it('falls back to names that contain the typo only when nothing is near', () => {
    assert.deepEqual(closestNames('matcher', KEYS), ['trajectory_matcher']);
  });

  it('offers nothing for an unrelated name', () => {
    assert.deepEqual(closestNames('banana', KEYS), []);
    assert.equal(didYouMean([]), '');
  });

  it('answers at once for a huge name (the fuzz test pasted 400 KB into a scorer key; the edit count took seconds)', () => {
    assert.deepEqual(closestNames('x'.repeat(400_000), KEYS), []);
    assert.deepEqual(closestNames(`contains${'x'.repeat(400_000)}`, KEYS), ['contains']);
  });

  it('words one or several suggestions', () => {
    assert.equal(didYouMean(['a']), '; did you mean "a"?');
    assert.equal(didYouMean(['a', 'b', 'c']), '; did you mean "a", "b" or "c"?');
  });
});
