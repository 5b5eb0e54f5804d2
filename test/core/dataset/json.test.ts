import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DatasetRecord } from '../../../core/case';
import { failed, fixture, located, readAll } from '../../support/datasetRecords';
import { DatasetError } from '../../../core/dataset/datasetError';
import { readJson } from '../../../core/dataset/json';


const read = (name: string): Promise<DatasetRecord[]> => readAll(readJson, { path: fixture(name) });


describe('JSON reader', () => {
  it('reads an array of cases in order, with positional ids case-N', async () => {
    const records = await read('cases.json');
    assert.deepEqual(
      records.map((r) => located(r).case.id),
      ['a', 'case-2', '3'],
    );
    assert.deepEqual(located(records[0]).case, { id: 'a', input: 'x', expected: 'y' });
    assert.deepEqual(located(records[2]).case.metadata, { extra: true });
  });

  it("gives each case its element's exact range", async () => {
    const records = await read('cases.json');
    const second = located(records[1]);
    assert.deepEqual(second.range.start, { offset: 50, line: 2, column: 2 });
    assert.deepEqual(second.range.end, { offset: 68, line: 2, column: 20 });
    assert.equal(second.index, 1);
  });

  it('reads an object with a cases array', async () => {
    const records = await read('cases-object.json');
    assert.equal(records.length, 1);
    assert.equal(located(records[0]).case.id, 'only');
    assert.deepEqual(located(records[0]).range.start, { offset: 38, line: 3, column: 4 });
  });

  it('throws a DatasetError naming what the file holds when it is not an array of cases', async () => {
    await assert.rejects(read('not-an-array.json'), (error: unknown) => {
      assert.ok(error instanceof DatasetError);
      assert.match(error.message, /must hold a JSON array of cases \(or an object with a "cases" array\), but it holds an object without a "cases" field$/);
      assert.deepEqual(error.range?.start, { offset: 0, line: 0, column: 0 });
      return true;
    });
  });

  it('throws a DatasetError for an empty file', async () => {
    await assert.rejects(read('empty.json'), (error: unknown) => error instanceof DatasetError && /but the file is empty$/.test(error.message));
  });

  it('makes a syntax error one error record at its position, after the cases before it, and reads nothing after it', async () => {
    const records = await read('syntax-error.json');
    assert.equal(records.length, 2);
    assert.equal(located(records[0]).case.id, 'a');
    const error = failed(records[1]);
    assert.deepEqual(error.range.start, { offset: 44, line: 2, column: 27 });
    assert.equal(error.id, 'case-2');
    assert.equal(error.index, 1);
    assert.equal(error.message, `not valid JSON at line 3, column 28: expected ',' between values, found '"'; the rest of the file is not read until this is fixed`);
  });

  it('makes an element that is not an object an error record, and checks duplicate ids', async () => {
    const records = await read('element-not-object.json');
    assert.equal(failed(records[1]).message, 'a case must be a JSON object, this element is a number');
    assert.equal(failed(records[1]).id, 'case-2');
    assert.equal(failed(records[2]).message, 'duplicate case id "a"; first defined at line 2');
    assert.equal(failed(records[2]).id, 'case-3');
  });

  it('throws a DatasetError for a missing file', async () => {
    await assert.rejects(read('missing.json'), (error: unknown) => error instanceof DatasetError && /^cannot read dataset .*missing\.json: no such file$/.test(error.message));
  });
});
