import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { DatasetRecord } from '../../../core/case';
import { DatasetError } from '../../../core/dataset/datasetError';
import { datasetFormat, openDataset } from '../../../core/dataset/open';
import type { DatasetSource } from '../../../core/dataset/source';

const fixture = (name: string): string => join(__dirname, '../../fixtures/datasets', name);

async function read(source: DatasetSource): Promise<DatasetRecord[]> {
  const records: DatasetRecord[] = [];
  for await (const record of openDataset(source)) records.push(record);
  return records;
}

describe('openDataset', () => {
  it('picks the reader from the extension', async () => {
    assert.equal(datasetFormat({ path: '/d/a.jsonl' }), 'jsonl');
    assert.equal(datasetFormat({ path: '/d/a.NDJSON' }), 'jsonl');
    assert.equal(datasetFormat({ path: '/d/a.json' }), 'json');
    assert.equal(datasetFormat({ path: '/d/a.yml' }), 'yaml');
    assert.equal(datasetFormat({ path: '/d/a.yaml' }), 'yaml');
    assert.equal(datasetFormat({ path: '/d/a.csv' }), 'csv');
    assert.deepEqual(
      (await read({ path: fixture('cases.yaml') })).map((r) => r.ok && r.value.case.id),
      ['greet', 'case-2', '3'],
    );
  });

  it('uses an explicit format before the extension', async () => {
    const records = await read({ path: fixture('unknown-extension.txt'), format: 'jsonl' });
    assert.equal(records.length, 1);
    assert.ok(records[0]?.ok);
  });

  it('throws a clear DatasetError for an unknown extension, from the iteration', async () => {
    const iterable = openDataset({ path: fixture('unknown-extension.txt') });
    await assert.rejects(read({ path: fixture('unknown-extension.txt') }), (error: unknown) => {
      assert.ok(error instanceof DatasetError);
      assert.match(
        error.message,
        /^cannot tell the format of dataset .*unknown-extension\.txt: its extension "\.txt" is not one EvalLens reads; use \.jsonl, \.ndjson, \.json, \.yaml, \.yml or \.csv, or set its format$/,
      );
      return true;
    });
    assert.ok(Symbol.asyncIterator in iterable, 'opening does not throw; iterating does');
  });

  it('refuses columns on a dataset that is not CSV', () => {
    assert.throws(
      () => datasetFormat({ path: '/d/a.jsonl', columns: { score: 'number' } }),
      /columns only applies to CSV datasets/,
    );
  });

  it('passes columns to the CSV reader', async () => {
    const records = await read({ path: fixture('typed-columns.csv'), columns: { score: 'number' } });
    assert.ok(records[0]?.ok);
    assert.deepEqual(records[0].value.case.metadata, { score: 0.5, strict: 'TRUE', extra: '{"k": [1, 2]}' });
  });

  it('throws "cannot read dataset …: no such file" for a missing file', async () => {
    await assert.rejects(read({ path: join(process.cwd(), 'data', 'x.jsonl') }), (error: unknown) => {
      assert.ok(error instanceof DatasetError);
      assert.equal(error.message, 'cannot read dataset data/x.jsonl: no such file');
      return true;
    });
  });
});
