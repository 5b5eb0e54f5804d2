import { basename } from 'node:path';
import { parseTree, type Node, type ParseError } from 'jsonc-parser';
import { jsonNodeValue } from './jsonNodeValue';
import type { DatasetRecord } from '../case';
import { LineIndex } from '../text/position';
import { caseFromValue, readError } from './caseFromValue';
import { CaseIdTracker, positionalId } from './caseIdTracker';
import { DatasetError, displayPath } from './datasetError';
import { readJson } from './json';
import { describeJsonParseError } from './jsonSyntax';
import { birdItem, formatOfItem, standardItem, type ItemOutcome } from './nl2sqlItems';
import type { DatasetSource, Nl2sqlFormat, Nl2sqlSource } from './source';
import { readDatasetText } from './textFile';

/**
 * Reads an EvalBench NL2SQL dataset (`source.nl2sql`): a JSON array of evalbench-standard-format or
 * BIRD items, one case per item that the filters keep (see `nl2sqlItems.ts` for the fields). Items
 * the filters (`dialects`, `query_types`, `databases`) leave out are not cases at all, as in
 * EvalBench, and yield nothing. A malformed item is an error record naming its line; the others
 * still run. Each record's range is its item's exact span. A syntax error is one error record at its
 * position, after the items that end before it. When the format was not named (`inferred`) and the
 * file is not an array of NL2SQL items, it is read as an ordinary JSON dataset (`readJson`).
 */
export async function* readNl2sql(source: DatasetSource): AsyncGenerator<DatasetRecord> {
  const options = source.nl2sql;
  const file = source.path;
  if (options === undefined) {
    yield* readJson(source);
    return;
  }
  const text = await readDatasetText(file, source.text);
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, PARSE_OPTIONS);
  const format = options.inferred === true ? inferredFormat(root) : options.format;
  if (format === undefined) {
    const { nl2sql: _nl2sql, ...plain } = source;
    yield* readJson(plain);
    return;
  }
  const lines = new LineIndex(text);
  const syntax = errors.length > 0 ? syntaxProblem(text, errors) : undefined;
  if (root?.type !== 'array' && syntax === undefined) {
    const seen = root === undefined ? 'the file is empty' : `it holds ${root.type === 'object' ? 'an object' : root.type === 'null' ? 'null' : `a ${root.type}`}`;
    const range = root === undefined ? undefined : lines.range(file, root.offset, root.offset + root.length);
    throw new DatasetError(file, `the ${format} dataset ${displayPath(file)} must hold a JSON array of items, but ${seen}`, range);
  }
  const convert = converter(format, options, datasetStem(file));
  const ids = new CaseIdTracker();
  const stop = syntax?.offset ?? Number.POSITIVE_INFINITY;
  const items = root?.type === 'array' ? (root.children ?? []) : [];
  let index = 0;
  let position = 0;
  for (const element of items) {
    if (element.offset + element.length > stop) break;
    position += 1;
    const range = lines.range(file, element.offset, element.offset + element.length);
    const outcome = convert(jsonNodeValue(element));
    if (outcome.kind === 'dropped') continue;
    const at = { range, index, positionalId: positionalId('case', position), subject: 'this item' };
    yield outcome.kind === 'case' ? caseFromValue(outcome.value, at, ids) : readError(ids, at, `item at line ${range.start.line + 1}: ${outcome.message}`, outcome.id);
    index += 1;
  }
  if (syntax !== undefined) {
    const range = lines.range(file, syntax.offset, Math.min(text.length, syntax.offset + 1));
    const message = `not valid JSON at line ${range.start.line + 1}, column ${range.start.column + 1}: ${syntax.what}; the rest of the file is not read until this is fixed`;
    yield readError(ids, { range, index, positionalId: positionalId('case', position + 1) }, message);
  }
}

const PARSE_OPTIONS = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: true } as const;

/** The format a file looks like when the config named none: from its first item, when it is an array. */
function inferredFormat(root: Node | undefined): Nl2sqlFormat | undefined {
  if (root?.type !== 'array') return undefined;
  const first = root.children?.[0];
  return first === undefined ? 'evalbench-standard-format' : formatOfItem(jsonNodeValue(first));
}

function converter(format: Nl2sqlFormat, options: Nl2sqlSource, stem: string): (item: unknown) => ItemOutcome {
  return format === 'bird-standard-format' ? (item) => birdItem(item, options, stem) : (item) => standardItem(item, options);
}

/** EvalBench's default BIRD database: the dataset file's name with `.json` taken out. */
function datasetStem(file: string): string {
  return basename(file).replaceAll('.json', '');
}

/** Where and why the text stops being JSON; V8's reading of it, so the position and the words agree. */
function syntaxProblem(text: string, errors: readonly ParseError[]): { offset: number; what: string } {
  try {
    JSON.parse(text);
  } catch (error) {
    return describeJsonParseError(text, error);
  }
  return { offset: errors[0]?.offset ?? 0, what: 'the text is not valid JSON' };
}

