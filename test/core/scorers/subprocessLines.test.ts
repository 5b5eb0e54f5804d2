import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LineSplitter } from '../../../core/scorers/support/processLines';
import { StreamTail } from '../../../core/scorers/support/processText';

function splitter(max: number) {
  const lines: string[] = [];
  let overflows = 0;
  const split = new LineSplitter(
    max,
    (line) => lines.push(line),
    () => overflows++,
  );
  return { split, lines, overflows: () => overflows };
}

describe('persistent scorer support: lines and stderr tails', () => {
  it('joins a line across chunks, keeps a UTF-8 character split between them whole, and drops \\r before \\n', () => {
    const { split, lines } = splitter(100);
    const bytes = Buffer.from('{"reason":"café"}\r\n{"a":1}\n{"b"', 'utf8');
    const cut = bytes.indexOf(0xa9); // the second byte of "é"
    split.push(bytes.subarray(0, cut));
    split.push(bytes.subarray(cut));
    assert.deepEqual(lines, ['{"reason":"café"}', '{"a":1}']);
    split.push(Buffer.from(':2}\n'));
    assert.deepEqual(lines, ['{"reason":"café"}', '{"a":1}', '{"b":2}']);
  });

  it('calls onOverflow once for a line over the cap, holds none of it, and reads the next line again', () => {
    const { split, lines, overflows } = splitter(8);
    split.push(Buffer.from('12345'));
    split.push(Buffer.from('67890'));
    split.push(Buffer.from('abcdef'));
    assert.equal(overflows(), 1);
    split.push(Buffer.from('ghi\nshort\n'));
    assert.deepEqual(lines, ['short']);
    assert.equal(overflows(), 1);
  });

  it('keeps the latest bytes of stderr within its cap and says when earlier ones were dropped', () => {
    const tail = new StreamTail(10);
    tail.push(Buffer.from('first line\n'));
    tail.push(Buffer.from('second\n'));
    tail.push(Buffer.from('end\n'));
    // The partial word at the cut is dropped too: it could be the end of a secret whose start was cut off.
    assert.equal(tail.text(), '…\nend\n');
    const accents = new StreamTail(7);
    accents.push(Buffer.from('ab éééé', 'utf8'));
    assert.equal(accents.text(), '…', 'never half a character, nor half a word');
    const words = new StreamTail(9);
    words.push(Buffer.from('xx éé éé', 'utf8'));
    assert.equal(words.text(), '… éé', 'the whole words after the cut stay');
    tail.clear();
    tail.push(Buffer.from('x'));
    assert.equal(tail.text(), 'x');
  });
});
