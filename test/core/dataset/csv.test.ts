import assert from 'node:assert/strict';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { DatasetRecord } from '../../../core/case';
import { failed, fixture, located, readAll } from '../../support/datasetRecords';
import { readCsv } from '../../../core/dataset/csv';
import { DatasetError } from '../../../core/dataset/datasetError';
import type { ColumnType } from '../../../core/dataset/source';

const read = (path: string, columns?: Record<string, ColumnType>): Promise<DatasetRecord[]> =>
  readAll(readCsv, columns === undefined ? { path } : { path, columns });

describe('CSV reader', () => {
  it('maps id, input, output, expected, context to case fields and other columns to metadata, as strings', async () => {
    const records = await read(fixture('cases.csv'));
    assert.deepEqual(located(records[0]).case, {
      id: 'q1',
      input: 'What is 2+2?',
      expected: '4',
      metadata: { difficulty: 'easy', source: 'book' },
    });
    assert.equal(located(records[2]).case.input, 'Comma, inside');
  });

  it('gives a row without an id (or with an empty id cell) the positional id line-N, and skips blank lines', async () => {
    const records = await read(fixture('cases.csv'));
    assert.deepEqual(
      records.map((r) => located(r).case.id),
      ['q1', 'line-3', 'q3'],
    );
    assert.deepEqual(located(records[2]).range.start, { offset: 82, line: 4, column: 0 });
    assert.equal(located(records[2]).index, 2);
  });

  it('keeps an empty cell of an untyped column as the empty string', async () => {
    const records = await read(fixture('cases.csv'));
    assert.equal(located(records[1]).case.expected, '');
  });

  it('reads typed columns: number, boolean (any case) and json', async () => {
    const records = await read(fixture('typed-columns.csv'), {
      id: 'number',
      score: 'number',
      strict: 'boolean',
      extra: 'json',
    });
    assert.deepEqual(located(records[0]).case, {
      id: '1',
      input: 'a',
      metadata: { score: 0.5, strict: true, extra: { k: [1, 2] } },
    });
    assert.deepEqual(located(records[2]).case.metadata, { score: -1000, strict: false, extra: null });
  });

  it('leaves an empty cell of a typed column absent, not null', async () => {
    const records = await read(fixture('typed-columns.csv'), { score: 'number', strict: 'boolean', extra: 'json' });
    assert.deepEqual(located(records[1]).case.metadata, { strict: false });
  });

  it('makes a cell that is not a number an error record at its exact line and column, naming the column and type', async () => {
    const records = await read(fixture('bad-number-cell.csv'), { score: 'number' });
    const bad = failed(records[1]);
    assert.deepEqual(bad.range.start, { offset: 37, line: 2, column: 10 });
    assert.deepEqual(bad.range.end, { offset: 40, line: 2, column: 13 });
    assert.equal(
      bad.message,
      'the "score" cell at line 3, column 11 is declared number, but it is not a finite decimal number',
    );
    assert.equal(bad.id, 'r2', 'the id cell could be read');
    assert.doesNotMatch(bad.message, /abc/);
    assert.equal(located(records[2]).case.input, 'quoted, cell');
  });

  it('finds the column of a bad cell after quoted cells that hold commas', async () => {
    const records = await read(fixture('bad-number-cell.csv'), { score: 'number' });
    assert.deepEqual(failed(records[3]).range.start, { offset: 73, line: 4, column: 12 });
  });

  it('names what is wrong with boolean and json cells', async () => {
    const records = await read(fixture('bad-boolean-json-cells.csv'), { strict: 'boolean', payload: 'json' });
    assert.equal(
      failed(records[0]).message,
      'the "strict" cell at line 2, column 4 is declared boolean, but it is neither true nor false',
    );
    assert.equal(
      failed(records[1]).message,
      `the "payload" cell at line 3, column 9 is declared json, but it is not valid JSON: unexpected character '}' at character 7 of the cell`,
    );
  });

  it('keeps line numbers right after a quoted cell that spans lines', async () => {
    const records = await read(fixture('multiline-quoted.csv'), { score: 'number' });
    const first = located(records[0]);
    assert.equal(first.case.input, 'first line\nsecond line\nthird line');
    assert.deepEqual(first.range.start, { offset: 15, line: 1, column: 0 });
    assert.deepEqual(first.range.end, { offset: 55, line: 3, column: 13 });
    assert.deepEqual(failed(records[1]).range.start, { offset: 65, line: 4, column: 9 });
    assert.equal(located(records[2]).case.id, 'm3');
    assert.deepEqual(located(records[2]).range.start, { offset: 68, line: 5, column: 0 });
  });

  it('drops a BOM and counts CRLF and UTF-16 units in offsets', async () => {
    const records = await read(fixture('crlf-bom.csv'), { score: 'number' });
    assert.equal(located(records[0]).case.input, 'caf\u00e9\r\nline two');
    assert.deepEqual(located(records[0]).range.start, { offset: 16, line: 1, column: 0 });
    assert.deepEqual(failed(records[1]).range.start, { offset: 45, line: 3, column: 6 });
  });

  it('makes a row with the wrong number of cells an error record, and reads the rows after it', async () => {
    const records = await read(fixture('wrong-cell-count.csv'));
    assert.equal(failed(records[1]).message, 'the row at line 3 has 3 cells, but the header has 2 columns');
    assert.deepEqual(failed(records[1]).range.start, { offset: 14, line: 2, column: 0 });
    assert.equal(failed(records[2]).message, 'the row at line 4 has 1 cell, but the header has 2 columns');
    assert.equal(failed(records[2]).id, 'line-4');
    assert.equal(located(records[3]).case.id, 'w4');
  });

  it('makes an unclosed quote an error record at the quote; the lines after it are read as rows (issue 13, item 12)', async () => {
    const records = await read(fixture('unclosed-quote.csv'));
    assert.equal(records.length, 3);
    assert.equal(located(records[0]).case.id, 'u1');
    const error = failed(records[1]);
    assert.deepEqual(error.range.start, { offset: 17, line: 2, column: 3 });
    assert.equal(
      error.message,
      'the row at line 3 is not valid CSV: a quoted cell is never closed (expected a closing `"` before the end of the file), at line 3, column 4',
    );
    assert.equal(located(records[2]).case.id, 'u3');
  });

  it('throws a DatasetError for a declared column that is not in the header', async () => {
    await assert.rejects(read(fixture('cases.csv'), { score: 'number' }), (error: unknown) => {
      assert.ok(error instanceof DatasetError);
      assert.match(
        error.message,
        /^columns declares "score", but the header of dataset .*cases\.csv has no such column \(it has "id", "input", "expected", "difficulty", "source"\)$/,
      );
      return true;
    });
  });

  it('throws a DatasetError for a header that names a column twice, and for an empty file', async () => {
    await assert.rejects(
      read(fixture('duplicate-header.csv')),
      (error: unknown) => error instanceof DatasetError && /has the column "input" twice$/.test(error.message),
    );
    await assert.rejects(
      read(fixture('empty.csv')),
      (error: unknown) =>
        error instanceof DatasetError && /is empty; a CSV dataset starts with a header row$/.test(error.message),
    );
  });

  it('throws a DatasetError for a missing file', async () => {
    await assert.rejects(
      read(fixture('missing.csv')),
      (error: unknown) =>
        error instanceof DatasetError && /^cannot read dataset .*missing\.csv: no such file$/.test(error.message),
    );
  });

  it('keeps positions exact across stream chunks in a larger file', async () => {
    const folder = fs.mkdtempSync(join(tmpdir(), 'evallens-csv-'));
    const file = join(folder, 'large.csv');
    try {
      const rows = Array.from({ length: 20_000 }, (_, i) =>
        i % 1000 === 999 ? `r${i},"two\nlines \u00e9",x` : `r${i},"plain, \u{1F600}",${i}`,
      );
      const text = `id,input,score\n${rows.join('\n')}\n`;
      fs.writeFileSync(file, text);
      const records = await read(file, { score: 'number' });
      assert.equal(records.length, 20_000);
      const lastBad = failed(records[19_999]);
      const expectedOffset = text.lastIndexOf(',x') + 1;
      const lineOfIt = text.slice(0, expectedOffset).split('\n').length - 1;
      assert.deepEqual(lastBad.range.start, {
        offset: expectedOffset,
        line: lineOfIt,
        column: expectedOffset - text.lastIndexOf('\n', expectedOffset) - 1,
      });
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
