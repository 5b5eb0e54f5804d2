/**
 * Error bars as figures: where the mean and the interval sit on the scorer's scale, when a bar is too
 * wide to mean anything and what its tooltip says. Expected values are worked by hand in each test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ScorerAggregate } from '../../core/report/report';
import { along, deltaBar, meanBar, passRateBar, sharedAxis, sideBar } from '../../webview/model/errorBars';

const NO_COUNTS = { pass: 0, fail: 0, error: 0, inconclusive: 0, unsupported: 0, timeout: 0, skipped: 0, measured: 0 };

function aggregate(fields: Partial<ScorerAggregate>): ScorerAggregate {
  return {
    name: 'contains',
    key: 'contains',
    origin: 'EvalBook',
    scale: { kind: 'bounded', max: 1 },
    weight: 1,
    lowerIsBetter: false,
    counts: NO_COUNTS,
    ...fields,
  };
}

describe('error bars', () => {
  it('places a 0–1 mean and its interval on the scale, and says a ±0.19 interval is too wide (over 10% of 1)', () => {
    // 18 of 30 answers pass: mean 0.6, CLT interval 0.6 ± 2.045·0.0910 = [0.4139, 0.7861], half-width 0.1861 > 0.1.
    const bar = meanBar(aggregate({ meanScore: 0.6, ci_low: 0.4139, ci_high: 0.7861, cases: 30, too_wide: true }));
    assert.ok(bar !== undefined);
    assert.deepEqual([bar.min, bar.max, bar.mean, bar.low, bar.high, bar.tooWide], [0, 1, 0.6, 0.4139, 0.7861, true]);
    assert.equal(along(bar, bar.mean), 0.6);
    assert.equal(
      bar.label,
      'mean 0.6, 95% interval 0.4139 to 0.7861 (CLT, 30 cases). Too wide to mean anything: ±0.1861 is more than 10% of the scale (0–1)',
    );
  });

  it('uses the scale 0–100 as the axis, and names a clustered interval', () => {
    const bar = meanBar(
      aggregate({
        scale: { kind: 'bounded', max: 100 },
        meanScore: 81,
        ci_low: 78,
        ci_high: 84,
        cases: 50,
        clustered: true,
        too_wide: false,
      }),
    );
    assert.ok(bar !== undefined);
    assert.deepEqual([bar.min, bar.max, bar.tooWide], [0, 100, false]);
    assert.equal(along(bar, 81), 0.81);
    assert.equal(bar.label, 'mean 81, 95% interval 78 to 84 (clustered by case, 50 cases)');
  });

  it('gives a count (no known scale) an axis 10% wider than its interval either side', () => {
    // Interval [80, 120]: span 40, 4 either side → axis [76, 124]; the mean 100 sits at 24/48 = 0.5.
    const bar = meanBar(
      aggregate({ scale: { kind: 'count', unit: 'ms' }, meanScore: 100, ci_low: 80, ci_high: 120, cases: 40 }),
    );
    assert.ok(bar !== undefined);
    assert.deepEqual([bar.min, bar.max], [76, 124]);
    assert.equal(along(bar, 100), 0.5);
  });

  it('draws nothing without an interval (a live run; one case)', () => {
    assert.equal(meanBar(aggregate({ meanScore: 0.5 })), undefined);
    assert.equal(meanBar(aggregate({ meanScore: 0.5, ci_low: null, ci_high: null })), undefined);
    assert.equal(passRateBar(aggregate({ passRate: 1 })), undefined);
  });

  it('draws the Wilson interval of a pass rate on 0–100%, and says when it rests on fewer than 10 results', () => {
    const rate = passRateBar(
      aggregate({
        counts: { ...NO_COUNTS, pass: 18, fail: 12 },
        passRate: 0.6,
        pass_rate_ci_low: 0.4232,
        pass_rate_ci_high: 0.7541,
        pass_rate_too_wide: true,
      }),
    );
    assert.ok(rate !== undefined);
    assert.equal(
      rate.label,
      'pass rate 60%, 95% Wilson interval 42.3% to 75.4% (30 decided results). Too wide to mean anything: ±16.5% is more than 10% of the scale (0%–100%)',
    );
    const few = passRateBar(
      aggregate({
        counts: { ...NO_COUNTS, pass: 3, fail: 1 },
        passRate: 0.75,
        pass_rate_ci_low: 0.3,
        pass_rate_ci_high: 0.95,
        pass_rate_too_wide: true,
      }),
    );
    assert.match(few?.label ?? '', /Too wide to mean anything: only 4 cases \(fewer than 10\)$/);
  });

  it('draws a delta around zero on a symmetric axis and says which way is better', () => {
    // −0.4 [−0.586, −0.214]: the largest reach 0.586 rounds up to 1 → axis [−1, 1]; 0 sits in the middle.
    const bar = deltaBar({ mean: -0.4, ci_low: -0.586, ci_high: -0.214, n: 30 }, 'pass_rate', false);
    assert.ok(bar !== undefined);
    assert.deepEqual([bar.min, bar.max, bar.zero, bar.tooWide], [-1, 1, 0, false]);
    assert.equal(along(bar, 0), 0.5);
    assert.equal(along(bar, -0.4), 0.3);
    assert.equal(
      bar.label,
      'delta (candidate − baseline) −40%, 95% interval −58.6% to −21.4% over 30 shared cases; a rise is better',
    );
    // A latency delta +12 ms [3, 21]: reach 21 → the axis 1, 2, 5 × 10^k at or above it: ±50.
    const latency = deltaBar({ mean: 12, ci_low: 3, ci_high: 21, n: 8 }, 'score', true);
    assert.deepEqual([latency?.min, latency?.max, latency?.tooWide], [-50, 50, true]);
    assert.match(latency?.label ?? '', /a fall is better\. Too wide to mean anything: only 8 cases/);
  });

  it('puts both runs of a compared scorer on one axis', () => {
    const axis = sharedAxis('score', [
      { mean: 10, ci_low: 8, ci_high: 12, n: 20 },
      { mean: 20, ci_low: 17, ci_high: 28, n: 20 },
    ]);
    // [8, 28], span 20, 2 either side.
    assert.deepEqual(axis, { min: 6, max: 30 });
    assert.deepEqual(sharedAxis('pass_rate', []), { min: 0, max: 1 });
    const side = sideBar({ mean: 20, ci_low: 17, ci_high: 28, n: 20 }, 'score', axis, 'candidate');
    assert.equal(side?.label, 'candidate: mean 20, 95% interval 17 to 28 (20 cases)');
    assert.equal(along(axis, 18), 0.5);
  });
});
