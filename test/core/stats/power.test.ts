import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mdeMultiplier, minimumDetectableEffect } from '../../../core/stats/power';
import { assertClose } from './close';

describe('minimum detectable effect (80% power, α = 0.05 two-sided)', () => {
  it("uses Bloom's multiplier 2.8 for large samples", () => {
    // z(0.975) + z(0.8) = 1.959963984540054 + 0.8416212335729143 = 2.8015852181129683 (scipy
    // norm.ppf); Bloom (1995), Evaluation Review 19(5), Table 1: multiplier 2.80 for a two-tailed test.
    assertClose(mdeMultiplier(Number.POSITIVE_INFINITY), 2.8015852181129683, 1e-14, 'normal multiplier');
    assertClose(mdeMultiplier(1e6), 2.8, 5e-3, "Bloom's 2.80");
    assertClose(minimumDetectableEffect(0.01, Number.POSITIVE_INFINITY), 0.028015852181129683, 1e-15, 'SE 0.01');
  });

  it('uses t quantiles for small samples', () => {
    // scipy: t.ppf(0.975, 4) + t.ppf(0.8, 4) = 2.7764451051977934 + 0.9409645772351816.
    assertClose(mdeMultiplier(4), 2.7764451051977934 + 0.9409645772351816, 1e-11, 'df 4');
    assert.equal(minimumDetectableEffect(null, 4), null, 'no SE, no MDE');
  });
});
