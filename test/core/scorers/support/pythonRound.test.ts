import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codePointLength, pythonRound, pythonRound2 } from '../../../../core/scorers/support/pythonRound';

// Expected values are what CPython 3 prints for round(x) and round(x, 2).
describe("Python rounding as EvalBench's scorers use it", () => {
  it('round(x) takes halfway values to the even integer', () => {
    assert.deepEqual([0.5, 1.5, 2.5, 3.5, 30.5, -0.5, -1.5, -2.5].map(pythonRound), [0, 2, 2, 4, 30, 0, -2, -2]);
    assert.deepEqual([0.25, 0.75, 150.75, 2.4999].map(pythonRound), [0, 1, 151, 2]);
  });

  it('round(x, 2) takes exact halfway doubles to the even hundredth and rounds the rest as their exact value says', () => {
    // 0.125, 0.375, 2.675 (really 2.67499999…), 1.005 (really 1.00499999…), 100.665 (really 100.6650000…01).
    assert.deepEqual(
      [0.125, 0.375, 0.625, 0.875, 2.675, 1.005, 100.665].map(pythonRound2),
      [0.12, 0.38, 0.62, 0.88, 2.67, 1, 100.67],
    );
    assert.deepEqual([100.66666666666667, 75.5, 0, 1.6].map(pythonRound2), [100.67, 75.5, 0, 1.6]);
  });

  it('len() counts code points', () => {
    assert.equal(codePointLength('🎉🎉🎉🎉'), 4);
    assert.equal(codePointLength('—Ü'), 2);
  });
});
