import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dynamicProgrammeDistance, levenshtein } from '../../../../core/scorers/support/levenshtein';

/** A seeded generator, so a failure names a reproducible pair. */
function words(seed: number) {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const alphabet = ['a', 'b', 'c', 'd', 'é', '😀', ' '];
  return (length: number) => Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
}

describe('levenshtein (bit-parallel)', () => {
  it('agrees with the dynamic programme on texts within one 32-bit block', () => {
    const word = words(1);
    for (let i = 0; i < 3000; i++) {
      const a = word(i % 33);
      const b = word((i * 7) % 33);
      assert.equal(
        levenshtein(a, b).distance,
        dynamicProgrammeDistance(a, b),
        `${JSON.stringify(a)} / ${JSON.stringify(b)}`,
      );
    }
  });

  it('agrees with the dynamic programme across several blocks, at and around block edges', () => {
    const word = words(2);
    for (const [n, m] of [
      [31, 32],
      [32, 33],
      [63, 64],
      [64, 65],
      [65, 200],
      [300, 97],
      [129, 129],
    ] as const) {
      for (let k = 0; k < 30; k++) {
        const a = word(n);
        const b = word(m);
        assert.equal(levenshtein(a, b).distance, dynamicProgrammeDistance(a, b), `lengths ${n}/${m}`);
      }
    }
  });

  it('counts code points, and known distances', () => {
    assert.equal(levenshtein('kitten', 'sitting').distance, 3);
    assert.equal(levenshtein('😀😀', '').distance, 2);
    assert.equal(levenshtein('a😀b', 'a😁b').distance, 1);
    assert.equal(levenshtein('', '').distance, 0);
  });
});
