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

/** A 0-based line as a person reads it, counted from 1: "at line N", `line-N` case ids, a CSV row's line. */
export function displayLine(line: number): number {
  return toDisplay({ line, column: 0 }).line;
}

/** A 0-based column (UTF-16 units from the line's start) as a person reads it, counted from 1. */
export function displayColumn(column: number): number {
  return toDisplay({ line: 0, column }).column;
}

/** `line L, column C` of a position, 1-based, as messages word it. */
export function displayLineAndColumn(position: { readonly line: number; readonly column: number }): string {
  const shown = toDisplay(position);
  return `line ${shown.line}, column ${shown.column}`;
}

/** `line:column` of a position, 1-based, as `file:line:col` prints it. */
export function displayLineColumn(position: { readonly line: number; readonly column: number }): string {
  const shown = toDisplay(position);
  return `${shown.line}:${shown.column}`;
}

/** A range with both ends shown 1-based (offsets stay as they are): the printed form of `validate --cases`. */
export function toDisplayRange(range: SourceRange): SourceRange {
  return {
    file: range.file,
    start: { ...range.start, ...toDisplay(range.start) },
    end: { ...range.end, ...toDisplay(range.end) },
  };
}

/** A printed (1-based) range read back as core counts. */
export function fromDisplayRange(range: SourceRange): SourceRange {
  return {
    file: range.file,
    start: { ...range.start, ...fromDisplay(range.start) },
    end: { ...range.end, ...fromDisplay(range.end) },
  };
}
