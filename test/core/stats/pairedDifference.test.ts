import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { caseMean, PairedDifferenceAccumulator } from '../../../core/stats/pairedDifference';
import { seededRandom } from '../../support/seededRandom';
import { assertClose } from './close';

// Student's sleep data (Cushny & Peebles 1905, as in Student 1908 and R's `sleep` data set): extra
// hours of sleep of 10 patients under two drugs.
const DRUG_1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
const DRUG_2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];

describe('PairedDifferenceAccumulator (paired t)', () => {
  it("matches R on Student's sleep data", () => {
    // R: with(sleep, t.test(extra[group == 2], extra[group == 1], paired = TRUE)):
    //   t = 4.0621, df = 9, p-value = 0.002833, 95% CI 0.7001142 2.4598858, mean difference 1.58.
    // scipy.stats.ttest_rel(drug2, drug1): statistic 4.062127683382037, pvalue 0.002832890197384273,
    //   confidence_interval() = (0.7001142367230175, 2.459885763276983); scipy.stats.sem(d) = 0.3889587238883952.
    const accumulator = new PairedDifferenceAccumulator();
    DRUG_1.forEach((baseline, i) => accumulator.addCase([baseline], [DRUG_2[i] ?? Number.NaN]));
    const { delta, p_value_raw } = accumulator.result();
    assert.equal(delta.n, 10);
    assertClose(delta.mean, 1.58, 1e-14, 'mean difference');
    assertClose(delta.stderr, 0.3889587238883952, 1e-14, 'stderr');
    assertClose(delta.ci_low, 0.7001142367230175, 1e-12, 'ci_low');
    assertClose(delta.ci_high, 2.459885763276983, 1e-12, 'ci_high');
    assertClose(p_value_raw, 0.002832890197384273, 1e-12, 'p');
    // MDE: (t(0.975, 9) + t(0.8, 9))·SE = (2.262157162798205 + 0.8834038596855346)·0.3889587238883952.
    assertClose(delta.mde, (2.262157162798205 + 0.8834038596855346) * 0.3889587238883952, 1e-11, 'mde');
  });

  it("averages a case's trials before differencing (the case is the unit)", () => {
    // Case means: baseline (0 + 1)/2 = 0.5 vs candidate 1 → d = 0.5; baseline 1 vs candidate (0+0+1)/3 → d = −2/3.
    assert.equal(caseMean([0, 1]), 0.5);
    assert.equal(caseMean([Number.NaN]), undefined);
    const accumulator = new PairedDifferenceAccumulator();
    assert.equal(accumulator.addCase([0, 1], [1]), 0.5, 'the per-case difference');
    assertClose(accumulator.addCase([1], [0, 0, 1]), -2 / 3, 1e-15, 'the per-case difference');
    assert.equal(accumulator.addCase([Number.NaN], [1]), undefined);
    const { delta } = accumulator.result();
    assert.equal(delta.n, 2, 'a case with no score on one side is not paired');
    assertClose(delta.mean, (0.5 - 2 / 3) / 2, 1e-15, 'mean');
    // s² = ((0.5 − d̄)² + (−2/3 − d̄)²)/1 with d̄ = −1/12: (7/12)² + (7/12)² = 49/72; SE = √(49/72/2) = 7/12.
    assertClose(delta.stderr, 7 / 12, 1e-14, 'stderr');
  });

  it('tests no spread as p = 1 when nothing changed and p = 0 when every case moved alike', () => {
    const same = new PairedDifferenceAccumulator();
    const shifted = new PairedDifferenceAccumulator();
    for (let i = 0; i < 12; i++) {
      same.addCase([0.5], [0.5]);
      shifted.addCase([0.5], [0.6]);
    }
    assert.equal(same.result().p_value_raw, 1);
    assert.equal(shifted.result().p_value_raw, 0);
  });

  it('has nothing to say about fewer than two cases', () => {
    const accumulator = new PairedDifferenceAccumulator();
    assert.equal(accumulator.result().delta.mean, null);
    accumulator.addDifference(0.3);
    assert.deepEqual([accumulator.result().delta.stderr, accumulator.result().p_value_raw], [null, null]);
  });

  it('swapping the runs negates delta and its interval and keeps p (seeded property)', () => {
    const random = seededRandom(16_30);
    for (let run = 0; run < 100; run++) {
      const forward = new PairedDifferenceAccumulator();
      const backward = new PairedDifferenceAccumulator();
      const n = 2 + Math.floor(random() * 200);
      const lift = random() - 0.5;
      for (let i = 0; i < n; i++) {
        const base = random();
        const cand = base + lift * random() + (random() - 0.5) * 0.3;
        forward.addCase([base], [cand]);
        backward.addCase([cand], [base]);
      }
      const f = forward.result();
      const b = backward.result();
      assertClose(b.delta.mean, -(f.delta.mean ?? Number.NaN), 1e-12, 'mean');
      assertClose(b.delta.ci_low, -(f.delta.ci_high ?? Number.NaN), 1e-12, 'interval');
      assertClose(b.p_value_raw, f.p_value_raw ?? Number.NaN, 1e-12, 'p');
      assert.ok(f.delta.ci_low !== null && f.delta.mean !== null && f.delta.ci_high !== null);
      assert.ok(
        f.delta.ci_low <= f.delta.mean && f.delta.mean <= f.delta.ci_high,
        'the interval contains the estimate',
      );
    }
  });
});
