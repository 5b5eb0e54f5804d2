/**
 * Issue 13, item 12: a stray quote merged CSV rows silently (5 rows became 3 cases). Rows are read
 * as RFC 4180 writes them; a malformed row is an error record naming its line, and every other row
 * is read.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { DatasetRecord } from '../../../core/case';
import { readCsv } from '../../../core/dataset/csv';
import { MAX_ROW_CHARACTERS } from '../../../core/dataset/csvTextRows';
import { DatasetError } from '../../../core/dataset/datasetError';
import { failed, located, readAll } from '../../support/datasetRecords';

const read = (text: string): Promise<DatasetRecord[]> => readAll(readCsv, { path: '/data/rows.csv', text });
const outcome = (r: DatasetRecord): string =>
  r.ok
    ? `case ${r.value.case.id ?? ''}`
    : `error line ${r.error.range.start.line + 1}:${r.error.range.start.column + 1}`;

describe('CSV rows with stray quotes (RFC 4180)', () => {
  it('the 5-row file gives 5 outcomes: a stray quote and an unclosed quote are errors at their line, the other rows are cases', async () => {
    const text = 'id,output,expected\n1,a,a\n2,"he said "hi" twice,a\n3,b,b\n4,"never closed,c\n5,d,d\n';
    const records = await read(text);
    assert.deepEqual(records.map(outcome), ['case 1', 'error line 3:13', 'case 3', 'error line 5:3', 'case 5']);
    assert.match(
      failed(records[1]).message,
      /^the row at line 3 is not valid CSV: text after the closing quote of a quoted cell .* at line 3, column 13$/,
    );
    assert.match(failed(records[3]).message, /^the row at line 5 is not valid CSV: a quoted cell is never closed/);
  });

  it('a quote inside an unquoted cell is an error at the quote', async () => {
    const records = await read('id,output\n1,say "hi\n2,x\n');
    assert.deepEqual(records.map(outcome), ['error line 2:7', 'case 2']);
    assert.match(
      failed(records[0]).message,
      /a quote inside a cell that does not start with one \(quote the whole cell and write the quote as `""`\)/,
    );
  });

  it('a quote that opens a cell and closes rows later with text after it does not swallow those rows', async () => {
    const records = await read('id,output\n1,"abc\n2,x\n3,y"z\n4,w\n');
    assert.deepEqual(records.map(outcome), ['error line 2:3', 'case 2', 'error line 4:4', 'case 4']);
  });

  it('still reads what RFC 4180 allows: quoted commas, doubled quotes, line breaks in quotes, CRLF, a last row without a line break', async () => {
    const records = await read('id,output\r\n1,"a, ""b"""\r\n2,"two\nlines"\r\n3,plain');
    assert.deepEqual(
      records.map((r) => located(r).case.output),
      ['a, "b"', 'two\nlines', 'plain'],
    );
  });

  it('a malformed header is refused at its place', async () => {
    await assert.rejects(
      read('id,"out"put\n1,a\n'),
      (error: unknown) =>
        error instanceof DatasetError &&
        /the header row at line 1 is not valid CSV: text after the closing quote/.test(error.message),
    );
  });

  it('a quote left open in a large file stops at the row cap, read in chunks from disk (never held whole)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evallens-csv-open-'));
    try {
      const file = join(dir, 'open.csv');
      writeFileSync(
        file,
        `id,output\n1,"open\n${'2,plain text that goes on\n'.repeat(Math.ceil((1.5 * MAX_ROW_CHARACTERS) / 26))}`,
      );
      const records = await readAll(readCsv, { path: file });
      assert.equal(records.length, 1);
      assert.match(
        failed(records[0]).message,
        new RegExp(`the row at line 2 is longer than ${MAX_ROW_CHARACTERS} characters \\(is a quote left open\\?\\)`),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
