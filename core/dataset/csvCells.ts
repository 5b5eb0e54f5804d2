import type { SourcePosition } from '../text/position';

/** Where the cells of one CSV record are in its text. */
export interface CellSpans {
  /** [start, end) offset of each cell in the record's text (quotes included). */
  readonly spans: readonly (readonly [number, number])[];
  /** Offset of a quote that opens a cell and is never closed, if there is one. */
  readonly unclosedQuote?: number;
}

/**
 * Finds the cells of one record (its text without the line terminator; it may span lines when a
 * quoted cell holds line breaks), with `,` between cells and `"` as quote (`""` inside quotes is a
 * quote). A cell is quoted only when it starts with a quote, as csv-parse reads it with
 * `relax_quotes`. Offsets are exact for quoted and unquoted cells alike.
 */
export function cellSpans(text: string): CellSpans {
  const spans: [number, number][] = [];
  let start = 0;
  for (;;) {
    let i = start;
    if (text.charCodeAt(i) === 0x22) {
      i += 1;
      for (;;) {
        if (i >= text.length) {
          spans.push([start, text.length]);
          return { spans, unclosedQuote: start };
        }
        if (text.charCodeAt(i) === 0x22) {
          if (text.charCodeAt(i + 1) !== 0x22) break;
          i += 1;
        }
        i += 1;
      }
    }
    const comma = text.indexOf(',', i);
    const end = comma === -1 ? text.length : comma;
    spans.push([start, end]);
    if (comma === -1) return { spans };
    start = comma + 1;
  }
}

/** The position `offset` units into `text`, a text that starts at `base` (`\n` ends a line). */
export function positionIn(text: string, offset: number, base: SourcePosition): SourcePosition {
  let line = base.line;
  let lineStart = -1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i;
  }
  const column = lineStart === -1 ? base.column + offset : offset - lineStart - 1;
  return { offset: base.offset + offset, line, column };
}
