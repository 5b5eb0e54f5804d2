import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EDIT_SIMILARITY_MAX_CODE_POINTS, editSimilarity } from '../../../core/scorers/builtin/editSimilarity';
import { interruptibleLevenshtein, levenshtein } from '../../../core/scorers/support/levenshtein';
import { assertTimesOutMidway, assertYieldsAndStops, seededPicks } from '../../support/interruptibleComparison';
import { score } from '../../support/scoring';

/** Seeded texts over a small alphabet with an astral character, so a failure is reproducible. */
function texts(seed: number): (length: number) => string {
  const picks = seededPicks(seed, ['a', 'b', 'c', 'd', 'é', '😀', ' ', 'x', 'y', 'z']);
  return (length) => picks(length).join('');
}

describe('edit_similarity bounds', () => {
  it('refuses a text over the cap with an error naming its length and the cap', async () => {
    const long = 'a'.repeat(EDIT_SIMILARITY_MAX_CODE_POINTS + 1);
    const v = await score(editSimilarity, {}, { output: long, expected: 'b' });
    assert.equal(v.status, 'error');
    assert.match(v.reason, /the output is 100001 code points long, over the 100000 edit_similarity compares/);
    const w = await score(editSimilarity, { value: long }, { output: 'b' });
    assert.equal(w.status, 'error');
    assert.match(w.reason, /the expected value is 100001 code points long/);
    // Astral characters are one code point each: the cap counts code points, not UTF-16 units.
    const emoji = '😀'.repeat(EDIT_SIMILARITY_MAX_CODE_POINTS);
    assert.equal((await score(editSimilarity, {}, { output: emoji, expected: emoji })).status, 'pass');
  });

  it('computes the same distance in chunks as at once', async () => {
    const text = texts(3);
    const signal = new AbortController().signal;
    for (const [n, m] of [
      [40, 90],
      [200, 150],
      [1000, 33],
      [64, 65],
    ] as const) {
      const a = text(n);
      const b = text(m);
      let chunks = 0;
      const chunked = await interruptibleLevenshtein(a, b, signal, { stepsPerChunk: 7, onChunk: () => chunks++ });
      assert.deepEqual(chunked, levenshtein(a, b), `${n}×${m}`);
      assert.ok(chunks > 1, 'the comparison ran in several chunks');
    }
  });

  it('gives the event loop a turn between chunks and stops once the signal aborts', async () => {
    const text = texts(5);
    const a = text(3000);
    const b = text(3000);
    // 3000 columns of 94 blocks in chunks of one column: it stops after the third of 3000.
    await assertYieldsAndStops((signal, onChunk) =>
      interruptibleLevenshtein(a, b, signal, { stepsPerChunk: 100, onChunk }),
    );
  });

  it("lets the runner's time limit fire during a long comparison instead of measuring it afterwards", async () => {
    const text = texts(9);
    await assertTimesOutMidway('scorers:\n  edit_similarity: {timeout_ms: 1}\ncases: []\n', {
      id: 'long',
      output: text(60_000),
      expected: text(60_000),
    });
  });
});
