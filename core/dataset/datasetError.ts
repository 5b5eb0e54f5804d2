import { isAbsolute, relative } from 'node:path';
import type { SourceRange } from '../text/position';

/**
 * A dataset that cannot be read at all (missing file, wrong top-level shape, unknown format, a CSV
 * column declared but absent). It stops the run before it starts; single bad cases are records
 * instead. `message` is whole and readable ("cannot read dataset data/x.jsonl: no such file").
 */
export class DatasetError extends Error {
  constructor(
    /** Absolute path of the dataset. */
    readonly file: string,
    message: string,
    /** Where in the dataset, when the problem has a place (e.g. the top-level value). */
    readonly range?: SourceRange,
  ) {
    super(message);
    this.name = 'DatasetError';
  }
}

/** The path as a person would type it: relative to the working folder when inside it. */
export function displayPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split('\\').join('/') : file;
}

const REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a folder, not a file',
  ENOTDIR: 'a part of the path is not a folder',
  EMFILE: 'too many open files',
};

/**
 * Turns an I/O (system call) error of reading `file` into a DatasetError; anything else is returned as it is (a bug
 * is not a dataset problem and must keep its stack).
 */
export function unreadable(file: string, error: unknown): unknown {
  if (!(error instanceof Error) || !('syscall' in error) || !('code' in error) || typeof error.code !== 'string')
    return error;
  const reason = REASONS[error.code] ?? `system error ${error.code}`;
  return new DatasetError(file, `cannot read dataset ${displayPath(file)}: ${reason}`);
}
