import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalQuantile } from '../../../core/stats/normal';
import { studentTCdf, studentTQuantile, studentTTwoSidedTail } from '../../../core/stats/studentT';
import { seededRandom } from '../../support/seededRandom';
import { assertClose, assertRelative } from './close';

// Reference values: scipy 1.17.1, `scipy.stats.t.ppf(p, df)`, `2 * scipy.stats.t.sf(t, df)` and
// `scipy.stats.t.cdf(t, df)`; the three-decimal ones are the t table of any statistics text (e.g.
// Moore, McCabe & Craig, "Introduction to the Practice of Statistics", Table D).

describe('studentTQuantile', () => {
  it('matches the printed t table (two-sided 95%)', () => {
    assertClose(studentTQuantile(0.975, 1), 12.706, 5e-4 / 12.706, 'df 1');
    assertClose(studentTQuantile(0.975, 5), 2.571, 5e-4 / 2.571, 'df 5');
    assertClose(studentTQuantile(0.975, 10), 2.228, 5e-4 / 2.228, 'df 10');
    assertClose(studentTQuantile(0.975, 30), 2.042, 5e-4 / 2.042, 'df 30');
  });

  it('matches scipy', () => {
    const cases: readonly (readonly [number, number, number])[] = [
      [0.975, 1, 12.706204736174694],
      [0.975, 2, 4.302652729749462],
      [0.975, 9, 2.262157162798205],
      [0.975, 10, 2.228138851986274],
      [0.975, 100, 1.9839715185235518],
      [0.975, 1000, 1.9623390808264083],
      [0.8, 1, 1.3763819204711738],
      [0.8, 9, 0.8834038596855346],
      [0.8, 30, 0.8537672614712979],
      [0.95, 5, 2.0150483733330233],
      [0.975, 2.5, 3.5746548420036817],
      [0.999, 3, 10.214531852407383],
    ];
    for (const [p, df, expected] of cases) assertClose(studentTQuantile(p, df), expected, 1e-11, `t.ppf(${p}, ${df})`);
    assertClose(studentTQuantile(0.025, 10), -2.228138851986274, 1e-11, 't.ppf(0.025, 10)');
  });

  it('tends to the normal quantile as df grows', () => {
    assertClose(studentTQuantile(0.975, 1e7), normalQuantile(0.975), 1e-6, 'df 1e7');
    assert.equal(studentTQuantile(0.975, Number.POSITIVE_INFINITY), normalQuantile(0.975), 'the limit itself');
  });

  it('inverts the CDF (seeded property)', () => {
    const random = seededRandom(16_02);
    for (let i = 0; i < 300; i++) {
      const p = 0.001 + random() * 0.998;
      const df = 1 + random() * 200;
      assertClose(studentTCdf(studentTQuantile(p, df), df), p, 1e-11, `F(F⁻¹(${p}; ${df}))`);
    }
  });

  it('is NaN for a bad df or p', () => {
    assert.ok(Number.isNaN(studentTQuantile(0.5, 0)));
    assert.ok(Number.isNaN(studentTQuantile(-0.1, 3)));
  });
});

describe('studentTTwoSidedTail and studentTCdf', () => {
  it('matches scipy', () => {
    assertClose(studentTTwoSidedTail(2, 5), 0.10193947882985835, 1e-13, '2*t.sf(2, 5)');
    assertClose(studentTTwoSidedTail(-2, 5), 0.10193947882985835, 1e-13, 'symmetric in t');
    assertRelative(studentTTwoSidedTail(12, 20), 1.359555702588066e-10, 1e-11, '2*t.sf(12, 20)');
    assertClose(studentTCdf(-2, 5), 0.050969739414929174, 1e-13, 't.cdf(-2, 5)');
    assertClose(studentTCdf(1.5, 3), 0.8847080673775886, 1e-13, 't.cdf(1.5, 3)');
  });

  it('has the closed form of one degree of freedom (the Cauchy distribution)', () => {
    // F(t) = 1/2 + atan(t)/π for df = 1, worked by hand: F(1) = 1/2 + (π/4)/π = 0.75.
    assertClose(studentTCdf(1, 1), 0.75, 1e-14, 'Cauchy F(1)');
    const random = seededRandom(16_03);
    for (let i = 0; i < 100; i++) {
      const t = (random() - 0.5) * 40;
      assertClose(studentTCdf(t, 1), 0.5 + Math.atan(t) / Math.PI, 1e-13, `Cauchy F(${t})`);
    }
  });

  it('has the closed form of two degrees of freedom', () => {
    // F(t) = 1/2 + t / (2√(t² + 2)) for df = 2; at t = 1: 1/2 + 1/(2√3) = 0.7886751345948129.
    assertClose(studentTCdf(1, 2), 0.5 + 1 / (2 * Math.sqrt(3)), 1e-14, 'df 2, F(1)');
  });
});
