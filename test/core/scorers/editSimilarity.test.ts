import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EDIT_SIMILARITY_DEFAULT_THRESHOLD, editSimilarity } from '../../../core/scorers/builtin/editSimilarity';
import { levenshtein } from '../../../core/scorers/support/levenshtein';
import { schemaErrors, score } from '../../support/scoring';
import { thresholdOffScale } from '../../../core/config/thresholdScale';

/** The textbook full-matrix Levenshtein over code points, as a reference for the optimized one. */
function referenceDistance(a: string, b: string): number {
  const s = Array.from(a);
  const t = Array.from(b);
  const d: number[][] = [];
  for (let i = 0; i <= s.length; i++)
    d.push(Array.from({ length: t.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const row = d[i] as number[];
      const above = d[i - 1] as number[];
      row[j] = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + (s[i - 1] === t[j - 1] ? 0 : 1),
      );
    }
  }
  return (d[s.length] as number[])[t.length] as number;
}

describe('edit_similarity', () => {
  it('scores kitten/sitting as 1 − 3/7 and fails it at the default threshold', async () => {
    const v = await score(editSimilarity, {}, { output: 'kitten', expected: 'sitting' });
    assert.equal(v.status, 'fail');
    assert.equal(v.score, 1 - 3 / 7);
    // A failure carries the two texts it compared, for an editor's diff view.
    assert.deepEqual(v.details, {
      distance: 3,
      output_length: 6,
      expected_length: 7,
      threshold: 0.8,
      expected: 'sitting',
      actual: 'kitten',
    });
    assert.match(
      v.reason,
      /similarity 0\.5714 misses the pass threshold \(at least 0\.8; output 6 characters, expected 7 characters\)/,
    );
  });

  it('scores identical texts 1 and passes, keeping the texts out of a passing result', async () => {
    const v = await score(editSimilarity, {}, { output: 'the order has shipped', expected: 'the order has shipped' });
    assert.equal(v.status, 'pass');
    assert.equal(v.score, 1);
    assert.equal(v.details?.['expected'], undefined);
  });

  it('scores two empty texts 1 and passes', async () => {
    const v = await score(editSimilarity, {}, { output: '', expected: '' });
    assert.equal(v.status, 'pass');
    assert.equal(v.score, 1);
  });

  it('counts code points, not UTF-16 units: an emoji against another is one substitution (0, not 0.5)', async () => {
    const v = await score(editSimilarity, {}, { output: '\u{1F600}', expected: '\u{1F601}' });
    assert.equal(v.score, 0);
    assert.deepEqual(v.details, {
      distance: 1,
      output_length: 1,
      expected_length: 1,
      threshold: 0.8,
      expected: '\u{1F601}',
      actual: '\u{1F600}',
    });
  });

  it('scores an emoji pair against an empty text 0 with lengths 2 and 0', async () => {
    const v = await score(editSimilarity, {}, { output: '\u{1F600}\u{1F64F}', expected: '' });
    assert.equal(v.status, 'fail');
    assert.equal(v.score, 0);
    assert.deepEqual(v.details, {
      distance: 2,
      output_length: 2,
      expected_length: 0,
      threshold: 0.8,
      expected: '',
      actual: '\u{1F600}\u{1F64F}',
    });
  });

  it('counts an emoji as one character next to ASCII: "a😀" against "a" is 0.5', async () => {
    assert.equal((await score(editSimilarity, {}, { output: 'a\u{1F600}', expected: 'a' })).score, 0.5);
  });

  it('does not split surrogate pairs when trimming a shared prefix or suffix', () => {
    // same high surrogate, different low surrogates; then same low surrogate, different high ones
    assert.deepEqual(levenshtein('x\u{1F600}y', 'x\u{1F601}y'), { distance: 1, lengthA: 3, lengthB: 3 });
    assert.deepEqual(levenshtein('\u{10000}', '\u{10400}'), { distance: 1, lengthA: 1, lengthB: 1 });
    assert.deepEqual(levenshtein('\u{1F600}', '\u{1F600}\u{1F600}'), { distance: 1, lengthA: 1, lengthB: 2 });
  });

  it('agrees with the textbook full-matrix distance on random texts with astral characters and lone surrogates', () => {
    const alphabet = ['a', 'b', 'c', ' ', '\u00e9', '\u{1F600}', '\u{1F601}', '\u{10400}', '\ud83d', '\ude00'];
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const text = () =>
      Array.from({ length: Math.floor(random() * 12) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(
        '',
      );
    for (let n = 0; n < 3000; n++) {
      const a = text();
      const b =
        random() < 0.5
          ? text()
          : `${a.slice(0, Math.floor(random() * a.length))}${text()}${a.slice(Math.floor(random() * a.length))}`;
      const got = levenshtein(a, b);
      assert.equal(got.distance, referenceDistance(a, b), `distance of ${JSON.stringify(a)} and ${JSON.stringify(b)}`);
      assert.equal(got.lengthA, Array.from(a).length);
      assert.equal(got.lengthB, Array.from(b).length);
    }
  });

  it('passes at exactly the default threshold 0.8 (inclusive)', async () => {
    assert.equal(EDIT_SIMILARITY_DEFAULT_THRESHOLD, 0.8);
    assert.equal(editSimilarity.defaultThreshold, 0.8);
    const v = await score(editSimilarity, {}, { output: 'abcdx', expected: 'abcde' });
    assert.equal(v.score, 0.8);
    assert.equal(v.status, 'pass');
    assert.equal((await score(editSimilarity, {}, { output: 'abcxy', expected: 'abcde' })).status, 'fail');
  });

  it('uses the threshold option when given, inclusive', async () => {
    assert.equal(
      (await score(editSimilarity, { threshold: 0.9 }, { output: 'abcdx', expected: 'abcde' })).status,
      'fail',
    );
    assert.equal(
      (await score(editSimilarity, { threshold: 0.5 }, { output: 'flaw', expected: 'lawn' })).status,
      'pass',
    );
    assert.equal((await score(editSimilarity, { threshold: 0 }, { output: 'abc', expected: 'xyz' })).status, 'pass');
  });

  it('honours lower_is_better: the similarity must be at most the threshold', async () => {
    assert.equal(
      (await score(editSimilarity, { threshold: 0.5, lower_is_better: true }, { output: 'abc', expected: 'xyz' }))
        .status,
      'pass',
    );
    assert.equal(
      (await score(editSimilarity, { threshold: 0.5, lower_is_better: true }, { output: 'flaw', expected: 'lawn' }))
        .status,
      'pass',
    );
    assert.equal(
      (await score(editSimilarity, { threshold: 0.5, lower_is_better: true }, { output: 'abcd', expected: 'abcd' }))
        .status,
      'fail',
    );
  });

  it('compares code points exactly, with no case or Unicode normalization', async () => {
    assert.equal((await score(editSimilarity, {}, { output: 'Cafe\u0301', expected: 'Caf\u00e9' })).score, 1 - 2 / 5);
    assert.equal((await score(editSimilarity, {}, { output: 'ABCD', expected: 'abcd' })).score, 0);
  });

  it('quotes no text in the reason', async () => {
    const v = await score(
      editSimilarity,
      {},
      { output: 'my password is hunter2', expected: 'my password is swordfish' },
    );
    assert.doesNotMatch(v.reason, /password|hunter|swordfish/);
  });

  it('converts nothing: a wrong output kind fails, naming it', async () => {
    const v = await score(editSimilarity, {}, { output: 42, expected: '42' });
    assert.equal(v.status, 'fail');
    assert.match(v.reason, /the output is a number, not a string; nothing is converted/);
    assert.match(
      (await score(editSimilarity, {}, { output: ['a'], expected: 'a' })).reason,
      /output is an array of 1 item/,
    );
    assert.equal((await score(editSimilarity, {}, { expected: 'a' })).status, 'fail');
  });

  it('is an error when the expected value is missing', async () => {
    assert.equal((await score(editSimilarity, {}, { output: 'a' })).status, 'error');
  });

  it('is an error when the expected value is not a string', async () => {
    const v = await score(editSimilarity, {}, { output: '1', expected: 1 });
    assert.equal(v.status, 'error');
    assert.match(v.reason, /expected value is a number, not a string/);
  });

  it('uses an explicit value before the case expected, and compares fields picked with output_path', async () => {
    const v = await score(
      editSimilarity,
      { value: 'sitting', output_path: 'answer' },
      { output: { answer: 'sitting' }, expected: 'kitten' },
    );
    assert.equal(v.status, 'pass');
    assert.equal(v.score, 1);
  });

  it('refuses a threshold outside 0–1 when the config loads', () => {
    assert.match(thresholdOffScale(editSimilarity, 1.5) ?? '', /between 0 and 1/);
    assert.match(thresholdOffScale(editSimilarity, -0.1) ?? '', /between 0 and 1/);
  });

  it('rejects a non-string value and unknown options in the schema', () => {
    assert.notDeepEqual(schemaErrors(editSimilarity, { value: 1 }), []);
    assert.notDeepEqual(schemaErrors(editSimilarity, { normalize: true }), []);
    assert.deepEqual(schemaErrors(editSimilarity, { value: '', threshold: 0.7 }), []);
  });
});
