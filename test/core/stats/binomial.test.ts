import { describe, it } from 'node:test';
import { binomialCdf, binomialTestHalf } from '../../../core/stats/binomial';
import { assertClose, assertRelative } from './close';

describe('binomialCdf', () => {
  it('matches a hand-worked small case', () => {
    // P(X ≤ 3), X ~ Bin(10, 0.3): Σ_{j=0}^{3} C(10, j)·0.3^j·0.7^{10−j}
    //   = 0.0282475249 + 0.1210608210 + 0.2334744405 + 0.2668279320 = 0.6496107184
    //   (= scipy.stats.binom.cdf(3, 10, 0.3) = 0.6496107184000002; R pbinom(3, 10, 0.3)).
    assertClose(binomialCdf(3, 10, 0.3), 0.6496107184, 1e-12, 'pbinom(3, 10, 0.3)');
    assertClose(binomialCdf(-1, 10, 0.3), 0, 0);
    assertClose(binomialCdf(10, 10, 0.3), 1, 0);
  });

  it('matches scipy on a larger n', () => {
    assertClose(binomialCdf(40, 100, 0.5), 0.028443966820490444, 1e-13, 'scipy.stats.binom.cdf(40, 100, 0.5)');
  });
});

describe('binomialTestHalf (the exact McNemar test)', () => {
  it('matches R binom.test', () => {
    // R: binom.test(1, 8)$p.value = 0.0703125. By hand: 2·P(X ≤ 1) = 2·(1 + 8)/2⁸ = 18/256.
    assertClose(binomialTestHalf(1, 8), 0.0703125, 1e-14, 'binom.test(1, 8)');
    assertClose(binomialTestHalf(7, 8), 0.0703125, 1e-14, 'binom.test(7, 8): symmetric');
    // 0 of 6: 2/2⁶ = 0.03125; 0 of 5: 2/2⁵ = 0.0625 (so at least 6 discordant pairs are needed for p < 0.05).
    assertClose(binomialTestHalf(0, 6), 0.03125, 1e-15, 'binom.test(0, 6)');
    assertClose(binomialTestHalf(0, 5), 0.0625, 1e-15, 'binom.test(0, 5)');
    // 3 of 10: 2·(1 + 10 + 45 + 120)/1024 = 352/1024 = 0.34375.
    assertClose(binomialTestHalf(3, 10), 0.34375, 1e-14, 'binom.test(3, 10)');
    assertClose(binomialTestHalf(5, 10), 1, 0, 'the centre');
    assertClose(binomialTestHalf(0, 0), 1, 0, 'no discordant pairs');
  });

  it('matches scipy for large n and in a far tail', () => {
    // Agresti, "An Introduction to Categorical Data Analysis" (2nd ed., Table 10.1),
    // "Rating of performance of Prime Minister": 1600 people asked twice; 150 moved approve → disapprove,
    // 86 the other way (Agresti's McNemar z = (86 − 150)/√236 = −4.17).
    // scipy.stats.binomtest(86, 236).pvalue = 3.7159361395713866e-05.
    assertRelative(binomialTestHalf(86, 236), 3.7159361395713866e-5, 1e-11, 'binomtest(86, 236)');
    assertClose(binomialTestHalf(4990, 10000), 0.849310326637318, 1e-10, 'binomtest(4990, 10000)');
    assertRelative(binomialTestHalf(49000, 100000), 2.5887160383468943e-10, 1e-8, 'binomtest(49000, 100000)');
  });
});
