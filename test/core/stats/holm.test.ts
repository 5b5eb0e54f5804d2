import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { holmAdjust } from '../../../core/stats/holm';
import { seededRandom } from '../../support/seededRandom';
import { assertClose } from './close';

describe('holmAdjust', () => {
  it('matches R p.adjust', () => {
    // R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") = 0.03 0.06 0.06 0.02. By hand: sorted
    // 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 = 0.04 → raised to 0.06 (monotone).
    const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    [0.03, 0.06, 0.06, 0.02].forEach((expected, i) => assertClose(adjusted[i], expected, 1e-15, `p[${i}]`));
    // R: p.adjust(c(0.5, 0.2), "holm") = 0.5 0.4; capped at 1: p.adjust(c(0.6, 0.7), "holm") = 1 1.
    assert.deepEqual(holmAdjust([0.5, 0.2]), [0.5, 0.4]);
    assert.deepEqual(holmAdjust([0.6, 0.7]), [1, 1]);
    assert.deepEqual(holmAdjust([0.03]), [0.03], 'one test is not adjusted');
    assert.deepEqual(holmAdjust([]), []);
  });

  it('is ≥ raw, ≤ 1 and monotone in the raw order (seeded property)', () => {
    const random = seededRandom(16_40);
    for (let run = 0; run < 500; run++) {
      const raw = Array.from({ length: 1 + Math.floor(random() * 12) }, () =>
        random() < 0.3 ? random() * 0.01 : random(),
      );
      const adjusted = holmAdjust(raw);
      raw.forEach((p, i) => {
        const q = adjusted[i] ?? Number.NaN;
        assert.ok(q >= p && q <= 1, `run ${run}: ${q} vs ${p}`);
        raw.forEach((other, j) => {
          if (p < other) assert.ok(q <= (adjusted[j] ?? Number.NaN), `run ${run}: order kept`);
        });
      });
      // Never below Bonferroni's rejections: whatever Bonferroni (m·p < α) rejects, Holm rejects.
      raw.forEach((p, i) => {
        if (raw.length * p < 0.05) assert.ok((adjusted[i] ?? 1) < 0.05);
      });
    }
  });
});
