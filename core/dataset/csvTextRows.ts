import type { Readable } from 'node:stream';
import type { SourcePosition } from '../text/position';
import { positionIn } from './csvCells';
import { scanRecord } from './csvRecords';

/** Longest row the reader may buffer, in characters: an unclosed quote must not swallow a huge file. */
export const MAX_ROW_CHARACTERS = 16 * 1024 * 1024;

/** A row that is not blank: its cells, its text (without the line break) and where it starts. */
export interface CsvTextRow {
  readonly record: readonly string[];
  readonly text: string;
  readonly start: SourcePosition;
  /** Set when the row is not RFC 4180 CSV: where and what; `record` is then empty and `text` is its first line. */
  readonly malformed?: { readonly at: SourcePosition; readonly what: string };
}

/** A row longer than MAX_ROW_CHARACTERS: reading stops there (`code` as csv-parse named it). */
export class CsvRowTooLong extends Error {
  readonly code = 'CSV_MAX_RECORD_SIZE';
  constructor() {
    super(`a CSV row is longer than ${MAX_ROW_CHARACTERS} characters`);
  }
}

/**
 * Rows of a CSV byte stream (a header row is just the first row here), each with its own text and
 * start position, streamed (`scanRecord`: RFC 4180). A malformed row is given back with where it
 * stops being CSV, and reading goes on with the line after its first line. Blank lines are skipped.
 * A row past MAX_ROW_CHARACTERS or a read error ends the iteration by throwing; `position()` and
 * `rest()` then say where reading stopped and what was left, for the error.
 */
export function csvTextRows(input: Readable): {
  readonly rows: AsyncGenerator<CsvTextRow>;
  position(): SourcePosition;
  rest(): string;
} {
  const decoder = new TextDecoder('utf-8');
  let pending = '';
  let position: SourcePosition = { offset: 0, line: 0, column: 0 };
  let first = true;
  function* take(final: boolean): Generator<CsvTextRow> {
    let from = 0;
    for (;;) {
      if (from >= pending.length) break;
      const found = scanRecord(pending, from, final);
      if (found === undefined) break;
      const text = pending.slice(found.start, found.end);
      const start = position;
      position = positionIn(pending.slice(from, found.next), found.next - from, start);
      from = found.next;
      if (found.kind === 'malformed') {
        yield {
          record: [],
          text,
          start,
          malformed: { at: positionIn(text, found.at - found.start, start), what: found.what },
        };
      } else if (text.trim() !== '') {
        yield { record: found.cells, text, start };
      }
    }
    pending = pending.slice(from);
  }
  async function* rows(): AsyncGenerator<CsvTextRow> {
    // A record that is still open is scanned again only once the text has doubled: linear overall.
    let retryAt = 0;
    for await (const chunk of input) {
      let piece = decoder.decode(chunk as Uint8Array, { stream: true });
      if (first && piece.length > 0) {
        if (piece.charCodeAt(0) === 0xfeff) piece = piece.slice(1);
        first = false;
      }
      pending += piece;
      if (pending.length < retryAt && pending.length <= MAX_ROW_CHARACTERS) continue;
      yield* take(false);
      // What is left is one row still open: past the cap, reading stops (memory stays bounded).
      if (pending.length > MAX_ROW_CHARACTERS) throw new CsvRowTooLong();
      retryAt = pending.length * 2;
    }
    pending += decoder.decode();
    yield* take(true);
  }
  return { rows: rows(), position: () => position, rest: () => pending };
}
