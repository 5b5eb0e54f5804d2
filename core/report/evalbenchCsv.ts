/**
 * The rows of one CSV file EvalBench wrote (pandas `to_csv`: a header row, `,` between cells, `"`
 * quotes doubled, cells that hold commas, quotes or line breaks quoted), streamed with the line each
 * row starts on. A row with the wrong number of cells is a bad row at its line and column; the rows
 * after it still load. A CSV syntax error (a quote left open) ends the file at that row.
 */
import { createReadStream } from 'node:fs';
import { pipeline, Transform } from 'node:stream';
import { parse } from 'csv-parse';
import { ByteWindow } from '../dataset/byteWindow';
import { cellSpans, positionIn } from '../dataset/csvCells';
import type { SourcePosition } from '../text/position';

/** Longest row csv-parse may buffer, in characters: an unclosed quote must not swallow a huge file. */
const MAX_ROW_CHARACTERS = 16 * 1024 * 1024;

export type CsvRow =
  /** `line` is 1-based, as people count; `cells` maps each header name to its cell. */
  | { readonly ok: true; readonly line: number; readonly cells: ReadonlyMap<string, string> }
  | { readonly ok: false; readonly line: number; readonly column: number; readonly message: string };

interface ParsedRow {
  readonly record: readonly string[];
  readonly info: { readonly bytes: number };
}

/** Rows of `file` after its header; `maxRows` bounds how many are read (the rest are one bad row). */
export async function* evalBenchCsvRows(file: string, maxRows: number): AsyncGenerator<CsvRow> {
  const window = new ByteWindow();
  const decoder = new TextDecoder('utf-8');
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      window.push(chunk);
      done(null, chunk);
    },
  });
  const parser = parse({ bom: true, info: true, relax_column_count: true, relax_quotes: true, record_delimiter: ['\r\n', '\n'], max_record_size: MAX_ROW_CHARACTERS });
  const input = createReadStream(file);
  pipeline(input, tap, parser, () => undefined);
  let header: readonly string[] | undefined;
  let position: SourcePosition = { offset: 0, line: 0, column: 0 };
  let rows = 0;
  try {
    for await (const row of parser as AsyncIterable<ParsedRow>) {
      const raw = decoder.decode(window.take(row.info.bytes), { stream: true });
      const start = position;
      position = positionIn(raw, raw.length, start);
      const text = raw.replace(/\r?\n$/, '');
      if (text.trim() === '') continue;
      if (header === undefined) {
        header = row.record;
        continue;
      }
      if (++rows > maxRows) {
        yield { ok: false, line: start.line + 1, column: 1, message: `expected at most ${maxRows} rows, but the file has more; the rest of it is not read` };
        return;
      }
      if (row.record.length !== header.length) {
        // Point at the first missing cell's place (the end of the row) or the first cell too many.
        const spans = cellSpans(text).spans;
        const at = row.record.length > header.length ? (spans[header.length]?.[0] ?? 0) : text.length;
        const where = positionIn(text, at, start);
        yield { ok: false, line: where.line + 1, column: where.column + 1, message: `expected ${header.length} cells, as the header has, but the row has ${row.record.length}` };
        continue;
      }
      const cells = new Map<string, string>();
      header.forEach((name, i) => cells.set(name, row.record[i] ?? ''));
      yield { ok: true, line: start.line + 1, cells };
    }
  } catch (error) {
    const code = error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
    if (code === undefined || !code.startsWith('CSV_')) {
      const io = error instanceof Error && 'code' in error ? String(error.code) : 'an unknown error';
      yield { ok: false, line: position.line + 1, column: position.column + 1, message: `expected a readable CSV file, but reading it failed (${io})` };
      return;
    }
    const rest = decoder.decode(window.rest());
    const quote = code === 'CSV_QUOTE_NOT_CLOSED' ? cellSpans(rest).unclosedQuote : undefined;
    const at = quote === undefined ? position : positionIn(rest, quote, position);
    const what = quote !== undefined ? 'expected the quoted cell that starts here to be closed, but it never is' : `expected a CSV row, but this row is not valid CSV (${code})`;
    yield { ok: false, line: at.line + 1, column: at.column + 1, message: `${what}; the rest of the file is not read` };
  } finally {
    input.destroy();
  }
}
