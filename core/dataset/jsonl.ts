import type { DatasetRecord } from '../case';
import { tooDeepJson, tooDeepMessage } from '../text/jsonDepth';
import { lineRange } from '../text/position';
import { caseFromValue, readError, type CaseLocation } from './caseFromValue';
import { CaseIdTracker, positionalId } from './caseIdTracker';
import { unreadable } from './datasetError';
import { describeJsonParseError } from './jsonSyntax';
import { MAX_CASE_CHARS } from './jsonStream';
import type { DatasetSource } from './source';
import { linesOf, type TextLine } from './textLines';
import { datasetBytes } from './textFile';
import { displayColumn, displayLine } from '../../shared/text/displayPosition';

/**
 * Reads a JSON Lines dataset as a stream: one case per non-blank line, in file order, with bounded
 * memory whatever the file's size. A line that is not JSON, not an object or not a valid case is an
 * error record; the lines after it are still read. Cases without an `id` get `line-N` (1-based).
 * A line longer than `MAX_CASE_CHARS` (the JSON reader's limit on one case) is an error record too,
 * and is never held whole.
 */
export async function* readJsonl(source: DatasetSource): AsyncGenerator<DatasetRecord> {
  const file = source.path;
  const ids = new CaseIdTracker();
  let index = 0;
  try {
    for await (const line of linesOf(datasetBytes(source), MAX_CASE_CHARS)) {
      if (line.overLength === undefined && line.text.trim() === '') continue;
      yield jsonlRecord(file, line, index, ids);
      index += 1;
    }
  } catch (error) {
    throw unreadable(file, error);
  }
}

function jsonlRecord(
  file: string,
  { text, line, offset, overLength }: TextLine,
  index: number,
  ids: CaseIdTracker,
): DatasetRecord {
  const at: CaseLocation = {
    range: lineRange(file, offset, line, 0, text.length),
    index,
    positionalId: positionalId('line', displayLine(line)),
    subject: 'this line',
  };
  if (overLength !== undefined) {
    return readError(
      ids,
      at,
      `line ${displayLine(line)} is ${overLength} characters long; expected a case of at most ${MAX_CASE_CHARS} characters per line (the line is not read)`,
    );
  }
  const deep = tooDeepJson(text);
  if (deep !== undefined) {
    return readError(
      ids,
      { ...at, range: lineRange(file, offset, line, deep, 1) },
      `line ${displayLine(line)} has ${tooDeepMessage()} (at column ${displayColumn(deep)})`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const problem = describeJsonParseError(text, error);
    const range = lineRange(file, offset, line, problem.offset, problem.offset < text.length ? 1 : 0);
    return readError(
      ids,
      { ...at, range },
      `line ${displayLine(line)} is not valid JSON: ${problem.what} at column ${displayColumn(problem.offset)}`,
    );
  }
  return caseFromValue(value, at, ids);
}
