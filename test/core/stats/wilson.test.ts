import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { wilsonInterval } from '../../../core/stats/wilson';
import { seededRandom } from '../../support/seededRandom';
import { assertClose } from './close';

describe('wilsonInterval', () => {
  it('matches Newcombe (1998), Statistics in Medicine 17:857–872, Table II, method 3 (Wilson score)', () => {
    // Newcombe's published four-decimal intervals; scipy 1.17.1
    // `scipy.stats.binomtest(k, n).proportion_ci(method='wilson')` gives the full digits shown.
    const cases: readonly (readonly [number, number, number, number])[] = [
      [81, 263, 0.2552885198782742, 0.36620957698280004], // Newcombe: 0.2553, 0.3662
      [15, 148, 0.06238639953073629, 0.16048724172330803], // 0.0624, 0.1605
      [0, 20, 0, 0.16112515805281935], // 0.0000, 0.1611
      [1, 29, 0.006113214292762667, 0.17175521879320282], // 0.0061, 0.1718
    ];
    for (const [k, n, low, high] of cases) {
      const interval = wilsonInterval(k, n);
      assertClose(interval?.low, low, 1e-13, `${k}/${n} low`);
      assertClose(interval?.high, high, 1e-13, `${k}/${n} high`);
    }
  });

  it('matches a hand-worked case', () => {
    // 1 of 1, z = 1.959963984540054, z² = 3.841458820694124: centre = (1 + z²/2)/(1 + z²) = 0.603274…,
    // half = z/(1 + z²)·√(0 + z²/4) = z²/(2(1 + z²)) = 0.396725…; low = 1/(1 + z²) = 0.206549…, high = 1.
    const z2 = 1.959963984540054 ** 2;
    const interval = wilsonInterval(1, 1);
    assertClose(interval?.low, 1 / (1 + z2), 1e-14, 'low');
    assert.equal(interval?.high, 1);
  });

  it('has no interval without trials', () => {
    assert.equal(wilsonInterval(0, 0), null);
  });

  it('lies within [0, 1] and contains p̂ (seeded property)', () => {
    const random = seededRandom(16_20);
    for (let i = 0; i < 2000; i++) {
      const n = 1 + Math.floor(random() * (random() < 0.5 ? 20 : 100_000));
      const k = Math.floor(random() * (n + 1));
      const interval = wilsonInterval(k, n);
      assert.ok(interval !== null);
      assert.ok(interval.low >= 0 && interval.high <= 1, `${k}/${n}: [${interval.low}, ${interval.high}]`);
      assert.ok(
        interval.low <= k / n && k / n <= interval.high,
        `${k}/${n} inside [${interval.low}, ${interval.high}]`,
      );
      // Symmetry: the interval of n − k failures is the mirror image.
      const mirror = wilsonInterval(n - k, n);
      assertClose(mirror?.low, 1 - interval.high, 1e-12, `${k}/${n} mirror`);
    }
  });
});
