import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonPrintable, printable } from '../../../shared/text/printable';

/** What must never reach a terminal raw: C0 (but tab/LF where lines are kept), DEL, C1, bidi and other format characters. */
const FORBIDDEN =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u200b\u200e\u200f\u202a-\u202e\u2028\u2029\u2060-\u2064\u2066-\u206f\ufeff]/u;

describe('printable', () => {
  it('writes terminal controls as visible escapes', () => {
    assert.equal(printable('a\u001b[31mred\u001b[0m'), 'a\\x1b[31mred\\x1b[0m');
    assert.equal(printable('\u009b2J\u0007\b\u007f'), '\\x9b2J\\x07\\x08\\x7f');
    assert.equal(printable('\u001b]0;title\u0007'), '\\x1b]0;title\\x07');
  });

  it('writes bidi and invisible format characters as escapes', () => {
    assert.equal(printable('abc\u202edcba\u202c'), 'abc\\u202edcba\\u202c');
    assert.equal(printable('\u2066x\u2069\u200e\u200f\u061c'), '\\u2066x\\u2069\\u200e\\u200f\\u061c');
    assert.equal(printable('a\u200bb\ufeffc\u2028d'), 'a\\u200bb\\ufeffc\\u2028d');
    assert.equal(printable('tag\u{e0041}'), 'tag\\u{e0041}');
  });

  it('escapes line breaks and tabs in one-line text, keeps them in text of lines', () => {
    assert.equal(printable('a\nb\tc\rd'), 'a\\nb\\tc\\rd');
    assert.equal(printable('a\r\nb\tc\rd\u001b', { lines: true }), 'a\nb\tc\\rd\\x1b');
  });

  it('keeps ordinary Unicode as it is', () => {
    const text = 'café 日本語 한국어 مرحبا שלום 👨\u200d👩\u200d👧 ❤\ufe0f naïve Ω ∑ 🙂';
    assert.equal(printable(text), text);
    assert.equal(printable(text, { lines: true }), text);
  });

  it('escapes a lone surrogate', () => {
    assert.equal(printable('a\ud800b'), 'a\\ud800b');
  });

  it('leaves nothing forbidden over many generated strings, and ordinary characters survive', () => {
    let seed = 0x13;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed % n;
    };
    const pieces = [
      '\u001b[2J',
      '\u009b31m',
      '\u202e',
      '\u2067',
      '\u200f',
      '\u0007',
      '\r',
      '\n',
      '\t',
      '\u007f',
      '\u0000',
      '\ufeff',
      'é',
      '字',
      '🙂',
      'ok',
      ' ',
    ];
    for (let i = 0; i < 2000; i++) {
      let text = '';
      for (let j = next(12); j > 0; j--) text += pieces[next(pieces.length)];
      for (const lines of [false, true]) {
        const shown = printable(text, { lines });
        assert.doesNotMatch(shown, FORBIDDEN, JSON.stringify(text));
        if (!lines) assert.doesNotMatch(shown, /[\n\t\r]/u);
        for (const ordinary of ['é', '字', '🙂', 'ok'])
          assert.equal(shown.split(ordinary).length, text.split(ordinary).length);
      }
    }
  });
});

describe('jsonPrintable', () => {
  it('spells C1, bidi and separators as \\u escapes and reads back to the same value', () => {
    const value = { id: 'a\u009b\u202e\u2028\u{e0041}b', nested: ['x\u001b\n'] };
    const json = jsonPrintable(JSON.stringify(value, null, 2));
    assert.doesNotMatch(json, FORBIDDEN);
    assert.match(json, /\\u009b\\u202e\\u2028\\udb40\\udc41/);
    assert.deepEqual(JSON.parse(json), value);
  });
});
