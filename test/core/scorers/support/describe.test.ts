import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codePointLength, firstDifference, kindOf } from '../../../../core/scorers/support/describe';

describe('describing values without their content', () => {
  it('counts code points: a surrogate pair is one, a lone surrogate is one', () => {
    assert.equal(codePointLength('abc'), 3);
    assert.equal(codePointLength('a😀b'), 3);
    assert.equal(codePointLength('\ud83d'), 1);
    assert.equal(codePointLength('😀😀', 2), 1);
  });

  it('finds the first difference in code points', () => {
    assert.equal(firstDifference('same', 'same'), -1);
    assert.equal(firstDifference('abcX', 'abcY'), 3);
    assert.equal(firstDifference('ab', 'abc'), 2);
    assert.equal(firstDifference('😀X', '😀Y'), 1);
    assert.equal(firstDifference('a😀', 'a😁'), 1, 'pairs sharing a high surrogate differ at the pair');
    assert.equal(firstDifference('', 'x'), 0);
  });

  it('names kinds and lengths', () => {
    assert.equal(kindOf('h😀'), 'a string of 2 characters');
    assert.equal(kindOf([1]), 'an array of 1 item');
    assert.equal(kindOf(undefined), 'missing');
    assert.equal(kindOf({}), 'an object');
  });
});
