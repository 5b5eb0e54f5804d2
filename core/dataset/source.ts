import type { DatasetRecord } from '../case';
import type { CaseSelection } from './caseSelection';
import type { ScoringSources } from '../evalhub/resolve';

/** The dataset formats EvalLens reads. */
export type DatasetFormat = 'jsonl' | 'json' | 'yaml' | 'csv' | 'lm_eval_results' | 'evalhub_results';

/** How a CSV cell is read. Cells are strings unless their column is declared otherwise. */
export type ColumnType = 'string' | 'number' | 'boolean' | 'json';

/** EvalBench's NL2SQL dataset formats (its `dataset_format` values that EvalLens reads itself). */
export type Nl2sqlFormat = 'evalbench-standard-format' | 'bird-standard-format';

/**
 * How to read an EvalBench NL2SQL dataset (`core/dataset/nl2sql.ts`), from the run config's
 * `dataset_format`, `dialects`, `query_types` and `databases`. Items the filters leave out are not
 * cases at all, as in EvalBench.
 */
export interface Nl2sqlSource {
  readonly format: Nl2sqlFormat;
  /** `dialects`: items supporting none of them are left out; the case is read for the first one the item supports. */
  readonly dialects?: readonly string[];
  /** `query_types` (dql, dml, ddl; any case): items of other types are left out. */
  readonly queryTypes?: readonly string[];
  /** `databases`: items on other databases are left out. */
  readonly databases?: readonly string[];
  /**
   * The config did not name the format (EvalBench's default, `evalbench-standard-format`, applies):
   * the file is read as NL2SQL only when it is a JSON array whose first object looks like an NL2SQL
   * item, else as an ordinary JSON dataset.
   */
  readonly inferred?: boolean;
}

/** EvalBench's `scenarios` / `scenario_pattern`: only the cases whose id is listed and matches the glob are read. */
export type { CaseSelection as CaseIdFilter } from './caseSelection';

/** Where a dataset is and how to read it, as the run config says. */
export interface DatasetSource {
  /** Absolute path of the dataset file. */
  readonly path: string;
  /** The format; when absent it comes from the file's extension. */
  readonly format?: DatasetFormat;
  /** CSV only: the type of some columns (by header name). */
  readonly columns?: Readonly<Record<string, ColumnType>>;
  /** Set for an EvalBench NL2SQL dataset: it is read by the NL2SQL reader, whatever its extension. */
  readonly nl2sql?: Nl2sqlSource;
  /** EvalBench's scenario filters, applied to the case ids of whatever the dataset holds. */
  readonly caseIds?: CaseSelection;
  /** The file's text as a host holds it (an editor's unsaved buffer), read instead of the file; ranges still name `path`. */
  readonly text?: string;
  /** Where an evalset's `${VAR}`s are read from (default: the process's); a run without trust gives one that reads nothing. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Benchmark results (`lm_eval_results`, `evalhub_results`): the config's EvalHub scoring inputs (core/evalhub). */
  readonly evalhub?: { readonly sources: ScoringSources; readonly providerId?: string };
}

/**
 * Reads a dataset, one record per case in file order. A record is a case or a case that could not be
 * read (it becomes an `error` result; the others still run). A file that cannot be read at all is a
 * thrown `DatasetError`, raised from the iteration (the first `next()`), never a record.
 */
export type DatasetReader = (source: DatasetSource) => AsyncIterable<DatasetRecord>;
