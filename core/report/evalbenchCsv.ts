/**
 * The rows of one CSV file EvalBench wrote (pandas `to_csv`: a header row, `,` between cells, `"`
 * quotes doubled, cells that hold commas, quotes or line breaks quoted), streamed with the line each
 * row starts on. A row with the wrong number of cells is a bad row at its line and column; the rows
 * after it still load. A CSV syntax error (a quote left open) ends the file at that row.
 */
import { openRegularFileStream } from '../text/boundedRead';
import { cellSpans, positionIn } from '../dataset/csvCells';
import { csvTextRows } from '../dataset/csvTextRows';
import { displayLine, toDisplay } from '../../shared/text/displayPosition';

export type CsvRow =
  /** `line` is 1-based, as people count; `cells` maps each header name to its cell. */
  | { readonly ok: true; readonly line: number; readonly cells: ReadonlyMap<string, string> }
  | { readonly ok: false; readonly line: number; readonly column: number; readonly message: string };

/** Rows of `file` after its header; `maxRows` bounds how many are read (the rest are one bad row). */
export async function* evalBenchCsvRows(file: string, maxRows: number): AsyncGenerator<CsvRow> {
  const opened = openRegularFileStream(file);
  if (!opened.ok) {
    yield { ok: false, line: 1, column: 1, message: `cannot read the file: ${opened.reason}` };
    return;
  }
  const input = opened.stream;
  const reader = csvTextRows(input);
  let header: readonly string[] | undefined;
  let rows = 0;
  try {
    for await (const row of reader.rows) {
      const { text, start } = row;
      if (row.malformed !== undefined) {
        // Not RFC 4180 CSV (a stray or unclosed quote): this row only; the lines after it are read as rows.
        yield { ok: false, ...toDisplay(row.malformed.at), message: `expected a CSV row, but ${row.malformed.what}` };
        if (header === undefined) return;
        continue;
      }
      if (header === undefined) {
        header = row.record;
        continue;
      }
      if (++rows > maxRows) {
        yield {
          ok: false,
          line: displayLine(start.line),
          column: 1,
          message: `expected at most ${maxRows} rows, but the file has more; the rest of it is not read`,
        };
        return;
      }
      if (row.record.length !== header.length) {
        // Point at the first missing cell's place (the end of the row) or the first cell too many.
        const spans = cellSpans(text).spans;
        const at = row.record.length > header.length ? (spans[header.length]?.[0] ?? 0) : text.length;
        const where = positionIn(text, at, start);
        yield {
          ok: false,
          ...toDisplay(where),
          message: `expected ${header.length} cells, as the header has, but the row has ${row.record.length}`,
        };
        continue;
      }
      const cells = new Map<string, string>();
      header.forEach((name, i) => cells.set(name, row.record[i] ?? ''));
      yield { ok: true, line: displayLine(start.line), cells };
    }
  } catch (error) {
    const code = error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
    if (code === undefined || !code.startsWith('CSV_')) {
      const io = error instanceof Error && 'code' in error ? String(error.code) : 'an unknown error';
      const position = reader.position();
      yield {
        ok: false,
        ...toDisplay(position),
        message: `expected a readable CSV file, but reading it failed (${io})`,
      };
      return;
    }
    const rest = reader.rest();
    const position = reader.position();
    const quote = code === 'CSV_QUOTE_NOT_CLOSED' ? cellSpans(rest).unclosedQuote : undefined;
    const at = quote === undefined ? position : positionIn(rest, quote, position);
    const what =
      quote !== undefined
        ? 'expected the quoted cell that starts here to be closed, but it never is'
        : `expected a CSV row, but this row is not valid CSV (${code})`;
    yield { ok: false, ...toDisplay(at), message: `${what}; the rest of the file is not read` };
  } finally {
    input.destroy();
  }
}
