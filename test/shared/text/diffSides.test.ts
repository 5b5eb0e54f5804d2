import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffSides } from '../../../shared/text/diffSides';

describe('diffSides: like with like, or no diff', () => {
  it('diffs the texts exact_match and edit_similarity compared', () => {
    assert.deepEqual(diffSides('exact_match', { expected: 'Sale items: 30 days.', actual: 'Sale items.' }), {
      expected: 'Sale items: 30 days.',
      actual: 'Sale items.',
    });
    assert.deepEqual(diffSides('edit_similarity', { expected: 'a', actual: 'b', similarity: 0 }), {
      expected: 'a',
      actual: 'b',
    });
  });

  it('diffs two JSON texts of alike values, indented', () => {
    assert.deepEqual(diffSides('exact_match', { expected: '{"amount":45}', actual: '{"amount":450}' }), {
      expected: '{\n  "amount": 45\n}',
      actual: '{\n  "amount": 450\n}',
    });
  });

  it("leaves out an agent case's whole expected object against its whole output object", () => {
    const expected = JSON.stringify({
      trajectory: ['crm__lookup_customer', 'billing__refund'],
      skills: ['refund-policy'],
      relevant_ids: ['kb-101'],
    });
    const actual = JSON.stringify({ action: 'refund', amount: 450, currency: 'USD' });
    assert.equal(diffSides('exact_match', { expected, actual }), undefined);
    assert.equal(diffSides('exact_match', { expected: '["a"]', actual: '{"a":1}' }), undefined);
  });

  it('diffs tool sequences with tool sequences, one tool a line', () => {
    assert.deepEqual(
      diffSides('trajectory_matcher', {
        rule: 'jaccard',
        expected: ['crm__lookup_customer', 'billing__refund'],
        actual: ['billing__refund'],
        missing: ['crm__lookup_customer'],
      }),
      {
        expected: 'crm__lookup_customer\nbilling__refund',
        actual: 'billing__refund',
      },
    );
    assert.deepEqual(diffSides('execution_order', { mode: 'ordering', expected: ['a', 'b'], called: ['b', 'a'] }), {
      expected: 'a\nb',
      actual: 'b\na',
    });
    assert.deepEqual(diffSides('skills_trajectory', { expected: ['refund-policy'], actual: [] }), {
      expected: 'refund-policy',
      actual: '',
    });
  });

  it('gives no diff to a scorer whose sides are not sequences or texts of one kind', () => {
    assert.equal(diffSides('trajectory_matcher', { expected: 'a', actual: ['a'] }), undefined);
    assert.equal(diffSides('tool_call_match', { tool: 'billing__refund', calls: [] }), undefined);
    assert.equal(diffSides('custom', { expected: 'text', actual: { a: 1 } }), undefined);
    assert.equal(diffSides('custom', { expected: { a: 1 }, actual: { b: 1 } }), undefined);
    assert.equal(diffSides('exact_match', { expected: 'a' }), undefined);
    assert.equal(diffSides('exact_match', undefined), undefined);
  });

  it("diffs a custom scorer's expected and actual when they are alike", () => {
    assert.deepEqual(diffSides(undefined, { expected: 'x', actual: 'y' }), { expected: 'x', actual: 'y' });
    assert.deepEqual(diffSides('python_scorer', { expected: { a: 1, b: 2 }, actual: { a: 2 } }), {
      expected: '{\n  "a": 1,\n  "b": 2\n}',
      actual: '{\n  "a": 2\n}',
    });
    assert.deepEqual(diffSides('python_scorer', { expected: 4, actual: 5 }), { expected: '4', actual: '5' });
  });
});
