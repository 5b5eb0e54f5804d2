import { parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { tooDeepJson, tooDeepMessage } from '../text/jsonDepth';
import { LineIndex, type SourcePosition, type SourceRange } from '../text/position';
import { expandEnvironment, ExpansionTooLong, type ExpandedText } from './agentEvalset';
import { unreadable } from './datasetError';
import { characterAt, describeJsonParseError } from './jsonSyntax';
import { JsonListScanner, type ScanEvent, type ScanOptions } from './jsonListScanner';
import type { DatasetSource } from './source';
import { datasetBytes } from './textFile';
import { displayLineAndColumn } from '../../shared/text/displayPosition';

/**
 * The longest case (one element of the list) a JSON dataset may hold, in UTF-16 units: memory is
 * bounded by this, not by the file. 64 Mi characters is far above any real case (EvalBench's largest
 * recorded conversations are a few MB).
 */
export const MAX_CASE_CHARS = 64 * 1024 * 1024;

/** The scanner's events over a dataset's text, read piece by piece (`JsonListScanner`). */
export async function* scanJsonDataset(source: DatasetSource, options: ScanOptions): AsyncGenerator<ScanEvent> {
  const scanner = new JsonListScanner(options);
  const decoder = new TextDecoder('utf-8');
  try {
    for await (const chunk of datasetBytes(source)) {
      yield* scanner.push(decoder.decode(chunk as Uint8Array, { stream: true }));
      if (scanner.done) return;
    }
    yield* scanner.push(decoder.decode());
    yield* scanner.end();
  } catch (error) {
    throw unreadable(source.path, error);
  }
}

/** What a first, text-free pass over a JSON dataset finds: its root fields and its first unset placeholder. */
export interface DatasetProbe {
  /** The root object's field names; undefined when the root is not an object. */
  readonly keys?: readonly string[];
  readonly unset?: { readonly name: string; readonly start: SourcePosition; readonly end: SourcePosition };
}

/**
 * Finds the root object's fields (a root array stops the pass at once) and the first `${NAME}` whose
 * variable is not set, anywhere in the text, keeping no text: a file's list field is known only once
 * every field is seen (`cases` wins over `scenarios` wherever it is), and an evalset's unset
 * variable must stop the read before any case is read, as EvalBench's whole-file expansion does.
 */
export async function probeJsonDataset(source: DatasetSource, env: NodeJS.ProcessEnv): Promise<DatasetProbe> {
  const keys: string[] = [];
  let unset: DatasetProbe['unset'];
  const scanner = new JsonListScanner({
    listKey: undefined,
    maxItemChars: Number.POSITIVE_INFINITY,
    keepText: false,
    onPlaceholder: (name, start, end) => {
      if (unset === undefined && env[name] === undefined) unset = { name, start, end };
    },
  });
  const decoder = new TextDecoder('utf-8');
  const take = (events: readonly ScanEvent[]): void => {
    for (const event of events) if (event.kind === 'key') keys.push(event.key);
  };
  try {
    for await (const chunk of datasetBytes(source)) {
      take(scanner.push(decoder.decode(chunk as Uint8Array, { stream: true })));
      if (scanner.rootArray) return {};
      if (scanner.done) break;
    }
    if (!scanner.done) take([...scanner.push(decoder.decode()), ...scanner.end()]);
  } catch (error) {
    throw unreadable(source.path, error);
  }
  if (scanner.rootArray) return {};
  return unset === undefined ? { keys } : { keys, unset };
}

/** A parsed element, or where and why its text is not JSON (positions in the file). */
export type ParsedText =
  | { readonly ok: true; readonly value: unknown }
  /** `skip`: the text cannot be used (nested past MAX_JSON_DEPTH, or its expansion too long), but the next element can still be read. */
  | {
      readonly ok: false;
      readonly at: SourcePosition;
      readonly what: string;
      readonly length: number;
      readonly skip?: true;
    };

/**
 * Parses one element's (or value's) text, with `${NAME}`s expanded first when `env` is given
 * (evalsets). A problem is placed in the file: its offset in the text maps back through the
 * expansion to the placeholder, and from the element's start to the file's line and column. A
 * substituted value is never quoted: "the value of ${X} does not fit into the JSON there".
 */
export function parseElementText(
  text: string,
  start: SourcePosition,
  file: string,
  env: NodeJS.ProcessEnv | undefined,
): ParsedText {
  let expanded: ExpandedText | undefined;
  try {
    expanded =
      env !== undefined && text.includes('${') ? expandEnvironment(text, file, new LineIndex(text), env) : undefined;
  } catch (error) {
    if (!(error instanceof ExpansionTooLong)) throw error;
    return { ok: false, at: positionIn(text, error.offset, start), what: error.message, length: 2, skip: true };
  }
  const parsed = expanded?.text ?? text;
  const deep = tooDeepJson(parsed);
  if (deep !== undefined) {
    const offset = expanded?.originalOffset(deep) ?? deep;
    return {
      ok: false,
      at: positionIn(text, offset, start),
      what: `it has ${tooDeepMessage()}`,
      length: 1,
      skip: true,
    };
  }
  try {
    return { ok: true, value: JSON.parse(parsed) as unknown };
  } catch (error) {
    const problem = locate(parsed, error);
    const variable = expanded?.variableAt(problem.offset);
    const offset = expanded?.originalOffset(problem.offset) ?? problem.offset;
    const what =
      variable === undefined ? problem.what : `the value of \${${variable}} does not fit into the JSON there`;
    return { ok: false, at: positionIn(text, offset, start), what, length: offset < text.length ? 1 : 0 };
  }
}

/** The position of `offset` of an element's text in the file, the element starting at `start`. */
export function positionIn(text: string, offset: number, start: SourcePosition): SourcePosition {
  const inner = new LineIndex(text).position(offset);
  return {
    offset: start.offset + inner.offset,
    line: start.line + inner.line,
    column: inner.line === 0 ? start.column + inner.column : inner.column,
  };
}

export function rangeAt(file: string, at: SourcePosition, length: number): SourceRange {
  return { file, start: at, end: { offset: at.offset + length, line: at.line, column: at.column + length } };
}

/** "not valid JSON at line 3, column 28: …; the rest of the file is not read until this is fixed". */
export function syntaxMessage(at: SourcePosition, what: string): string {
  return `not valid JSON at ${displayLineAndColumn(at)}: ${what}; the rest of the file is not read until this is fixed`;
}

/** jsonc-parser finds where the text stops being JSON (with the words the whole-file reader used). */
function locate(text: string, error: unknown): { offset: number; what: string } {
  const errors: ParseError[] = [];
  parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (first === undefined) return describeJsonParseError(text, error);
  return { offset: first.offset, what: describeSyntaxError(text, first) };
}

/** jsonc-parser's error code in words, naming at most the one character found. */
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
