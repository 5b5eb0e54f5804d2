import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import type { DatasetRecord } from '../case';
import { LineIndex } from '../text/position';
import { caseFromValue, readError } from './caseFromValue';
import { CaseIdTracker, positionalId } from './caseIdTracker';
import { DatasetError, displayPath } from './datasetError';
import { characterAt } from './jsonSyntax';
import type { DatasetSource } from './source';
import { readDatasetText } from './textFile';

/**
 * Reads a JSON dataset: an array of case objects, or an object with a `cases` array. Each case's
 * range is its element's exact span. A syntax error is one error record at its position, after the
 * cases that end before it; nothing after it is read, since nothing after it can be trusted.
 * Cases without an `id` get `case-N` (1-based position in the array).
 */
export async function* readJson(source: DatasetSource): AsyncGenerator<DatasetRecord> {
  const file = source.path;
  const text = await readDatasetText(file);
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: true });
  const lines = new LineIndex(text);
  const syntaxError = errors[0];
  const list = findCaseList(root);
  if (typeof list === 'string' && syntaxError === undefined) {
    const range = root === undefined ? undefined : lines.range(file, root.offset, root.offset + root.length);
    throw new DatasetError(file, `dataset ${displayPath(file)} must hold a JSON array of cases (or an object with a "cases" array), but ${list}`, range);
  }
  const ids = new CaseIdTracker();
  const stop = syntaxError?.offset ?? Number.POSITIVE_INFINITY;
  let index = 0;
  for (const element of typeof list === 'string' ? [] : list) {
    if (element.offset + element.length > stop) break;
    const range = lines.range(file, element.offset, element.offset + element.length);
    yield caseFromValue(valueOf(element), { range, index, positionalId: positionalId('case', index + 1), subject: 'this element' }, ids);
    index += 1;
  }
  if (syntaxError !== undefined) {
    const range = lines.range(file, syntaxError.offset, syntaxError.offset + syntaxError.length);
    const where = `line ${range.start.line + 1}, column ${range.start.column + 1}`;
    const what = describeSyntaxError(text, syntaxError);
    const message = `not valid JSON at ${where}: ${what}; the rest of the file is not read until this is fixed`;
    yield readError(ids, { range, index, positionalId: positionalId('case', index + 1) }, message);
  }
}

/** The array of case nodes, or what was seen instead. */
function findCaseList(root: Node | undefined): readonly Node[] | string {
  if (root === undefined) return 'the file is empty';
  if (root.type === 'array') return root.children ?? [];
  if (root.type !== 'object') return `it holds ${nodeKind(root)}`;
  const property = root.children?.find((child) => child.children?.[0]?.value === 'cases');
  const cases = property?.children?.[1];
  if (cases === undefined) return 'it holds an object without a "cases" field';
  if (cases.type !== 'array') return `its "cases" field is ${nodeKind(cases)}`;
  return cases.children ?? [];
}

function nodeKind(node: Node): string {
  switch (node.type) {
    case 'object':
      return 'an object';
    case 'array':
      return 'an array';
    case 'null':
      return 'null';
    default:
      return `a ${node.type}`;
  }
}

/** The JS value of a node; keys are own data properties (a `__proto__` key stays a plain key). */
function valueOf(node: Node): unknown {
  switch (node.type) {
    case 'object':
      return Object.fromEntries(
        (node.children ?? []).flatMap((property) => {
          const [key, value] = property.children ?? [];
          return key === undefined || value === undefined ? [] : [[String(key.value), valueOf(value)]];
        }),
      );
    case 'array':
      return (node.children ?? []).map(valueOf);
    default:
      return node.value as unknown;
  }
}

function describeSyntaxError(text: string, error: ParseError): string {
  const found = error.offset >= text.length ? 'the end of the file' : characterAt(text, error.offset);
  switch (printParseErrorCode(error.error)) {
    case 'InvalidSymbol':
      return `unexpected character ${found}`;
    case 'InvalidNumberFormat':
      return 'a number is not written as JSON writes numbers';
    case 'PropertyNameExpected':
      return `expected a property name in double quotes, found ${found}`;
    case 'ValueExpected':
      return `expected a value, found ${found}`;
    case 'ColonExpected':
      return `expected ':' after the property name, found ${found}`;
    case 'CommaExpected':
      return `expected ',' between values, found ${found}`;
    case 'CloseBraceExpected':
      return `expected '}' to close the object, found ${found}`;
    case 'CloseBracketExpected':
      return `expected ']' to close the array, found ${found}`;
    case 'EndOfFileExpected':
      return `expected the end of the file after the JSON value, found ${found}`;
    case 'InvalidCommentToken':
    case 'UnexpectedEndOfComment':
      return 'comments are not allowed in JSON';
    case 'UnexpectedEndOfString':
      return 'a string is not closed';
    case 'UnexpectedEndOfNumber':
      return 'a number ends too early';
    case 'InvalidUnicode':
      return 'a \\u escape needs four hex digits';
    case 'InvalidEscapeCharacter':
      return 'a string has an invalid escape';
    case 'InvalidCharacter':
      return 'a string holds a control character (write it escaped)';
    default:
      return `unexpected ${found}`;
  }
}
