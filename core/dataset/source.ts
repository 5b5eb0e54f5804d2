import type { DatasetRecord } from '../case';

/** The dataset formats EvalLens reads. */
export type DatasetFormat = 'jsonl' | 'json' | 'yaml' | 'csv';

/** How a CSV cell is read. Cells are strings unless their column is declared otherwise. */
export type ColumnType = 'string' | 'number' | 'boolean' | 'json';

/** Where a dataset is and how to read it, as the run config says. */
export interface DatasetSource {
  /** Absolute path of the dataset file. */
  readonly path: string;
  /** The format; when absent it comes from the file's extension. */
  readonly format?: DatasetFormat;
  /** CSV only: the type of some columns (by header name). */
  readonly columns?: Readonly<Record<string, ColumnType>>;
}

/**
 * Reads a dataset, one record per case in file order. A record is a case or a case that could not be
 * read (it becomes an `error` result; the others still run). A file that cannot be read at all is a
 * thrown `DatasetError`, raised from the iteration (the first `next()`), never a record.
 */
export type DatasetReader = (source: DatasetSource) => AsyncIterable<DatasetRecord>;
