/**
 * Positions in core are computed once, where the text is read: an offset plus its 0-based line and
 * column (UTF-16 units). Streamed datasets cannot be re-read later to turn offsets into lines, which is
 * why the line and column travel with the offset. Every place that shows a position to a person (or
 * writes one into a 1-based format) converts through `toDisplay`, and every place that reads such a
 * position back through `fromDisplay`; LSP uses core's as they are. CONTRIBUTING.md lists the boundaries.
 */
export interface SourcePosition {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

export interface SourceRange {
  /** Absolute path of the file the range is in. */
  readonly file: string;
  readonly start: SourcePosition;
  readonly end: SourcePosition;
}

/**
 * Maps offsets of one text to 0-based lines and columns. Lines end where editors and LSP end them: at
 * `\n`, `\r\n` and a lone `\r` (yaml's own LineCounter counts `\n` only, which put positions past
 * the end of their line in a file with a lone `\r`).
 */
export class LineIndex {
  private readonly lineStarts: number[] = [0];

  constructor(private readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === 10 || (code === 13 && text.charCodeAt(i + 1) !== 10)) this.lineStarts.push(i + 1);
    }
  }

  position(at: number): SourcePosition {
    const offset = Math.min(Math.max(0, at), this.text.length);
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.lineStarts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    // Between the \r and the \n of a \r\n is still the end of the line, not a column past it.
    const inBreak = offset > 0 && this.text.charCodeAt(offset - 1) === 13 && this.text.charCodeAt(offset) === 10;
    return { offset, line: low, column: offset - (this.lineStarts[low] ?? 0) - (inBreak ? 1 : 0) };
  }

  range(file: string, start: number, end: number): SourceRange {
    return { file, start: this.position(start), end: this.position(end) };
  }
}

/** A range covering one line of a file read line by line (JSONL, CSV). */
export function lineRange(file: string, lineOffset: number, line: number, column: number, length: number): SourceRange {
  return {
    file,
    start: { offset: lineOffset + column, line, column },
    end: { offset: lineOffset + column + length, line, column: column + length },
  };
}
