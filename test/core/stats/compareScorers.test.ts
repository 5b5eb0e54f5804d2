import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareScorers, verdictOf, type ScorerPairedInput } from '../../../core/stats/compareScorers';
import { mcnemarFromPairs, McNemarAccumulator } from '../../../core/stats/mcnemar';
import { PairedDifferenceAccumulator, pairedFromMoments } from '../../../core/stats/pairedDifference';
import { seededRandom } from '../../support/seededRandom';
import { assertClose } from './close';

function passFail(
  name: string,
  pairs: { bothPassed: number; bothFailed: number; regressed: number; fixed: number },
): ScorerPairedInput {
  return { name, lower_is_better: false, test: 'exact_mcnemar', paired: mcnemarFromPairs(pairs), discordant: pairs };
}

describe('verdictOf', () => {
  it('reads the direction from delta = candidate − baseline', () => {
    assert.equal(verdictOf(100, -0.1, 0.01, false), 'regressed', 'a fall, higher is better');
    assert.equal(verdictOf(100, 0.1, 0.01, false), 'improved');
    assert.equal(verdictOf(100, 0.1, 0.01, true), 'regressed', 'a rise, lower is better (e.g. latency)');
    assert.equal(verdictOf(100, -0.1, 0.01, true), 'improved');
    assert.equal(verdictOf(100, -0.1, 0.05, false), 'no significant change', 'p = α is not below α');
    assert.equal(verdictOf(9, -0.5, 0.001, false), 'not enough data', 'fewer than 10 shared cases');
    assert.equal(verdictOf(100, null, null, false), 'not enough data');
  });
});

