import { isAbsolute, relative, sep } from 'node:path';
import type { SourceRange } from '../../core/text/position';

/** A path as people read it: relative to `cwd` when absolute, with `/` separators. */
export function displayPath(cwd: string, file: string): string {
  const shown = isAbsolute(file) ? relative(cwd, file) || file : file;
  return sep === '/' ? shown : shown.split(sep).join('/');
}

/** The 1-based line and column of a range's start (core counts from 0). */
export function humanStart(range: SourceRange): { readonly line: number; readonly column: number } {
  return { line: range.start.line + 1, column: range.start.column + 1 };
}
