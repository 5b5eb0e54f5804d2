/**
 * Reads a `report.json` (the CLI's, from this machine or from CI) for `evallens report`, and so for
 * the results view, which asks the CLI for it (extension/results/reportFile.ts) rather than checking
 * it on the editor's thread. Every failure is an Error naming the file, line and column, and saying
 * what was expected and what was seen, without quoting the file's text (reports hold outputs).
 */
import { type ParseError, findNodeAtLocation, parse, parseTree, printParseErrorCode } from 'jsonc-parser';
import type { ValidateFunction } from 'ajv';
import type { Report } from '../core/report/report';
import { ownValidator, reportSpec } from '../core/schema/ownValidators';
import { readBoundedText } from '../core/text/boundedRead';
import { tooDeepJson, tooDeepMessage } from '../core/text/jsonDepth';
import { LineIndex } from '../core/text/position';
import { toDisplay } from '../shared/text/displayPosition';

export class ReportFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    detail: string,
  ) {
    super(`${file}:${line}:${column}: ${detail}`);
    this.name = 'ReportFileError';
  }
}

let validator: ValidateFunction | undefined;

function validate(value: unknown): ValidateFunction {
  // Precompiled in the bundle (core/schema/ownValidators.ts): compiling it was ~0.45 s before a
  // streamed report's first part.
  validator ??= ownValidator(reportSpec());
  validator(value);
  return validator;
}

/** 1-based line and column of an offset (UTF-16 units, as editors count). */
function position(text: string, offset: number): { line: number; column: number } {
  return toDisplay(new LineIndex(text).position(offset));
}

export async function readReportFile(path: string): Promise<Report> {
  // Bounded like every read (a symlink to /dev/zero, a FIFO or a huge file is refused, not read).
  const read = await readBoundedText(path, 'report');
  if (!read.ok)
    throw new ReportFileError(
      path,
      1,
      1,
      `cannot read the report file (${read.code === 'ENOENT' ? 'it does not exist' : read.reason})`,
    );
  return parseReport(read.text, path);
}

/** Parses and checks a report's text; `path` names it in errors. */
export function parseReport(text: string, path: string): Report {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const shift = text.length - body.length;
  const deep = depthError(body, path, shift);
  if (deep !== undefined) throw deep;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw syntaxError(body, path, shift);
  }
  const check = validate(value);
  const first = check.errors?.[0];
  if (first === undefined) return value as Report;
  throw schemaError(body, path, shift, first.instancePath, first.message, check.errors?.length ?? 1);
}

/** Checks a report's value against the schema; the first problem's JSON pointer, message and the count, or undefined. */
export function reportSchemaProblem(
  value: unknown,
): { readonly pointer: string; readonly message: string | undefined; readonly count: number } | undefined {
  const check = validate(value);
  const first = check.errors?.[0];
  return first === undefined
    ? undefined
    : { pointer: first.instancePath, message: first.message, count: check.errors?.length ?? 1 };
}

/** The schema's first problem, at `pointer` (a JSON pointer into `body`), as an error at its file:line:col. */
export function schemaError(
  body: string,
  path: string,
  shift: number,
  pointer: string,
  message: string | undefined,
  count: number,
): ReportFileError {
  const segments = pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  const node = findNodeAtLocation(parseTree(body) ?? { type: 'null', offset: 0, length: 0 }, segments);
  const at = position(body, node?.offset ?? 0);
  const where = pointer === '' ? 'the top level' : pointer;
  const more = count > 1 ? ` (and ${count - 1} more problems)` : '';
  return new ReportFileError(
    path,
    at.line,
    at.column + (at.line === 1 ? shift : 0),
    `expected an EvalLens report (schemas/report.schema.json), but at ${where} the value ${message ?? 'does not fit'}${more}`,
  );
}

/** A report nested past the cap would overflow the stack in the schema check and the view: refused at the bracket. */
export function depthError(body: string, path: string, shift: number): ReportFileError | undefined {
  const deep = tooDeepJson(body);
  return deep === undefined ? undefined : depthErrorAt(body, path, shift, deep);
}

/** The refusal of a bracket nested too deep at `offset` of `body`. */
export function depthErrorAt(body: string, path: string, shift: number, offset: number): ReportFileError {
  const at = position(body, offset);
  return new ReportFileError(
    path,
    at.line,
    at.column + (at.line === 1 ? shift : 0),
    `expected an EvalLens report, but it has ${tooDeepMessage()}`,
  );
}

/** JSON.parse says little and quotes the text; jsonc-parser gives the first error's offset and kind. */
export function syntaxError(body: string, path: string, shift: number): ReportFileError {
  const errors: ParseError[] = [];
  parse(body, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  const at = position(body, first?.offset ?? 0);
  // "CommaExpected" → "comma expected"
  const what =
    first === undefined
      ? 'text that is not JSON'
      : `a JSON syntax error (${printParseErrorCode(first.error)
          .replace(/(?<=[a-z])(?=[A-Z])/g, ' ')
          .toLowerCase()})`;
  return new ReportFileError(
    path,
    at.line,
    at.column + (at.line === 1 ? shift : 0),
    `expected a JSON report, saw ${what}`,
  );
}
