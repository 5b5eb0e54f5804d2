import { basename } from 'node:path';
import type { DatasetRecord } from '../case';
import type { SourcePosition } from '../text/position';
import { caseFromValue, readError } from './caseFromValue';
import { CaseIdTracker, positionalId } from './caseIdTracker';
import { DatasetError, displayPath } from './datasetError';
import { readJson } from './json';
import { MAX_CASE_CHARS, parseElementText, rangeAt, scanJsonDataset, syntaxMessage } from './jsonStream';
import { birdItem, formatOfItem, standardItem, type ItemOutcome } from './nl2sqlItems';
import type { DatasetSource, Nl2sqlFormat, Nl2sqlSource } from './source';
import { displayLine } from '../../shared/text/displayPosition';

/**
 * Reads an EvalBench NL2SQL dataset (`source.nl2sql`): a JSON array of evalbench-standard-format or
 * BIRD items, one case per item that the filters keep (see `nl2sqlItems.ts` for the fields). Items
 * the filters (`dialects`, `query_types`, `databases`) leave out are not cases at all, as in
 * EvalBench, and yield nothing. A malformed item is an error record naming its line; the others
 * still run. Each record's range is its item's exact span. A syntax error is one error record at its
 * position, after the items that end before it. When the format was not named (`inferred`) and the
 * file is not an array of NL2SQL items (by its first item), it is read as an ordinary JSON dataset
 * (`readJson`). The file is streamed as `readJson` streams it: memory is bounded by the largest item.
 */
export async function* readNl2sql(source: DatasetSource): AsyncGenerator<DatasetRecord> {
  const options = source.nl2sql;
  const file = source.path;
  if (options === undefined) {
    yield* readJson(source);
    return;
  }
  const { nl2sql: _nl2sql, ...plain } = source;
  let format: Nl2sqlFormat | undefined = options.inferred === true ? undefined : options.format;
  let convert = format === undefined ? undefined : converter(format, options, datasetStem(file));
  const ids = new CaseIdTracker();
  let index = 0;
  let position = 0;
  const stop = (at: SourcePosition, what: string, length: number): DatasetRecord =>
    readError(
      ids,
      { range: rangeAt(file, at, length), index, positionalId: positionalId('case', position + 1) },
      syntaxMessage(at, what),
    );
  for await (const event of scanJsonDataset(source, {
    listKey: undefined,
    maxItemChars: MAX_CASE_CHARS,
    arrayOnly: true,
  })) {
    if (event.kind === 'shape') {
      if (format === undefined) {
        // Not an array (or empty): an ordinary JSON dataset, which says itself what is wrong.
        yield* readJson(plain);
        return;
      }
      const range = event.seen === 'the file is empty' ? undefined : { file, start: event.start, end: event.at };
      throw new DatasetError(
        file,
        `the ${format} dataset ${displayPath(file)} must hold a JSON array of items, but ${event.seen}`,
        range,
      );
    }
    if (event.kind === 'error') {
      yield stop(event.at, event.what, 1);
      return;
    }
    if (event.kind === 'tooLarge') {
      const at = event.start;
      yield stop(
        at,
        `the item is longer than ${event.limit / (1024 * 1024)} Mi characters, the most EvalLens reads as one item`,
        1,
      );
      return;
    }
    if (event.kind !== 'item') continue;
    const parsed = parseElementText(event.text, event.start, file, undefined);
    if (!parsed.ok) {
      yield stop(parsed.at, parsed.what, parsed.length);
      return;
    }
    if (convert === undefined) {
      format = formatOfItem(parsed.value);
      if (format === undefined) {
        yield* readJson(plain);
        return;
      }
      convert = converter(format, options, datasetStem(file));
    }
    position += 1;
    const range = { file, start: event.start, end: event.end };
    const outcome = convert(parsed.value);
    if (outcome.kind === 'dropped') continue;
    const at = { range, index, positionalId: positionalId('case', position), subject: 'this item' };
    yield outcome.kind === 'case'
      ? caseFromValue(outcome.value, at, ids)
      : readError(ids, at, `item at line ${displayLine(range.start.line)}: ${outcome.message}`, outcome.id);
    index += 1;
  }
}

function converter(format: Nl2sqlFormat, options: Nl2sqlSource, stem: string): (item: unknown) => ItemOutcome {
  return format === 'bird-standard-format'
    ? (item) => birdItem(item, options, stem)
    : (item) => standardItem(item, options);
}

/** EvalBench's default BIRD database: the dataset file's name with `.json` taken out. */
function datasetStem(file: string): string {
  return basename(file).replaceAll('.json', '');
}
