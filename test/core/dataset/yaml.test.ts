import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DatasetRecord } from '../../../core/case';
import { failed, fixture, located, readAll } from '../../support/datasetRecords';
import { DatasetError } from '../../../core/dataset/datasetError';
import { readYaml } from '../../../core/dataset/yaml';

const read = (name: string): Promise<DatasetRecord[]> => readAll(readYaml, { path: fixture(name) });

describe('YAML reader', () => {
  it('reads a list of cases in order, with positional ids case-N', async () => {
    const records = await read('cases.yaml');
    assert.deepEqual(
      records.map((r) => located(r).case.id),
      ['greet', 'case-2', '3'],
    );
    assert.deepEqual(located(records[2]).case, { id: '3', input: [1, 2], metadata: { tags: ['smoke'] } });
  });

  it("gives each case its item node's range, without the trailing line break", async () => {
    const records = await read('cases.yaml');
    const first = located(records[0]);
    assert.deepEqual(first.range.start, { offset: 19, line: 1, column: 2 });
    assert.deepEqual(first.range.end, { offset: 58, line: 3, column: 14 });
  });

  it('reads a mapping with a cases list', async () => {
    const records = await read('cases-mapping.yaml');
    assert.deepEqual(
      records.map((r) => located(r).case.id),
      ['one', 'case-2'],
    );
    assert.deepEqual(located(records[0]).range.start, { offset: 23, line: 2, column: 4 });
  });

  it('throws a DatasetError naming what the file holds when it is not a list of cases', async () => {
    await assert.rejects(read('not-a-list.yaml'), (error: unknown) => {
      assert.ok(error instanceof DatasetError);
      assert.match(
        error.message,
        /must hold a list of cases \(or a mapping with a "cases" list\), but it holds a mapping without a "cases" key$/,
      );
      return true;
    });
  });

  it('makes a syntax error an error record at its position; cases that reach it or come after it are not read', async () => {
    const records = await read('syntax-error.yaml');
    assert.equal(records.length, 2);
    assert.equal(located(records[0]).case.id, 'a');
    const error = failed(records[1]);
    assert.deepEqual(error.range.start, { offset: 42, line: 4, column: 0 });
    assert.equal(error.id, 'case-2');
    assert.match(
      error.message,
      /^YAML syntax error at line 5, column 1: Flow sequence .*; the rest of the file is not read until this is fixed$/,
    );
  });

  it('makes duplicate ids and items that are not mappings error records', async () => {
    const records = await read('duplicate-ids.yaml');
    assert.equal(located(records[0]).case.id, 'same');
    assert.equal(failed(records[2]).message, 'duplicate case id "same"; first defined at line 1');
    assert.equal(failed(records[2]).id, 'case-3');
    assert.equal(failed(records[3]).message, 'a case must be a mapping of fields, this item is a string');
  });

  it('makes a schema violation an error record at the case, in YAML words', async () => {
    const [record] = await read('schema-violation.yaml');
    const error = failed(record);
    assert.equal(error.message, 'field "metadata" must be a mapping, not a list');
    assert.equal(error.id, 'a');
    assert.deepEqual(error.range.start, { offset: 2, line: 0, column: 2 });
  });
});
