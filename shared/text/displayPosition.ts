import type { SourceRange } from '../../core/text/position';

/*
 * Core counts lines and columns from 0 (as LSP does); people, `file:line:col`, report locations and
 * `validate --cases` count from 1. These are the one place 1 is added or taken away, at each boundary
 * (CONTRIBUTING.md lists them). They live in shared/ because the extension and the view convert too.
 */

/** A line and column as people read them, counted from 1: `file:line:col`, report locations, `validate --cases`. */
export interface DisplayPosition {
  readonly line: number;
  readonly column: number;
}

/** Core's 0-based line and column as a person reads them: the one place 1 is added. */
export function toDisplay(position: { readonly line: number; readonly column: number }): DisplayPosition {
  return { line: position.line + 1, column: position.column + 1 };
}

/** A 1-based line and column read back from a printed report or list, as core and editors count: the one place 1 is taken away. */
export function fromDisplay(position: DisplayPosition): { readonly line: number; readonly column: number } {
  return { line: position.line - 1, column: position.column - 1 };
}

/** `line:column` of a position, 1-based, as `file:line:col` prints it. */
export function displayLineColumn(position: { readonly line: number; readonly column: number }): string {
  const shown = toDisplay(position);
  return `${shown.line}:${shown.column}`;
}

/** A range with both ends shown 1-based (offsets stay as they are): the printed form of `validate --cases`. */
export function toDisplayRange(range: SourceRange): SourceRange {
  return { file: range.file, start: { ...range.start, ...toDisplay(range.start) }, end: { ...range.end, ...toDisplay(range.end) } };
}

/** A printed (1-based) range read back as core counts. */
export function fromDisplayRange(range: SourceRange): SourceRange {
  return { file: range.file, start: { ...range.start, ...fromDisplay(range.start) }, end: { ...range.end, ...fromDisplay(range.end) } };
}
