import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import type { DatasetRecord } from '../case';
import { readCsv } from './csv';
import { DatasetError, displayPath } from './datasetError';
import { readJson } from './json';
import { readJsonl } from './jsonl';
import { readNl2sql } from './nl2sql';
import { caseSelector } from './caseSelection';
import type { DatasetFormat, DatasetReader, DatasetSource } from './source';
import { readYaml } from './yaml';
import { readBenchmarkResults } from './benchmarkResults';

const READERS: Readonly<Record<DatasetFormat, DatasetReader>> = {
  jsonl: readJsonl,
  json: readJson,
  yaml: readYaml,
  csv: readCsv,
  lm_eval_results: readBenchmarkResults,
  evalhub_results: readBenchmarkResults,
};

const EXTENSIONS: Readonly<Record<string, DatasetFormat>> = {
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
  '.json': 'json',
  '.yaml': 'yaml',
  '.yml': 'yaml',
  '.csv': 'csv',
};

/**
 * The format of a dataset: `source.format`, else from its extension (case-insensitive). An unknown
 * extension, or `columns` on a dataset that is not CSV, is a DatasetError. Needs no I/O, so a host can
 * check a config early.
 */
export function datasetFormat(source: DatasetSource): DatasetFormat {
  const extension = extname(source.path).toLowerCase();
  const format = source.format ?? EXTENSIONS[extension];
  if (format === undefined) {
    const seen = extension === '' ? 'it has no extension' : `its extension "${extension}" is not one EvalLens reads`;
    throw new DatasetError(
      source.path,
      `cannot tell the format of dataset ${displayPath(source.path)}: ${seen}; use .jsonl, .ndjson, .json, .yaml, .yml or .csv, or set its format`,
    );
  }
  if (format !== 'csv' && Object.keys(source.columns ?? {}).length > 0) {
    throw new DatasetError(
      source.path,
      `columns only applies to CSV datasets, and dataset ${displayPath(source.path)} is read as ${format}`,
    );
  }
  return format;
}

/**
 * Reads a dataset with the reader of its format, one record per case in file order: an EvalBench
 * NL2SQL dataset (`source.nl2sql`) with the NL2SQL reader, anything else by its format. With
 * `source.caseIds`, only the records whose id passes are yielded. Every DatasetError (unknown format,
 * unreadable file, wrong top-level shape) is thrown from the iteration, so one `try` around the
 * `for await` catches them all.
 */
export async function* openDataset(source: DatasetSource): AsyncGenerator<DatasetRecord> {
  // A folder (`dataset: .`) is said to be one, not a file without an extension; other stat failures are the readers' to say.
  if (
    await stat(source.path).then(
      (s) => s.isDirectory(),
      () => false,
    )
  ) {
    throw new DatasetError(
      source.path,
      `dataset ${displayPath(source.path)} is a folder, not a dataset file: name a .jsonl, .ndjson, .json, .yaml, .yml or .csv file`,
    );
  }
  const records = source.nl2sql !== undefined ? readNl2sql(source) : READERS[datasetFormat(source)](source);
  if (source.caseIds === undefined) {
    yield* records;
    return;
  }
  const keep = caseSelector(source.caseIds);
  for await (const record of records) {
    if (keep(record.ok ? record.value.case.id : record.error.id)) yield record;
  }
}
