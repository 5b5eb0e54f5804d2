import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { caseSelector } from '../../../core/dataset/caseSelection';

describe('case selection', () => {
  it('matches globs over whole ids, with * and ?', () => {
    const select = caseSelector({ filter: 'refund-*' });
    assert.equal(select('refund-window'), true);
    assert.equal(select('sale-items'), false);
    assert.equal(caseSelector({ filter: 'c?' })('c1'), true);
    assert.equal(caseSelector({ filter: 'c?' })('c10'), false);
  });

  it('takes every other character literally, including regex syntax and slashes (brackets are fnmatch sets)', () => {
    for (const id of ['a.b', 'a+b', '(x)', 'q/1', 'x-y', 'a|b', '$^', 'back\\slash']) {
      assert.equal(caseSelector({ filter: id })(id), true, id);
    }
    assert.equal(caseSelector({ filter: 'a.b' })('axb'), false);
  });

  it('runs only the listed ids, and both conditions when both are given', () => {
    assert.equal(caseSelector({ ids: ['a', 'b'] })('b'), true);
    assert.equal(caseSelector({ ids: ['a', 'b'] })('c'), false);
    assert.equal(caseSelector({ ids: ['a1', 'b1'], filter: 'a*' })('b1'), false);
    assert.equal(caseSelector({})('anything'), true);
  });
});
