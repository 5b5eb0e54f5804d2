import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRunConfig } from '../../../core/config/parseRunConfig';
import { scoreCase } from '../../../core/runner/scoreCase';
import { EDIT_SIMILARITY_MAX_CODE_POINTS, editSimilarity } from '../../../core/scorers/builtin/editSimilarity';
import { interruptibleLevenshtein, levenshtein } from '../../../core/scorers/support/levenshtein';
import { score } from '../../support/scoring';
import { prepareScorers } from '../../../core/runner/prepareScorers';

/** Seeded texts over a small alphabet with an astral character, so a failure is reproducible. */
function texts(seed: number) {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const alphabet = ['a', 'b', 'c', 'd', 'é', '😀', ' ', 'x', 'y', 'z'];
  return (length: number) => Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
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
    for (const [n, m] of [[40, 90], [200, 150], [1000, 33], [64, 65]] as const) {
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
    const controller = new AbortController();
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    let chunks = 0;
    const running = interruptibleLevenshtein(a, b, controller.signal, {
      stepsPerChunk: 100,
      onChunk: () => {
        chunks++;
        if (chunks === 3) controller.abort();
      },
    });
    assert.ok(running instanceof Promise, 'a long comparison is asynchronous');
    await assert.rejects(running, /stopped/);
    // 3000 columns of 94 blocks in chunks of one column: it stopped after the third of 3000.
    assert.equal(chunks, 3);
    assert.equal(timerRan, true, 'a timer set before the comparison ran while it was under way');
  });

  it('lets the runner\'s time limit fire during a long comparison instead of measuring it afterwards', async () => {
    const text = texts(9);
    const yaml = `scorers:\n  edit_similarity: {timeout_ms: 1}\ncases: []\n`;
    const parsed = parseRunConfig(yaml, '/virtual/bounds.eval.yaml', {});
    assert.deepEqual(parsed.problems, []);
    assert.ok(parsed.config);
    const [result] = await scoreCase({ id: 'long', output: text(60_000), expected: text(60_000) }, prepareScorers(parsed.config.scorers), 1, { now: () => performance.now() });
    assert.equal(result?.status, 'timeout');
    // "did not answer within" is the timer's verdict; a blocked loop can only say afterwards that it "took" too long.
    assert.match(result?.reason ?? '', /did not answer within its time limit of 1 ms/);
  });
});
