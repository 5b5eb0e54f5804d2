import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalCdf, normalQuantile } from '../../../core/stats/normal';
import { seededRandom } from '../../support/seededRandom';
import { assertClose, assertRelative } from './close';

// Reference values: scipy 1.17.1, `scipy.stats.norm.cdf(x)` and `scipy.stats.norm.ppf(p)`; the
// four-digit ones are the standard normal table every statistics text prints.

describe('normalCdf', () => {
  it('matches the printed table', () => {
    assertClose(normalCdf(0), 0.5, 1e-16, 'Φ(0)');
    assertClose(normalCdf(1), 0.8413, 5e-5, 'Φ(1) (table)');
    assertClose(normalCdf(1.96), 0.975, 5e-5, 'Φ(1.96) (table)');
  });

  it('matches scipy, with relative accuracy in the far tail', () => {
    assertClose(normalCdf(1), 0.8413447460685429, 1e-15, 'norm.cdf(1)');
    assertClose(normalCdf(1.96), 0.9750021048517795, 1e-15, 'norm.cdf(1.96)');
    assertClose(normalCdf(-1.96), 0.024997895148220435, 1e-15, 'norm.cdf(-1.96)');
    assertRelative(normalCdf(-3), 0.0013498980316300933, 1e-13, 'norm.cdf(-3)');
    assertRelative(normalCdf(-8), 6.22096057427174e-16, 1e-13, 'norm.cdf(-8)');
    assertRelative(normalCdf(-20), 2.7536241186061556e-89, 1e-12, 'norm.cdf(-20)');
  });
});

describe('normalQuantile', () => {
  it('matches scipy', () => {
    assertClose(normalQuantile(0.5), 0, 1e-16, 'ppf(0.5)');
    assertClose(normalQuantile(0.8), 0.8416212335729143, 1e-14, 'norm.ppf(0.8)');
    assertClose(normalQuantile(0.95), 1.6448536269514722, 1e-14, 'norm.ppf(0.95)');
    assertClose(normalQuantile(0.975), 1.959963984540054, 1e-14, 'norm.ppf(0.975)');
    assertClose(normalQuantile(0.995), 2.5758293035489004, 1e-14, 'norm.ppf(0.995)');
    assertClose(normalQuantile(1e-5), -4.264890793922825, 1e-14, 'norm.ppf(1e-5)');
    assertClose(normalQuantile(1e-20), -9.262340089798409, 1e-13, 'norm.ppf(1e-20)');
  });

  it('is ±Infinity at the ends and NaN outside [0, 1]', () => {
    assert.equal(normalQuantile(0), Number.NEGATIVE_INFINITY);
    assert.equal(normalQuantile(1), Number.POSITIVE_INFINITY);
    assert.ok(Number.isNaN(normalQuantile(1.5)));
  });

  it('inverts the CDF and is symmetric (seeded property)', () => {
    const random = seededRandom(16_01);
    for (let i = 0; i < 500; i++) {
      const p = 1e-12 + random() * (1 - 2e-12);
      assertClose(normalCdf(normalQuantile(p)), p, 1e-13, `Φ(Φ⁻¹(${p}))`);
      // 1 − p rounds by up to 1e-16, which moves the quantile by 1e-16/φ(z): kept small by staying in the body.
      if (p > 1e-6 && p < 1 - 1e-6) assertClose(normalQuantile(1 - p), -normalQuantile(p), 1e-9, `symmetry at ${p}`);
    }
  });
});
