import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { CaseReadError, DatasetRecord, LocatedCase } from '../../core/case';
import type { DatasetReader, DatasetSource } from '../../core/dataset/source';

/** A file under test/fixtures/datasets/. */
export const fixture = (name: string): string => join(__dirname, '..', 'fixtures', 'datasets', name);

/** Every record a reader yields for `source`, in order. */
export async function readAll(reader: DatasetReader, source: DatasetSource): Promise<DatasetRecord[]> {
  const records: DatasetRecord[] = [];
  for await (const record of reader(source)) records.push(record);
  return records;
}

/** The case of a record that must be one. */
export function located(record: DatasetRecord | undefined): LocatedCase {
  assert.ok(record?.ok, `expected a case, got ${JSON.stringify(record)}`);
  return record.value;
}

/** The error of a record that must be one. */
export function failed(record: DatasetRecord | undefined): CaseReadError {
  assert.ok(record !== undefined && !record.ok, `expected an error record, got ${JSON.stringify(record)}`);
  return record.error;
}
