import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { linesOf, type TextLine } from '../../../core/dataset/textLines';

async function* chunksOf(bytes: Buffer, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function lines(text: string, chunkSize: number, bom = false, maxLineChars?: number): Promise<TextLine[]> {
  const bytes = Buffer.concat([Buffer.from(bom ? [0xef, 0xbb, 0xbf] : []), Buffer.from(text, 'utf8')]);
  const out: TextLine[] = [];
  for await (const line of linesOf(chunksOf(bytes, chunkSize), maxLineChars)) out.push(line);
  return out;
}

describe('line splitting of a byte stream', () => {
  it('gives the same lines, numbers and UTF-16 offsets whatever the chunk size, even inside multi-byte characters', async () => {
    const text = 'a\u00e9b\r\n\u{1F600}x\n\nlast';
    const expected: TextLine[] = [
      { text: 'a\u00e9b', line: 0, offset: 0 },
      { text: '\u{1F600}x', line: 1, offset: 5 },
      { text: '', line: 2, offset: 9 },
      { text: 'last', line: 3, offset: 10 },
    ];
    for (const size of [1, 2, 3, 5, 64]) assert.deepEqual(await lines(text, size), expected, `chunk size ${size}`);
  });

  it('drops a BOM split across chunks without counting it', async () => {
    assert.deepEqual(await lines('x\ny', 1, true), [
      { text: 'x', line: 0, offset: 0 },
      { text: 'y', line: 1, offset: 2 },
    ]);
  });

  it('yields no extra line after a final line end', async () => {
    assert.deepEqual(await lines('x\n', 4), [{ text: 'x', line: 0, offset: 0 }]);
  });

  it('gives a line over the maximum as its length only, and goes on with the next line at the right offset', async () => {
    const expected: TextLine[] = [
      { text: 'ok', line: 0, offset: 0 },
      { text: '', line: 1, offset: 3, overLength: 10 },
      { text: 'next', line: 2, offset: 15 },
      { text: '', line: 3, offset: 20, overLength: 6 },
    ];
    for (const size of [1, 3, 64])
      assert.deepEqual(await lines('ok\n0123456789\r\nnext\nabcdef', size, false, 5), expected, `chunk size ${size}`);
  });
});
