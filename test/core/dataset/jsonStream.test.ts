import assert from 'node:assert/strict';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { DatasetRecord } from '../../../core/case';
import { readJson } from '../../../core/dataset/json';
import { JsonListScanner, type ScanEvent } from '../../../core/dataset/jsonListScanner';
import { LineIndex } from '../../../core/text/position';
import { failed, located, readAll } from '../../support/datasetRecords';
import { withSpiedStreams } from '../../support/spiedStreams';

function writeLarge(file: string, head: string, count: number, item: (i: number) => string, tail: string): number {
  const out = fs.openSync(file, 'w');
  try {
    fs.writeSync(out, head);
    const block: string[] = [];
    for (let i = 0; i < count; i++) {
      block.push(item(i));
      if (block.length === 5_000 || i === count - 1)
        fs.writeSync(out, `${i < 5_000 ? '' : ',\n'}${block.splice(0).join(',\n')}`);
    }
    fs.writeSync(out, tail);
  } finally {
    fs.closeSync(out);
  }
  return fs.statSync(file).size;
}

const COUNT = 60_000;

describe('JSON reader: streaming', () => {
  it('yields the first case of a large array long before the file is read, and reads every case', async () => {
    await withSpiedStreams(async (folder, streams) => {
      const file = join(folder, 'large.json');
      const size = writeLarge(
        file,
        '[\n',
        COUNT,
        (i) =>
          JSON.stringify({
            id: `c${i}`,
            input: `question ${i} {with [brackets]} and "quotes"`,
            expected: 'é'.repeat(i % 7),
          }),
        '\n]\n',
      );
      let count = 0;
      let bytesAtFirst: number | undefined;
      let last = '';
      for await (const record of readJson({ path: file })) {
        if (count === 0) bytesAtFirst = streams.at(-1)?.bytesRead;
        last = located(record).case.id;
        count += 1;
      }
      assert.ok(
        bytesAtFirst !== undefined && bytesAtFirst < size / 20,
        `read ${bytesAtFirst} of ${size} bytes before the first case`,
      );
      assert.equal(count, COUNT);
      assert.equal(last, `c${COUNT - 1}`);
    });
  });

  it('reads an evalset in two passes, the second yielding its first scenario long before the end', async () => {
    await withSpiedStreams(async (folder, streams) => {
      const file = join(folder, 'evalset.json');
      const size = writeLarge(
        file,
        '{"name": "big",\n"scenarios": [\n',
        COUNT,
        (i) => JSON.stringify({ id: `s${i}`, starting_prompt: `prompt ${i}`, expected_trajectory: ['a__b'] }),
        '\n]}\n',
      );
      let streamsAtFirst = 0;
      let bytesAtFirst: number | undefined;
      let count = 0;
      for await (const record of readJson({ path: file })) {
        if (count === 0) {
          streamsAtFirst = streams.length;
          bytesAtFirst = streams.at(-1)?.bytesRead;
        }
        assert.ok(record.ok);
        count += 1;
      }
      assert.equal(streamsAtFirst, 2, 'a first pass over the fields, then the reading pass');
      assert.ok(
        bytesAtFirst !== undefined && bytesAtFirst < size / 20,
        `read ${bytesAtFirst} of ${size} bytes before the first scenario`,
      );
      assert.equal(count, COUNT);
    });
  });
});

