import type { DatasetRecord, Json } from '../case';
import type { SourcePosition, SourceRange } from '../text/position';
import { caseFromValue, readError, type CaseLocation } from './caseFromValue';
import { CaseIdTracker, positionalId } from './caseIdTracker';
import { cellSpans, positionIn } from './csvCells';
import { CASE_COLUMNS, headerColumns, readCell, type CsvColumn } from './csvColumns';
import { csvTextRows, MAX_ROW_CHARACTERS } from './csvTextRows';
import { DatasetError, displayPath, unreadable } from './datasetError';
import type { DatasetSource } from './source';
import { datasetBytes } from './textFile';
import { displayLine, displayLineAndColumn } from '../../shared/text/displayPosition';

/**
 * Reads a CSV dataset as a stream: a header row, then one case per row (`id`, `input`, `output`,
 * `expected`, `context` columns are those fields; the others go into `metadata`). Cells are strings
 * unless `source.columns` types them. Blank lines are skipped. A row with the wrong number of cells or
 * a cell that does not read as its type is an error record at that row / cell; a CSV syntax error
 * (an unclosed quote) is an error record that ends the reading. Cases without an id get `line-N`.
 */
export async function* readCsv(source: DatasetSource): AsyncGenerator<DatasetRecord> {
  const file = source.path;
  const declared = source.columns ?? {};
  const reader = csvTextRows(datasetBytes(source));
  const ids = new CaseIdTracker();
  let header: CsvColumn[] | undefined;
  let index = 0;
  try {
    for await (const { record, text, start, malformed } of reader.rows) {
      if (malformed !== undefined) {
        const where = displayLineAndColumn(malformed.at);
        const message = `the row at line ${displayLine(start.line)} is not valid CSV: ${malformed.what}, at ${where}`;
        if (header === undefined)
          throw new DatasetError(file, `dataset ${displayPath(file)}: the header ${message.slice('the '.length)}`, {
            file,
            start: malformed.at,
            end: malformed.at,
          });
        yield readError(
          ids,
          {
            range: { file, start: malformed.at, end: positionIn(text, text.length, start) },
            index: index++,
            positionalId: positionalId('line', displayLine(start.line)),
          },
          message,
        );
        continue;
      }
      if (header === undefined) header = headerColumns(file, record, declared);
      else yield rowRecord(file, header, record, text, start, index++, ids);
    }
  } catch (error) {
    if (!isCsvError(error)) throw unreadable(file, error);
    yield syntaxRecord(file, error.code, reader.rest(), reader.position(), index, ids);
    return;
  }
  if (header === undefined)
    throw new DatasetError(file, `dataset ${displayPath(file)} is empty; a CSV dataset starts with a header row`);
}

function rowRecord(
  file: string,
  header: readonly CsvColumn[],
  cells: readonly string[],
  text: string,
  start: SourcePosition,
  index: number,
  ids: CaseIdTracker,
): DatasetRecord {
  const line = displayLine(start.line);
  const at: CaseLocation = {
    range: { file, start, end: positionIn(text, text.length, start) },
    index,
    positionalId: positionalId('line', line),
    subject: 'this row',
  };
  if (cells.length !== header.length) {
    return readError(
      ids,
      at,
      `the row at line ${line} has ${plural(cells.length, 'cell')}, but the header has ${plural(header.length, 'column')}`,
    );
  }
  const fields: [string, Json][] = [];
  const metadata: [string, Json][] = [];
  const bad: { readonly column: number; readonly what: string }[] = [];
  let ownId: string | undefined;
  header.forEach((column, i) => {
    const cell = readCell(cells[i] ?? '', column.type);
    if (!cell.ok) {
      bad.push({ column: i, what: `is declared ${column.type}, but it ${cell.problem}` });
    } else if (cell.value === undefined || (column.name === 'id' && cell.value === '')) {
      // absent: an empty typed cell, or an empty id (the case gets its positional id)
    } else if (CASE_COLUMNS.has(column.name)) {
      fields.push([column.name, cell.value]);
      if (column.name === 'id' && (typeof cell.value === 'string' || typeof cell.value === 'number'))
        ownId = String(cell.value);
    } else {
      metadata.push([column.name, cell.value]);
    }
  });
  const first = bad[0];
  if (first !== undefined) {
    const [from, to] = cellSpans(text).spans[first.column] ?? [0, text.length];
    const range: SourceRange = { file, start: positionIn(text, from, start), end: positionIn(text, to, start) };
    const where = ` at ${displayLineAndColumn(range.start)}`;
    const message = bad
      .map((b) => `the "${header[b.column]?.name ?? ''}" cell${b === first ? where : ''} ${b.what}`)
      .join('; ');
    return readError(ids, { ...at, range }, message, ownId);
  }
  if (metadata.length > 0) fields.push(['metadata', Object.fromEntries(metadata)]);
  return caseFromValue(Object.fromEntries(fields), at, ids);
}

/** The error record for a CSV syntax error in the row that starts at `start` (its text: `rest`). */
function syntaxRecord(
  file: string,
  code: string,
  rest: string,
  start: SourcePosition,
  index: number,
  ids: CaseIdTracker,
): DatasetRecord {
  const quote = code === 'CSV_QUOTE_NOT_CLOSED' ? cellSpans(rest).unclosedQuote : undefined;
  const at = quote === undefined ? start : positionIn(rest, quote, start);
  const range: SourceRange = { file, start: at, end: quote === undefined ? at : positionIn(rest, quote + 1, start) };
  const where = displayLineAndColumn(at);
  const what =
    quote !== undefined
      ? `the quoted cell that starts at ${where} is never closed`
      : code === 'CSV_MAX_RECORD_SIZE'
        ? `the row at line ${displayLine(at.line)} is longer than ${MAX_ROW_CHARACTERS} characters (is a quote left open?)`
        : `the row at line ${displayLine(at.line)} is not valid CSV (${code})`;
  return readError(
    ids,
    { range, index, positionalId: positionalId('line', displayLine(at.line)) },
    `${what}; the rest of the file is not read until this is fixed`,
  );
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function isCsvError(error: unknown): error is Error & { readonly code: string } {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('CSV_');
}
