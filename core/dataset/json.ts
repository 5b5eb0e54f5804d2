import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { jsonNodeValue } from './jsonNodeValue';
import type { DatasetRecord } from '../case';
import { LineIndex, type SourceRange } from '../text/position';
import { caseOfScenario, expandEnvironment, isEvalset } from './agentEvalset';
import { caseFromValue, readError } from './caseFromValue';
import { CaseIdTracker, positionalId } from './caseIdTracker';
import { DatasetError, displayPath } from './datasetError';
import { characterAt } from './jsonSyntax';
import type { DatasetSource } from './source';
import { readDatasetText } from './textFile';

/**
 * Reads a JSON dataset: an array of case objects, or an object with a `cases` array, or an EvalBench
 * agentic evalset (an object with a `scenarios` array and no `cases`; see `agentEvalset.ts`), whose
 * `${VAR}` placeholders are expanded from the environment first and whose scenarios become cases.
 * Each case's range is its element's exact span in the file. A syntax error is one error record at its
 * position, after the cases that end before it; nothing after it is read, since nothing after it can
 * be trusted. Cases without an `id` get `case-N` (1-based position in the array).
 */
export async function* readJson(source: DatasetSource): AsyncGenerator<DatasetRecord> {
  const file = source.path;
  const text = await readDatasetText(file, source.text);
  const lines = new LineIndex(text);
  let errors: ParseError[] = [];
  let root = parseTree(text, errors, PARSE_OPTIONS);
  const evalset = isEvalset(root);
  const expanded = evalset ? expandEnvironment(text, file, lines) : undefined;
  if (expanded !== undefined && expanded.text !== text) {
    errors = [];
    root = parseTree(expanded.text, errors, PARSE_OPTIONS);
  }
  const inFile = (offset: number): number => expanded?.originalOffset(offset) ?? offset;
  const rangeOf = (start: number, end: number): SourceRange => lines.range(file, inFile(start), inFile(end));
  const syntaxError = errors[0];
  const list = findCaseList(root);
  if (typeof list === 'string' && syntaxError === undefined) {
    const range = root === undefined ? undefined : rangeOf(root.offset, root.offset + root.length);
    throw new DatasetError(file, `dataset ${displayPath(file)} must hold a JSON array of cases (or an object with a "cases" array), but ${list}`, range);
  }
  const ids = new CaseIdTracker();
  const stop = syntaxError?.offset ?? Number.POSITIVE_INFINITY;
  let index = 0;
  for (const element of typeof list === 'string' ? [] : list) {
    if (element.offset + element.length > stop) break;
    const range = rangeOf(element.offset, element.offset + element.length);
    const value = evalset ? caseOfScenario(jsonNodeValue(element)) : jsonNodeValue(element);
    yield caseFromValue(value, { range, index, positionalId: positionalId('case', index + 1), subject: evalset ? 'this scenario' : 'this element' }, ids);
    index += 1;
  }
  if (syntaxError !== undefined) {
    const range = rangeOf(syntaxError.offset, syntaxError.offset + syntaxError.length);
    const where = `line ${range.start.line + 1}, column ${range.start.column + 1}`;
    const variable = expanded?.variableAt(syntaxError.offset);
    // A substituted value is never quoted: it may be a secret.
    const what = variable === undefined ? describeSyntaxError(expanded?.text ?? text, syntaxError) : `the value of \${${variable}} does not fit into the JSON there`;
    const message = `not valid JSON at ${where}: ${what}; the rest of the file is not read until this is fixed`;
    yield readError(ids, { range, index, positionalId: positionalId('case', index + 1) }, message);
  }
}

const PARSE_OPTIONS = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: true } as const;

/** The array of case nodes (`cases`, else an evalset's `scenarios`), or what was seen instead. */
function findCaseList(root: Node | undefined): readonly Node[] | string {
  if (root === undefined) return 'the file is empty';
  if (root.type === 'array') return root.children ?? [];
  if (root.type !== 'object') return `it holds ${nodeKind(root)}`;
  for (const field of ['cases', 'scenarios']) {
    const property = root.children?.find((child) => child.children?.[0]?.value === field);
    const list = property?.children?.[1];
    if (list === undefined) continue;
    if (list.type !== 'array') return `its "${field}" field is ${nodeKind(list)}`;
    return list.children ?? [];
  }
  return 'it holds an object without a "cases" field';
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
