import { isMap, isNode, isScalar, isSeq, parseDocument, type Document, type YAMLError } from 'yaml';
import type { DatasetRecord } from '../case';
import { LineIndex } from '../text/position';
import { caseFromValue, readError } from './caseFromValue';
import { CaseIdTracker, positionalId } from './caseIdTracker';
import { DatasetError, displayPath } from './datasetError';
import type { DatasetSource } from './source';
import { readDatasetText } from './textFile';
import { describeKind } from './valueKinds';

/**
 * Reads a YAML dataset: a list of case mappings, or a mapping with a `cases` list. Each case's range
 * is its item node's span. Syntax errors are error records at their positions, after the cases that
 * end before the first of them (an item that reaches it is not trusted); no case after it is read.
 * Cases without an `id` get `case-N` (1-based position in the list).
 */
export async function* readYaml(source: DatasetSource): AsyncGenerator<DatasetRecord> {
  const file = source.path;
  const text = await readDatasetText(file, source.text);
  const doc = parseDocument(text, { prettyErrors: false });
  const lines = new LineIndex(text);
  const items = findItems(doc);
  if (typeof items === 'string' && doc.errors.length === 0) {
    const range = doc.contents?.range ? lines.range(file, doc.contents.range[0], doc.contents.range[1]) : undefined;
    throw new DatasetError(file, `dataset ${displayPath(file)} must hold a list of cases (or a mapping with a "cases" list), but ${items}`, range);
  }
  const ids = new CaseIdTracker();
  const stop = doc.errors[0]?.pos[0] ?? Number.POSITIVE_INFINITY;
  let index = 0;
  for (const item of typeof items === 'string' ? [] : items) {
    const [start, end] = isNode(item) && item.range ? item.range : [0, 0];
    if (end >= stop) break;
    const at = { range: lines.range(file, start, trimEnd(text, start, end)), index, positionalId: positionalId('case', index + 1), subject: 'this item', vocabulary: 'yaml' as const };
    const value = toJs(item, doc);
    yield value.ok ? caseFromValue(value.value, at, ids) : readError(ids, at, value.message);
    index += 1;
  }
  for (const [n, error] of doc.errors.entries()) {
    const range = lines.range(file, error.pos[0], Math.max(error.pos[0], error.pos[1]));
    const where = `line ${range.start.line + 1}, column ${range.start.column + 1}`;
    const rest = n === 0 ? '; the rest of the file is not read until this is fixed' : '';
    yield readError(ids, { range, index, positionalId: positionalId('case', index + 1) }, `YAML syntax error at ${where}: ${describeError(error)}${rest}`);
    index += 1;
  }
}

/** The case items, or what was seen instead. */
function findItems(doc: Document): readonly unknown[] | string {
  const contents = doc.contents;
  if (contents === null || (isScalar(contents) && contents.value === null)) return 'the file is empty';
  if (isSeq(contents)) return contents.items;
  if (!isMap(contents)) return `it holds ${describeKind(contents.toJS(doc), 'yaml')}`;
  const cases = contents.get('cases', true);
  if (cases === undefined) return 'it holds a mapping without a "cases" key';
  if (!isSeq(cases)) return `its "cases" key holds ${describeKind(isNode(cases) ? cases.toJS(doc) : cases, 'yaml')}`;
  return cases.items;
}

function toJs(item: unknown, doc: Document): { ok: true; value: unknown } | { ok: false; message: string } {
  if (!isNode(item)) return { ok: true, value: item };
  try {
    return { ok: true, value: item.toJS(doc, { maxAliasCount: 100 }) };
  } catch {
    // yaml refuses aliases that expand too much (a "billion laughs" document).
    return { ok: false, message: 'this item expands too many YAML aliases' };
  }
}

/** The end of a node's span without the line breaks and blanks yaml counts into it. */
function trimEnd(text: string, start: number, end: number): number {
  let trimmed = end;
  while (trimmed > start && /\s/.test(text.charAt(trimmed - 1))) trimmed -= 1;
  return trimmed;
}

/** yaml's message without the source excerpt, on one line, short. */
function describeError(error: YAMLError): string {
  const first = error.message.split('\n')[0] ?? error.code;
  const plain = first.replace(/ at line \d+, column \d+:?$/, '');
  return plain.length > 160 ? `${plain.slice(0, 157)}...` : plain;
}
