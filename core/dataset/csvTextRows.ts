import { pipeline, Transform, type Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { SourcePosition } from '../text/position';
import { ByteWindow } from './byteWindow';
import { positionIn } from './csvCells';

/** Longest row csv-parse may buffer, in characters: an unclosed quote must not swallow a huge file. */
export const MAX_ROW_CHARACTERS = 16 * 1024 * 1024;

/** A row that is not blank: its cells, its text (without the line break) and where it starts. */
export interface CsvTextRow {
  readonly record: readonly string[];
  readonly text: string;
  readonly start: SourcePosition;
}

interface ParsedRow {
  readonly record: readonly string[];
  readonly info: { readonly bytes: number };
}

/**
 * Rows of a CSV byte stream (a header row is just the first row here), each with its own text and
 * start position, streamed: csv-parse splits the cells, and the bytes it consumed are kept aside so
 * that each row's text and line:column are exact, quoted line breaks included. Blank lines are
 * skipped. A stage that fails (a CSV syntax error, a read error) ends the iteration by throwing;
 * `position()` and `rest()` then say where reading stopped and what was left, for the error.
 */
export function csvTextRows(input: Readable): { readonly rows: AsyncGenerator<CsvTextRow>; position(): SourcePosition; rest(): string } {
  const window = new ByteWindow();
  const decoder = new TextDecoder('utf-8');
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      window.push(chunk);
      done(null, chunk);
    },
  });
  const parser = parse({ bom: true, info: true, relax_column_count: true, relax_quotes: true, record_delimiter: ['\r\n', '\n'], max_record_size: MAX_ROW_CHARACTERS });
  // Errors of any stage destroy the parser, so they surface in the iteration.
  pipeline(input, tap, parser, () => undefined);
  let position: SourcePosition = { offset: 0, line: 0, column: 0 };
  async function* rows(): AsyncGenerator<CsvTextRow> {
    for await (const row of parser as AsyncIterable<ParsedRow>) {
      const raw = decoder.decode(window.take(row.info.bytes), { stream: true });
      const start = position;
      position = positionIn(raw, raw.length, start);
      const text = raw.replace(/\r?\n$/, '');
      if (text.trim() !== '') yield { record: row.record, text, start };
    }
  }
  return { rows: rows(), position: () => position, rest: () => decoder.decode(window.rest()) };
}
