import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CollectedRun } from '../../../core/compare/collectRun';
import { compareRuns } from '../../../core/compare/compareRuns';

function close(actual: number | null, expected: number, tolerance = 1e-6): void {
  assert.ok(actual !== null && Math.abs(actual - expected) <= tolerance, `${actual} is not ${expected} ± ${tolerance}`);
}

/** A run of one score-only scorer (`latency`-like: no pass decision), one case per score list. */
function scoreRun(scores: readonly (readonly number[])[]): CollectedRun {
  const run = new CollectedRun(['quality']);
  scores.forEach((trials, i) => {
    run.addCase({ id: `c${i}`, status: 'passed' });
    for (const score of trials) run.addResult({ caseId: `c${i}`, scorer: 'quality', score });
  });
  return run;
}

describe('compareRuns', () => {
  it('compares a score-only scorer with the paired t test, worked by hand', () => {
    // d = +0.1 on nine cases, −0.1 on one: d̄ = 0.08, Σ(d − d̄)² = 9·0.02² + 0.18² = 0.036,
    // s_d² = 0.036/9 = 0.004, SE = √0.004/√10 = 0.02, t = 4 with 9 df.
    // scipy: 2*stats.t.sf(4, 9) = 0.0031104283; stats.t.ppf(0.975, 9) = 2.262157163.
    const baseline = scoreRun(Array.from({ length: 10 }, () => [0.5]));
    const candidate = scoreRun(Array.from({ length: 10 }, (_, i) => [i === 9 ? 0.4 : 0.6]));
    const side = [{ name: 'quality', lowerIsBetter: false }];
    const [row] = compareRuns(baseline, candidate, side, side).scorers;
    assert.ok(row !== undefined);
    assert.equal(row.test, 'paired_t');
    assert.equal(row.measure, 'score');
    close(row.delta.mean, 0.08, 1e-12);
    close(row.delta.stderr, 0.02, 1e-12);
    close(row.delta.ci_low, 0.08 - 2.262157163 * 0.02);
    close(row.delta.ci_high, 0.08 + 2.262157163 * 0.02);
    close(row.p_value_raw, 0.0031104283);
    close(row.p_value, 0.0031104283);
    assert.equal(row.verdict, 'improved');
    // The baseline: every score 0.5, so its mean is 0.5 with no spread; the candidate's mean 5.8/10.
    close(row.baseline.mean, 0.5, 1e-12);
    close(row.candidate.mean, 0.58, 1e-12);
    assert.equal(row.candidate.n, 10);
  });

  it('makes a rise of a lower-is-better score the regression', () => {
    const baseline = scoreRun(Array.from({ length: 10 }, () => [0.5]));
    const candidate = scoreRun(Array.from({ length: 10 }, (_, i) => [i === 9 ? 0.4 : 0.6]));
    const side = [{ name: 'quality', lowerIsBetter: true }];
    assert.equal(compareRuns(baseline, candidate, side, side).scorers[0]?.verdict, 'regressed');
  });

  it("averages a case's trials first: the case is the unit", () => {
    // Trials (0.4, 0.8) average 0.6: the same comparison as above, case for case.
    const baseline = scoreRun(Array.from({ length: 10 }, () => [0.3, 0.7]));
    const candidate = scoreRun(Array.from({ length: 10 }, (_, i) => (i === 9 ? [0.4] : [0.4, 0.8])));
    const side = [{ name: 'quality', lowerIsBetter: false }];
    const [row] = compareRuns(baseline, candidate, side, side).scorers;
    close(row?.delta.mean ?? null, 0.08, 1e-12);
    close(row?.p_value_raw ?? null, 0.0031104283);
  });

  it('says not enough data under 10 shared cases, and lists added and removed cases apart', () => {
    const baseline = scoreRun([[1], [1], [0]]);
    const candidate = new CollectedRun(['quality']);
    candidate.addCase({ id: 'c0', status: 'passed' });
    candidate.addResult({ caseId: 'c0', scorer: 'quality', score: 0 });
    candidate.addCase({ id: 'new', status: 'failed' });
    const side = [{ name: 'quality', lowerIsBetter: false }];
    const comparison = compareRuns(baseline, candidate, side, [...side, { name: 'extra', lowerIsBetter: false }]);
    assert.equal(comparison.scorers[0]?.verdict, 'not enough data');
    assert.deepEqual(comparison.onlyInCandidate, ['extra']);
    assert.deepEqual(
      [...comparison.cases()],
      [
        { id: 'c0', transition: 'unchanged_pass' },
        { id: 'c1', transition: 'removed' },
        { id: 'c2', transition: 'removed' },
        { id: 'new', transition: 'added' },
      ],
    );
  });

  it('holds many cases in typed arrays that grow (past the first 1024 slots)', () => {
    const run = new CollectedRun(['a', 'b']);
    for (let i = 0; i < 3000; i++) {
      run.addCase({ id: `c${i}`, status: i % 2 === 0 ? 'passed' : 'failed' });
      run.addResult({ caseId: `c${i}`, scorer: 'b', score: i, passed: i % 3 === 0 });
    }
    const slot = run.caseSlot.get('c2999') ?? -1;
    assert.deepEqual(run.scores(slot, 1), { sum: 2999, count: 1 });
    assert.equal(run.passedScorer(slot, 1), false);
    assert.equal(run.passedScorer(run.caseSlot.get('c2997') ?? -1, 1), true);
    assert.equal(run.casePassed(run.caseSlot.get('c2') ?? -1), true);
    assert.equal(run.casePassed(slot), false);
  });
  it('moves a collected run between threads as data without changing the comparison', () => {
    // compare reads the candidate on a worker thread (cli/compareSideWorker.ts), which sends its run as data.
    const baseline = scoreRun(Array.from({ length: 12 }, (_, i) => [0.5, i % 3 === 0 ? 0.3 : 0.5]));
    const candidate = scoreRun(Array.from({ length: 12 }, (_, i) => [i % 2 === 0 ? 0.7 : 0.6]));
    candidate.addCase({ id: 'only-here', status: 'failed', fingerprint: '0123456789abcdef' });
    const moved = CollectedRun.fromData(structuredClone(candidate.toData()));
    const side = [{ name: 'quality', lowerIsBetter: false }];
    const direct = compareRuns(baseline, candidate, side, side);
    const viaData = compareRuns(baseline, moved, side, side);
    assert.deepEqual(viaData.scorers, direct.scorers);
    assert.deepEqual(viaData.counts, direct.counts);
    assert.deepEqual([...viaData.cases()], [...direct.cases()]);
    assert.equal(moved.casePassed(moved.caseSlot.get('only-here') ?? -1), false);
    assert.equal(moved.fingerprint(moved.caseSlot.get('only-here') ?? -1), '0123456789abcdef');
  });
});
