/**
 * CSV records as RFC 4180 writes them, found in a text that arrives piece by piece. A cell is either
 * unquoted (no `"`, no `,`, no line break) or quoted (`"…"`, `""` for a quote, commas and line breaks
 * allowed), and a quoted cell ends right before `,` or the end of the line. Anything else is a
 * malformed record, never read some other way: before, a stray quote opened a cell that ran on
 * into the next rows and silently merged them.
 *
 * A malformed record is given back as such, and reading goes on at the line after the record's
 * first line: the rows a stray quote would have swallowed are read as the rows they are.
 */

/** One record found at `start` (an offset in the text given so far). */
export type ScannedRecord =
  | {
      readonly kind: 'record';
      readonly cells: string[];
      readonly start: number;
      readonly end: number;
      readonly next: number;
    }
  /** `at`: where it stops being CSV; `end`/`next`: its first line only (the rest is read again). */
  | {
      readonly kind: 'malformed';
      readonly at: number;
      readonly what: string;
      readonly start: number;
      readonly end: number;
      readonly next: number;
    };

/**
 * Scans one record at `start`. `end`: where its text ends (before the line terminator); `next`:
 * where the next record starts. Undefined when the text may go on (more text must come first),
 * which never happens once `final`.
 */
export function scanRecord(text: string, start: number, final: boolean): ScannedRecord | undefined {
  const cells: string[] = [];
  let i = start;
  for (;;) {
    if (text.charCodeAt(i) === QUOTE) {
      const open = i;
      const quoted = scanQuoted(text, i, final);
      if (quoted === undefined) return undefined;
      if (quoted.kind === 'unclosed')
        return malformed(
          text,
          start,
          i,
          'a quoted cell is never closed (expected a closing `"` before the end of the file)',
          final,
        );
      cells.push(quoted.value);
      i = quoted.end;
      const after = terminator(text, i, final);
      if (after === undefined) return undefined;
      if (after === 'comma') {
        i += 1;
        continue;
      }
      if (after === 'other') {
        // Past the record's first line, the place to fix is the quote that opened the cell.
        const lf = text.indexOf('\n', start);
        const spansLines = lf !== -1 && lf < i;
        const what = spansLines
          ? 'a quoted cell opens here and runs over the next lines to a closing quote with text after it (expected `,` or the end of the line after a closing quote; is a quote missing or one too many?)'
          : 'text after the closing quote of a quoted cell (expected `,` or the end of the line; inside a quoted cell, write a quote as `""`)';
        return malformed(text, start, spansLines ? open : i, what, final);
      }
      return { kind: 'record', cells, start, end: i, next: after };
    }
    const stop = unquotedEnd(text, i);
    if (stop === text.length && !final) return undefined;
    const cell = text.slice(i, stop);
    const quote = cell.indexOf('"');
    if (quote !== -1)
      return malformed(
        text,
        start,
        i + quote,
        'a quote inside a cell that does not start with one (quote the whole cell and write the quote as `""`)',
        final,
      );
    cells.push(cell);
    i = stop;
    if (text.charCodeAt(i) === COMMA) {
      i += 1;
      continue;
    }
    const next = i >= text.length ? text.length : text.charCodeAt(i) === CR ? i + 2 : i + 1;
    return { kind: 'record', cells, start, end: i, next };
  }
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;

/** A quoted cell's value and the offset after its closing quote, or that it is never closed. */
function scanQuoted(
  text: string,
  open: number,
  final: boolean,
): { kind: 'cell'; value: string; end: number } | { kind: 'unclosed' } | undefined {
  let value = '';
  let from = open + 1;
  for (;;) {
    const close = text.indexOf('"', from);
    if (close === -1) return final ? { kind: 'unclosed' } : undefined;
    value += text.slice(from, close);
    // `""` is a quote; a quote at the very end of the text so far may be the first of two.
    if (close + 1 >= text.length && !final) return undefined;
    if (text.charCodeAt(close + 1) !== QUOTE) return { kind: 'cell', value, end: close + 1 };
    value += '"';
    from = close + 2;
  }
}

/** What follows a quoted cell: a comma, the offset of the next line (or the end), something else, or undefined (more text must come). */
function terminator(text: string, i: number, final: boolean): 'comma' | 'other' | number | undefined {
  if (i >= text.length) return final ? text.length : undefined;
  const c = text.charCodeAt(i);
  if (c === COMMA) return 'comma';
  if (c === LF) return i + 1;
  if (c === CR) {
    if (i + 1 >= text.length) return final ? 'other' : undefined;
    return text.charCodeAt(i + 1) === LF ? i + 2 : 'other';
  }
  return 'other';
}

/** The end of an unquoted cell: the next comma, or the line break (`\n`, or `\r\n`), or the end of the text. */
function unquotedEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === COMMA || c === LF) return i;
    if (c === CR && text.charCodeAt(i + 1) === LF) return i;
  }
  return text.length;
}

/** A malformed record: only its first line is taken; the lines after it are read again as records. */
function malformed(text: string, start: number, at: number, what: string, final: boolean): ScannedRecord | undefined {
  const lf = text.indexOf('\n', start);
  if (lf === -1 && !final) return undefined;
  const next = lf === -1 ? text.length : lf + 1;
  const end = lf === -1 ? text.length : lf > start && text.charCodeAt(lf - 1) === CR ? lf - 1 : lf;
  return { kind: 'malformed', at, what, start, end, next };
}
