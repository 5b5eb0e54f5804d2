import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DIFF_PREFIX_CHARS, type DiffPiece, diffTexts, MAX_DIFF_CHARS } from '../../webview/model/diff';

function sides(pieces: readonly DiffPiece[]): { expected: string; output: string } {
  return {
    expected: pieces
      .filter((p) => p.kind !== 'insert')
      .map((p) => p.text)
      .join(''),
    output: pieces
      .filter((p) => p.kind !== 'delete')
      .map((p) => p.text)
      .join(''),
  };
}

function pieces(expected: string, output: string): readonly DiffPiece[] {
  const outcome = diffTexts(expected, output);
  assert.ok(outcome.ok);
  return outcome.pieces;
}

describe('expected/output diff', () => {
  it('diffs one-line texts word by word', () => {
    assert.deepEqual(pieces('Refunds take 30 days.', 'Refunds take 14 days.'), [
      { kind: 'equal', text: 'Refunds take ' },
      { kind: 'delete', text: '30' },
      { kind: 'insert', text: '14' },
      { kind: 'equal', text: ' days.' },
    ]);
  });

  it('diffs multi-line texts line by line', () => {
    assert.deepEqual(pieces('a\nb\nc\n', 'a\nc\nd\n'), [
      { kind: 'equal', text: 'a\n' },
      { kind: 'delete', text: 'b\n' },
      { kind: 'equal', text: 'c\n' },
      { kind: 'insert', text: 'd\n' },
    ]);
  });

  it('handles equal and empty texts', () => {
    assert.deepEqual(pieces('same', 'same'), [{ kind: 'equal', text: 'same' }]);
    assert.deepEqual(pieces('', 'new'), [{ kind: 'insert', text: 'new' }]);
    assert.deepEqual(pieces('old', ''), [{ kind: 'delete', text: 'old' }]);
    assert.deepEqual(pieces('', ''), []);
  });

  it('always rebuilds both texts from its pieces (random texts, fixed seed)', () => {
    let seed = 42;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const words = ['the', 'cat', 'sat', 'on', 'mat', 'a', '\n', ' ', '  '];
    const text = (): string =>
      Array.from({ length: random(40) }, () => words[random(words.length)] ?? '').join(random(2) === 0 ? ' ' : '');
    for (let i = 0; i < 300; i++) {
      const expected = text();
      const output = text();
      assert.deepEqual(sides(pieces(expected, output)), { expected, output }, `case ${i}`);
    }
  });

  it('gives up with a reason instead of freezing on texts that share nothing', () => {
    const expected = Array.from({ length: 3000 }, (_, i) => `e${i}`).join('\n');
    const output = Array.from({ length: 3000 }, (_, i) => `o${i}`).join('\n');
    const outcome = diffTexts(expected, output);
    assert.equal(outcome.ok, false);
    assert.ok(!outcome.ok && /differ in more than 1000 lines/.test(outcome.reason));
  });
});

describe('expected/output diff of large texts', () => {
  it('says a 50 MB output is too large to diff, with its length and the start of each text, before splitting it', () => {
    const output = 'word '.repeat(10 * 1024 * 1024);
    const expected = 'word word\nother';
    // Splitting the texts is what cost the time and memory: it must not happen at all.
    const match = String.prototype.match;
    let splits = 0;
    String.prototype.match = function (this: string, ...args: Parameters<typeof match>) {
      splits++;
      return match.apply(this, args);
    } as typeof match;
    let outcome;
    try {
      outcome = diffTexts(expected, output);
    } finally {
      String.prototype.match = match;
    }
    assert.equal(splits, 0, 'the texts were not split into tokens');
    assert.deepEqual(outcome, {
      ok: false,
      reason: `too large to diff (${expected.length + output.length} characters together, more than the ${MAX_DIFF_CHARS} the view diffs)`,
      prefix: { expected, output: output.slice(0, DIFF_PREFIX_CHARS) },
    });
  });

  it('still diffs texts just under the limit', () => {
    const text = 'a'.repeat(MAX_DIFF_CHARS / 2);
    const outcome = diffTexts(text, text);
    assert.ok(outcome.ok);
  });
});
