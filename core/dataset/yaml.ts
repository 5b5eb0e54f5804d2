import { isAlias, isMap, isNode, isScalar, isSeq, parseDocument, type Document, type YAMLError } from 'yaml';
import type { DatasetRecord } from '../case';
import { MAX_FLOW_NESTING, tooDeepFlowNesting } from '../config/flowNesting';
import { LineIndex } from '../text/position';
import { caseFromValue, readError } from './caseFromValue';
import { CaseIdTracker, positionalId } from './caseIdTracker';
import { DatasetError, displayPath } from './datasetError';
import type { DatasetSource } from './source';
import { readDatasetText } from './textFile';
import { describeKind } from './valueKinds';
import { displayLineAndColumn } from '../../shared/text/displayPosition';

/**
 * Reads a YAML dataset: a list of case mappings, or a mapping with a `cases` list. Each case's range
 * is its item node's span. Syntax errors are error records at their positions, after the cases that
 * end before the first of them (an item that reaches it is not trusted); no case after it is read.
 * Cases without an `id` get `case-N` (1-based position in the list).
 */
export async function* readYaml(source: DatasetSource): AsyncGenerator<DatasetRecord> {
  const file = source.path;
  const text = await readDatasetText(file, source.text);
  const lines = new LineIndex(text);
  // yaml composes flow collections recursively: thousands of `[` overflow its stack. Only the lines
  // before the one that nests too deep are parsed; that place is an error record.
  const tooDeep = tooDeepFlowNesting(text);
  const doc = parseDocument(tooDeep === undefined ? text : text.slice(0, text.lastIndexOf('\n', tooDeep) + 1), {
    prettyErrors: false,
  });
  const items = findItems(doc);
  if (typeof items === 'string' && doc.errors.length === 0) {
    const range = doc.contents?.range ? lines.range(file, doc.contents.range[0], doc.contents.range[1]) : undefined;
    throw new DatasetError(
      file,
      `dataset ${displayPath(file)} must hold a list of cases (or a mapping with a "cases" list), but ${items}`,
      range,
    );
  }
  const ids = new CaseIdTracker();
  const stop = Math.min(doc.errors[0]?.pos[0] ?? Number.POSITIVE_INFINITY, tooDeep ?? Number.POSITIVE_INFINITY);
  let index = 0;
  for (const item of typeof items === 'string' ? [] : items) {
    const [start, end] = isNode(item) && item.range ? item.range : [0, 0];
    if (end >= stop) break;
    const at = {
      range: lines.range(file, start, trimEnd(text, start, end)),
      index,
      positionalId: positionalId('case', index + 1),
      subject: 'this item',
      vocabulary: 'yaml' as const,
    };
    const value = toJs(item, doc);
    yield value.ok ? caseFromValue(value.value, at, ids) : readError(ids, at, value.message);
    index += 1;
  }
  if (tooDeep !== undefined) {
    const range = lines.range(file, tooDeep, tooDeep + 1);
    const where = displayLineAndColumn(range.start);
    yield readError(
      ids,
      { range, index, positionalId: positionalId('case', index + 1) },
      `YAML: brackets nested more than ${MAX_FLOW_NESTING} levels deep at ${where}; expected at most ${MAX_FLOW_NESTING} (the rest of the file is not read)`,
    );
    return;
  }
  for (const [n, error] of doc.errors.entries()) {
    const range = lines.range(file, error.pos[0], Math.max(error.pos[0], error.pos[1]));
    const where = displayLineAndColumn(range.start);
    const rest = n === 0 ? '; the rest of the file is not read until this is fixed' : '';
    yield readError(
      ids,
      { range, index, positionalId: positionalId('case', index + 1) },
      `YAML syntax error at ${where}: ${describeError(error)}${rest}`,
    );
    index += 1;
  }
}

/** The case items, or what was seen instead. */
function findItems(doc: Document): readonly unknown[] | string {
  const contents = doc.contents;
  if (contents === null || (isScalar(contents) && contents.value === null)) return 'the file is empty';
  if (isSeq(contents)) return contents.items;
  if (!isMap(contents)) return `it holds ${kindOf(contents, doc)}`;
  const cases = contents.get('cases', true);
  if (cases === undefined) return 'it holds a mapping without a "cases" key';
  if (!isSeq(cases)) return `its "cases" key holds ${kindOf(cases, doc)}`;
  return cases.items;
}

/** What a node that is not the list of cases holds, in words; never builds the node's data (an alias may name nothing, or expand to too much). */
function kindOf(node: unknown, doc: Document): string {
  if (isAlias(node)) {
    const target = node.resolve(doc);
    return target === undefined
      ? `only the alias *${node.source}, which names no anchor`
      : `the alias *${node.source} (expected the list itself, not an alias)`;
  }
  if (isScalar(node)) return describeKind(node.value, 'yaml');
  return isSeq(node) ? 'a list' : isMap(node) ? 'a mapping' : 'a value that is not a list';
}

function toJs(item: unknown, doc: Document): { ok: true; value: unknown } | { ok: false; message: string } {
  if (!isNode(item)) return { ok: true, value: item };
  try {
    return { ok: true, value: item.toJS(doc, { maxAliasCount: 100 }) };
  } catch (error) {
    // yaml refuses an alias that names no anchor and aliases that expand too much (a "billion laughs" document).
    const why =
      error instanceof Error && /Unresolved alias/.test(error.message)
        ? 'an alias in this item names no anchor before it (expected `&name` on a value before `*name`)'
        : 'this item expands too many YAML aliases (at most 100 are read)';
    return { ok: false, message: why };
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
