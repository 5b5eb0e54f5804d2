import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { DatasetRecord } from '../../../core/case';
import { failed, fixture, located, readAll } from '../../support/datasetRecords';
import { DatasetError } from '../../../core/dataset/datasetError';
import { readJsonl } from '../../../core/dataset/jsonl';
import { MAX_CASE_CHARS } from '../../../core/dataset/jsonStream';

const read = (name: string): Promise<DatasetRecord[]> => readAll(readJsonl, { path: fixture(name) });

describe('JSONL reader', () => {
  it('reads one case per line in file order and skips blank and white-space-only lines', async () => {
    const records = await read('cases.jsonl');
    assert.deepEqual(
      records.map((r) => located(r).case.id),
      ['capital-fr', 'line-2', '7'],
    );
    assert.deepEqual(
      records.map((r) => located(r).index),
      [0, 1, 2],
    );
    assert.deepEqual(located(records[0]).case, {
      id: 'capital-fr',
      input: 'Capital of France?',
      output: 'Paris',
      expected: 'Paris',
    });
  });

  it('gives a case without an id the positional id line-N (1-based line)', async () => {
    const [, second] = await read('cases.jsonl');
    assert.equal(located(second).case.id, 'line-2');
  });

  it('turns a number id into its string form', async () => {
    const records = await read('cases.jsonl');
    assert.equal(located(records[2]).case.id, '7');
  });

  it('puts fields that are not case fields into metadata', async () => {
    const records = await read('cases.jsonl');
    assert.deepEqual(located(records[2]).case.metadata, { difficulty: 'easy', tag: 'num' });
  });

  it('gives each case the range of its whole line', async () => {
    const records = await read('cases.jsonl');
    const third = located(records[2]);
    assert.deepEqual(third.range.start, { offset: 146, line: 4, column: 0 });
    assert.deepEqual(third.range.end, { offset: 223, line: 4, column: 77 });
    assert.equal(third.range.file, fixture('cases.jsonl'));
  });

  it('makes a malformed line an error record at the exact line and column where parsing failed', async () => {
    const records = await read('malformed-line.jsonl');
    const unexpected = failed(records[1]);
    assert.deepEqual(unexpected.range.start, { offset: 62, line: 1, column: 36 });
    assert.deepEqual(unexpected.range.end, { offset: 63, line: 1, column: 37 });
    assert.equal(unexpected.message, "line 2 is not valid JSON: unexpected character '}' at column 37");
    assert.equal(unexpected.id, 'line-2');
    const truncated = failed(records[2]);
    assert.deepEqual(truncated.range.start, { offset: 88, line: 2, column: 24 });
    assert.equal(truncated.message, "line 3 is not valid JSON: expected ',' or '}' after property value at column 25");
  });

  it('never quotes the text of a malformed line beyond the offending character', async () => {
    const records = await read('malformed-line.jsonl');
    for (const record of records.filter((r) => !r.ok))
      assert.doesNotMatch(failed(record).message, /"output"|"input"|"z"/);
  });

  it('still reads the cases after a malformed line', async () => {
    const records = await read('malformed-line.jsonl');
    assert.deepEqual(
      records.map((r) => (r.ok ? r.value.case.id : `error:${r.error.id}`)),
      ['a', 'error:line-2', 'error:line-3', 'd'],
    );
    assert.equal(located(records[3]).index, 3);
  });

  it('makes a line that is not a JSON object an error record naming what it is', async () => {
    const records = await read('not-an-object.jsonl');
    assert.equal(failed(records[1]).message, 'a case must be a JSON object, this line is an array');
    assert.equal(failed(records[2]).message, 'a case must be a JSON object, this line is a string');
    assert.equal(failed(records[3]).message, 'a case must be a JSON object, this line is null');
    assert.deepEqual(failed(records[1]).range.start, { offset: 12, line: 1, column: 0 });
    assert.equal(located(records[4]).case.id, 'e');
  });

  it('makes a later duplicate id an error record pointing at the first, while the first still runs', async () => {
    const records = await read('duplicate-ids.jsonl');
    assert.equal(located(records[0]).case.id, 'x');
    const duplicate = failed(records[2]);
    assert.equal(duplicate.message, 'duplicate case id "x"; first defined at line 1');
    assert.deepEqual(duplicate.range.start, { offset: 49, line: 3, column: 0 });
    assert.equal(duplicate.id, 'line-4', 'the duplicate gets its own positional id, so every record id is unique');
  });

  it('treats a positional id and an explicit id alike when they collide', async () => {
    const records = await read('duplicate-ids.jsonl');
    assert.equal(located(records[3]).case.id, 'line-5');
    assert.equal(failed(records[4]).message, 'duplicate case id "line-5"; first defined at line 5');
  });

  it('drops a BOM and counts CRLF line ends in offsets, in UTF-16 code units', async () => {
    const records = await read('crlf-bom.jsonl');
    const first = located(records[0]);
    assert.deepEqual(first.range.start, { offset: 0, line: 0, column: 0 });
    assert.deepEqual(
      first.range.end,
      { offset: 31, line: 0, column: 31 },
      'the emoji is two UTF-16 units; the \\r is not part of the line',
    );
    assert.equal(first.case.input, 'caf\u00e9 \u{1F600}');
    const malformed = failed(records[1]);
    assert.deepEqual(malformed.range.start, { offset: 56, line: 2, column: 21 });
    const last = located(records[2]);
    assert.deepEqual(last.range.start, { offset: 63, line: 3, column: 0 });
    assert.equal(last.case.id, 'c', 'a last line without a line end is read');
  });

  it('makes a schema violation an error record naming the field and what was expected', async () => {
    const records = await read('schema-violation.jsonl');
    assert.equal(located(records[0]).case.id, 'ok');
    const metadata = failed(records[1]);
    assert.equal(metadata.message, 'field "metadata" must be an object, not an array');
    assert.equal(metadata.id, 'm', 'an error record keeps the case id when it could be read');
    assert.deepEqual(metadata.range.start, { offset: 13, line: 1, column: 0 });
    const badId = failed(records[2]);
    assert.equal(badId.message, 'field "id" must be a string or a number, not an object');
    assert.equal(badId.id, 'line-3');
    assert.equal(
      failed(records[3]).message,
      'field "trace.steps" must be an array, not a string; field "trace.latency_ms" must be >= 0',
    );
    assert.equal(failed(records[4]).message, 'field "id" must not be empty');
  });

  it('throws a DatasetError a person understands for a missing file', async () => {
    const missing = fixture('no-such-dataset.jsonl');
    await assert.rejects(read('no-such-dataset.jsonl'), (error: unknown) => {
      assert.ok(error instanceof DatasetError);
      assert.equal(error.file, missing);
      assert.equal(error.message, 'cannot read dataset test/fixtures/datasets/no-such-dataset.jsonl: no such file');
      return true;
    });
  });

  it('throws a DatasetError for a folder given as the dataset', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'evallens-jsonl-'));
    try {
      await assert.rejects(
        async () => {
          for await (const _ of readJsonl({ path: folder })) assert.fail('no record expected');
        },
        (error: unknown) => error instanceof DatasetError && /it is a folder, not a file$/.test(error.message),
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('makes a line longer than MAX_CASE_CHARS an error record at its line, and reads the next line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evallens-jsonl-'));
    try {
      const file = join(dir, 'long.jsonl');
      const long = `{"id":"long","output":"${'x'.repeat(MAX_CASE_CHARS)}"}`;
      writeFileSync(file, `{"id":"a"}\n${long}\n{"id":"b"}\n`);
      const records = await readAll(readJsonl, { path: file });
      assert.equal(records.length, 3);
      assert.equal(located(records[0]).case.id, 'a');
      const error = failed(records[1]);
      assert.equal(error.id, 'line-2');
      assert.equal(error.range.start.line, 1);
      assert.equal(
        error.message,
        `line 2 is ${long.length} characters long; expected a case of at most ${MAX_CASE_CHARS} characters per line (the line is not read)`,
      );
      assert.equal(located(records[2]).case.id, 'b');
      assert.equal(located(records[2]).range.start.line, 2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