describe('JSON reader: positions and errors while streaming', () => {
  async function readText(text: string): Promise<DatasetRecord[]> {
    const folder = fs.mkdtempSync(join(tmpdir(), 'evallens-json-pos-'));
    try {
      const file = join(folder, 'd.json');
      fs.writeFileSync(file, text);
      return await readAll(readJson, { path: file });
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  }

  it('gives each element the span the whole-text line index gives, across 64 KiB chunks, CRLF and lone CR line ends and multibyte text', async () => {
    const parts: string[] = [];
    for (let i = 0; i < 4_000; i++)
      parts.push(
        `${i % 3 === 0 ? '\r\n' : i % 3 === 1 ? '\r' : '\n'}  {"id": "e${i}", "input": "ünïcødé 🙂 ${'x'.repeat(i % 50)}", "expected": {"a": [1, "]", "\\"}"]}}`,
      );
    const text = `[${parts.join(',')}\n]`;
    const lines = new LineIndex(text);
    const records = await readText(text);
    assert.equal(records.length, 4_000);
    let from = 0;
    for (const [i, record] of records.entries()) {
      const start = text.indexOf('{"id"', from);
      const end = text.indexOf('}}', start) + 2;
      from = end;
      const range = located(record).range;
      assert.deepEqual([range.start, range.end], [lines.position(start), lines.position(end)], `element ${i}`);
    }
  });

  it('places a syntax error inside an element at its line and column in the file, after the cases before it', async () => {
    const records = await readText('[\n  {"id": "a"},\n  {"id": "b",\n   "input": tru}\n]');
    assert.equal(located(records[0]).case.id, 'a');
    const error = failed(records[1]);
    assert.equal(
      error.message,
      "not valid JSON at line 4, column 13: unexpected character 't'; the rest of the file is not read until this is fixed",
    );
    assert.deepEqual(error.range.start, { offset: 43, line: 3, column: 12 });
    assert.equal(records.length, 2);
  });

  it('reports a trailing comma, an unclosed array and text after the root where they are', async () => {
    assert.equal(
      failed((await readText('[{"id": "a"},\n]'))[1]).message,
      "not valid JSON at line 2, column 1: expected a value, found ']'; the rest of the file is not read until this is fixed",
    );
    assert.equal(
      failed((await readText('[{"id": "a"}'))[1]).message,
      "not valid JSON at line 1, column 13: expected ']' to close the array, found the end of the file; the rest of the file is not read until this is fixed",
    );
    assert.equal(
      failed((await readText('[{"id": "a"}] x'))[1]).message,
      "not valid JSON at line 1, column 15: expected the end of the file after the JSON value, found 'x'; the rest of the file is not read until this is fixed",
    );
    assert.equal(
      failed((await readText('[{"id": "a"}, {"id": "b"'))[1]).message,
      "not valid JSON at line 1, column 25: expected '}' to close the object, found the end of the file; the rest of the file is not read until this is fixed",
    );
  });

  it('checks the root fields around the list: a broken field after the list is an error after every case', async () => {
    const records = await readText('{"cases": [{"id": "a"}, {"id": "b"}],\n "meta": {"v": 01}}');
    assert.deepEqual(
      records.slice(0, 2).map((r) => located(r).case.id),
      ['a', 'b'],
    );
    assert.match(failed(records[2]).message, /^not valid JSON at line 2, column \d+: /);
  });
});

describe('JsonListScanner', () => {
  const text = '{"meta": {"x": "}"},\r\n "cases": [ {"id": "a\\"]"}, 7, "s", null,\r{"n": [[]]} ]}';

  function events(pieces: readonly string[], maxItemChars = 1_000): ScanEvent[] {
    const scanner = new JsonListScanner({ listKey: 'cases', maxItemChars });
    return [...pieces.flatMap((piece) => scanner.push(piece)), ...scanner.end()];
  }

  it('gives the same events whether the text comes whole or one character at a time', () => {
    const whole = events([text]);
    assert.deepEqual(events([...text]), whole);
    assert.deepEqual(
      whole.filter((e) => e.kind === 'item').map((e) => (e.kind === 'item' ? e.text : '')),
      ['{"id": "a\\"]"}', '7', '"s"', 'null', '{"n": [[]]}'],
    );
    const last = whole.filter((e) => e.kind === 'item').at(-1);
    assert.deepEqual(last?.kind === 'item' ? last.start : undefined, {
      offset: text.indexOf('{"n"'),
      line: 2,
      column: 0,
    });
  });

  it('stops at an element longer than the bound, keeping no more than it', () => {
    const scanner = new JsonListScanner({ listKey: undefined, maxItemChars: 100 });
    const out = [
      ...scanner.push('[{"id": "a"}, {"input": "'),
      ...scanner.push('y'.repeat(500)),
      ...scanner.push('"}]'),
      ...scanner.end(),
    ];
    assert.deepEqual(
      out.map((e) => e.kind),
      ['item', 'tooLarge'],
    );
    assert.equal(scanner.done, true);
  });
});