describe('compareScorers', () => {
  it('gives each scorer a verdict from Holm-adjusted p-values', () => {
    // Three pass/fail scorers over 100 shared cases:
    //   a: 12 regressed, 1 fixed → p_raw = binom.test(1, 13) = 2·14/8192 = 0.00341796875
    //   b: 2 regressed, 9 fixed  → p_raw = binom.test(2, 11) = 2·(1 + 11 + 55)/2048 = 0.0654296875
    //   c: 6 regressed, 0 fixed  → p_raw = binom.test(0, 6)  = 2/64 = 0.03125
    // Holm (m = 3): a 3·0.00341796875 = 0.01025390625; c 2·0.03125 = 0.0625; b 1·0.0654… = 0.0654296875.
    // Only a stays below 0.05: regressed. c would be significant alone (0.03125) but not in the family.
    const results = compareScorers([
      passFail('a', { bothPassed: 80, bothFailed: 7, regressed: 12, fixed: 1 }),
      passFail('b', { bothPassed: 80, bothFailed: 9, regressed: 2, fixed: 9 }),
      passFail('c', { bothPassed: 90, bothFailed: 4, regressed: 6, fixed: 0 }),
    ]);
    const [a, b, c] = results;
    assertClose(a?.p_value_raw, 0.00341796875, 1e-14, 'a raw');
    assertClose(a?.p_value, 0.01025390625, 1e-14, 'a adjusted');
    assertClose(b?.p_value_raw, 0.0654296875, 1e-14, 'b raw');
    assertClose(b?.p_value, 0.0654296875, 1e-14, 'b adjusted');
    assertClose(c?.p_value, 0.0625, 1e-14, 'c adjusted');
    assert.deepEqual(
      results.map((r) => r.verdict),
      ['regressed', 'no significant change', 'no significant change'],
    );
    assertClose(a?.delta.mean, -0.11, 1e-15, 'a delta = (1 − 12)/100');
    assert.deepEqual(a?.discordant, { regressed: 12, fixed: 1 });
  });

  it('leaves a scorer with too few cases out of the family', () => {
    // d: 8 cases, all regressed: not enough data, no adjusted p; e alone in the family is not adjusted.
    const results = compareScorers([
      passFail('d', { bothPassed: 0, bothFailed: 0, regressed: 8, fixed: 0 }),
      passFail('e', { bothPassed: 80, bothFailed: 7, regressed: 12, fixed: 1 }),
    ]);
    assert.equal(results[0]?.verdict, 'not enough data');
    assert.equal(results[0]?.p_value, null);
    assertClose(results[0]?.p_value_raw, 2 / 256, 1e-15, 'its raw p is still shown: binom.test(0, 8)');
    assertClose(results[1]?.p_value, 0.00341796875, 1e-14, 'e unadjusted');
  });

  it('treats a rise of a lower-is-better scorer as the regression', () => {
    // Latency-like scores: every one of 20 cases rises by 1 to 3 units, deterministically.
    const accumulator = new PairedDifferenceAccumulator();
    for (let i = 0; i < 20; i++) accumulator.addCase([10], [11 + (i % 3)]);
    const [result] = compareScorers([
      { name: 'latency', lower_is_better: true, test: 'paired_t', paired: accumulator.result() },
    ]);
    assert.ok((result?.delta.mean ?? 0) > 0, 'delta is candidate − baseline: positive');
    assert.equal(result?.verdict, 'regressed');
  });

  it('reads a pass/fail comparison by its pass rate, even for a lower-is-better scorer', () => {
    // A latency scorer with a limit: 12 cases now fail that passed (went over the limit), 1 now passes.
    // delta is the pass rate's change, −0.11: fewer passes is the regression whichever way the scores run.
    const [result] = compareScorers([
      { ...passFail('latency', { bothPassed: 80, bothFailed: 7, regressed: 12, fixed: 1 }), lower_is_better: true },
    ]);
    assertClose(result?.delta.mean, -0.11, 1e-15, 'delta');
    assert.equal(result?.lower_is_better, true);
    assert.equal(result?.verdict, 'regressed');
  });

  it('swapping baseline and candidate swaps regressed and improved (seeded property)', () => {
    const random = seededRandom(16_50);
    const seen = new Set<string>();
    const flip = {
      regressed: 'improved',
      improved: 'regressed',
      'no significant change': 'no significant change',
      'not enough data': 'not enough data',
    } as const;
    for (let run = 0; run < 100; run++) {
      const forward: ScorerPairedInput[] = [];
      const backward: ScorerPairedInput[] = [];
      for (let s = 0; s < 1 + Math.floor(random() * 4); s++) {
        const n = 5 + Math.floor(random() * 300);
        const lowerIsBetter = random() < 0.3;
        if (random() < 0.5) {
          const there = new McNemarAccumulator();
          const back = new McNemarAccumulator();
          const lean = random();
          for (let i = 0; i < n; i++) {
            const before = random() < 0.6;
            const after = random() < 0.2 ? random() < lean : before;
            there.addCase(before, after);
            back.addCase(after, before);
          }
          forward.push({
            name: `s${s}`,
            lower_is_better: lowerIsBetter,
            test: 'exact_mcnemar',
            paired: there.result(),
          });
          backward.push({
            name: `s${s}`,
            lower_is_better: lowerIsBetter,
            test: 'exact_mcnemar',
            paired: back.result(),
          });
        } else {
          const there = new PairedDifferenceAccumulator();
          const back = new PairedDifferenceAccumulator();
          const lift = (random() - 0.5) * 0.2;
          for (let i = 0; i < n; i++) {
            const before = random();
            const after = before + lift + (random() - 0.5) * 0.5;
            there.addCase([before], [after]);
            back.addCase([after], [before]);
          }
          forward.push({ name: `s${s}`, lower_is_better: lowerIsBetter, test: 'paired_t', paired: there.result() });
          backward.push({ name: `s${s}`, lower_is_better: lowerIsBetter, test: 'paired_t', paired: back.result() });
        }
      }
      const there = compareScorers(forward);
      const back = compareScorers(backward);
      there.forEach((result, i) => assert.equal(back[i]?.verdict, flip[result.verdict], `run ${run}, scorer ${i}`));
      for (const result of there) seen.add(result.verdict);
    }
    assert.deepEqual(
      [...seen].sort(),
      ['improved', 'no significant change', 'not enough data', 'regressed'],
      'the runs reach every verdict',
    );
  });

  it('a constant shift with no spread is significant', () => {
    const shifted = pairedFromMoments(30, -0.2, 0);
    const [result] = compareScorers([{ name: 'x', lower_is_better: false, test: 'paired_t', paired: shifted }]);
    assert.equal(result?.verdict, 'regressed');
  });
});
