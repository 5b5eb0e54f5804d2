import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResultStatus, ScorerResult } from '../../../core/result';
import { choose, trialCases, trialStats } from '../../../core/runner/trials';

const result = (trial: number, status: ResultStatus): ScorerResult => ({
  caseId: 'c',
  scorer: 's',
  trial,
  status,
  reason: 'r',
  durationMs: 0,
});

describe('trials', () => {
  it('scores the case as it is in every trial when it records no trials', () => {
    const c = { id: 'a', output: 'x' };
    const cases = trialCases(c, 3);
    assert.equal(cases.length, 3);
    for (const t of cases) assert.ok(t.ok && t.case === c);
  });

  it("takes each recorded trial's output, trace and error, falling back to the case's own", () => {
    const c = {
      id: 'a',
      output: 'base',
      trace: ['t__x'],
      trials: [{ output: 'one' }, { trace: ['t__y'], error: 'boom' }],
    };
    const [first, second] = trialCases(c, 2);
    assert.ok(first?.ok && second?.ok);
    assert.equal(first.case.output, 'one');
    assert.deepEqual(first.case.trace, ['t__x']);
    assert.equal(second.case.output, 'base');
    assert.deepEqual(second.case.trace, ['t__y']);
    assert.equal(second.error, 'boom');
  });

  it('makes a trial the recording lacks an error for that trial', () => {
    const [, second] = trialCases({ id: 'a', trials: [{ output: 'one' }] }, 2);
    assert.ok(second && !second.ok);
    assert.match(second.reason, /records 1 trial, and num_trials asks for 2/);
  });

  it('computes pass rate, pass@k and pass^k (n = 3, c = 2)', () => {
    const stats = trialStats([result(1, 'pass'), result(2, 'fail'), result(3, 'pass'), result(0, 'fail')], 3);
    assert.equal(stats.passed, 2);
    assert.equal(stats.passRate, 2 / 3);
    // pass@1 = 2/3; pass@2 = 1 − C(1,2)/C(3,2) = 1; pass@3 = 1.
    assert.deepEqual(
      stats.passAtK.map((v) => Number(v.toFixed(12))),
      [Number((2 / 3).toFixed(12)), 1, 1],
    );
    // pass^1 = 2/3; pass^2 = C(2,2)/C(3,2) = 1/3; pass^3 = 0.
    assert.equal(stats.passHatK[0], 2 / 3);
    assert.ok(Math.abs((stats.passHatK[1] ?? 0) - 1 / 3) < 1e-12);
    assert.equal(stats.passHatK[2], 0);
  });

  it('counts a trial as passed only when all its results passed or were measured', () => {
    const stats = trialStats(
      [result(1, 'pass'), result(1, 'measured'), result(2, 'pass'), result(2, 'inconclusive')],
      2,
    );
    assert.equal(stats.passed, 1);
  });

  it('computes binomial coefficients', () => {
    assert.equal(choose(5, 2), 10);
    assert.equal(choose(3, 4), 0);
    assert.equal(choose(4, 0), 1);
  });
});

describe('trial statistics at the cap', () => {
  it('agrees with the binomial definitions of pass@k and pass^k for every n up to 100 and every pass count', () => {
    for (const n of [1, 2, 5, 17, 100]) {
      for (let passed = 0; passed <= n; passed++) {
        const results = Array.from({ length: n }, (_, i) => result(i + 1, i < passed ? 'pass' : 'fail'));
        const stats = trialStats(results, n);
        assert.equal(stats.passed, passed);
        for (let k = 1; k <= n; k++) {
          const at = 1 - choose(n - passed, k) / choose(n, k);
          const hat = choose(passed, k) / choose(n, k);
          assert.ok(Math.abs((stats.passAtK[k - 1] ?? NaN) - at) < 1e-9, `pass@${k} n=${n} c=${passed}`);
          assert.ok(Math.abs((stats.passHatK[k - 1] ?? NaN) - hat) < 1e-9, `pass^${k} n=${n} c=${passed}`);
        }
      }
    }
  });

  it('ignores results of trials outside 1..n', () => {
    assert.equal(trialStats([result(0, 'fail'), result(1, 'pass'), result(7, 'fail')], 1).passed, 1);
  });
});
