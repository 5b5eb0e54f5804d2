/**
 * `evallens report <report.json> --stream`, for the results view (extension/results/reportStream.ts):
 * the report read and checked as `--reporter json` does, but printed in parts as they are checked, so
 * the view shows the summary and first rows while the rest is still read. One JSON value a line:
 *
 *   {"type":"head","report":{…the report, with its first cases and results…}}
 *   {"type":"chunk","cases":[…],"results":[…]}        (as many as needed, each bounded)
 *   {"type":"end"}   or   {"type":"error","message":"<file>:<line>:<col>: …"}
 *
 * A problem found part-way (a result that does not fit the schema, a file cut off) ends the stream with
 * an error line after the parts before it, named at file:line:col as `--reporter json` names it.
 * The file is read bounded as every report is; a structural scan finds each top-level field and each
 * element of `cases` and `results`, and each part is parsed and schema-checked on its own.
 */
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { jsonPrintable } from '../shared/text/printable';
import { readBoundedBytes } from '../core/text/boundedRead';
import { MAX_JSON_DEPTH, tooDeepJson } from '../core/text/jsonDepth';
import { depthErrorAt, ReportFileError, reportSchemaProblem, schemaError, syntaxError } from './reportJson';

/** At most this many cases and results a part, and about this much of their text (one larger element is a part alone). */
export const STREAM_ITEMS_PER_PART = 5000;
export const STREAM_FIRST_PART_ITEMS = 1000;
export const STREAM_CHARS_PER_PART = 8 * 1024 * 1024;

type Range = readonly [start: number, end: number];

interface Layout {
  /** Top-level fields other than cases and results, as text ranges. */
  readonly fields: Map<string, Range>;
  readonly cases: Range[];
  readonly results: Range[];
  /** Which of cases and results were arrays. */
  readonly arrays: Set<string>;
  /** Where the structure stopped making sense (undefined: it is whole). */
  readonly brokenAt: number | undefined;
}

/** `path` a report.json or a run folder holding one. */
export async function streamReportCommand(path: string, out: NodeJS.WritableStream): Promise<number> {
  const resolved = resolve(path);
  const folder = await stat(resolved).then(
    (s) => s.isDirectory(),
    () => false,
  );
  return streamReport(folder ? join(resolved, 'report.json') : resolved, out);
}

/** Prints the report's parts to `out`; 0 when it was whole and fit the schema, 2 otherwise (the error line said why). */
export async function streamReport(path: string, out: NodeJS.WritableStream): Promise<number> {
  const write = (frame: string): Promise<void> => writeLine(out, jsonPrintable(frame));
  // Bytes, decoded value by value: JSON's structure is ASCII, and UTF-8 never puts an ASCII byte inside a character.
  const read = await readBoundedBytes(path, 'report');
  if (!read.ok) {
    const why = read.code === 'ENOENT' ? 'it does not exist' : read.reason;
    await write(errorFrame(new ReportFileError(path, 1, 1, `cannot read the report file (${why})`)));
    return 2;
  }
  const bom = read.bytes[0] === 0xef && read.bytes[1] === 0xbb && read.bytes[2] === 0xbf;
  const bytes = bom ? read.bytes.subarray(3) : read.bytes;
  const shift = bom ? 1 : 0;
  // The whole text only to name where a problem is (as `--reporter json` names it).
  let decoded: string | undefined;
  const whole = (): string => (decoded ??= bytes.toString('utf8'));
  const charOffset = (byteOffset: number): number => bytes.toString('utf8', 0, byteOffset).length;
  const layout = scanReport(bytes);
  // Nesting is checked value by value (a value inside the report's object and arrays sits one or two levels down).
  const tooDeep = (ranges: Iterable<Range>, levels: number): ReportFileError | undefined => {
    for (const [start, end] of ranges) {
      const text = bytes.toString('utf8', start, end);
      const deep = tooDeepJson(text, MAX_JSON_DEPTH - levels);
      if (deep !== undefined) return depthErrorAt(whole(), path, shift, charOffset(start) + text.slice(0, deep).length);
    }
    return undefined;
  };
  const head: Record<string, unknown> = {};
  const headDeep = tooDeep(layout.fields.values(), 1);
  if (headDeep !== undefined) {
    await write(errorFrame(headDeep));
    return 2;
  }
  for (const [key, [start, end]] of layout.fields) {
    try {
      head[key] = JSON.parse(bytes.toString('utf8', start, end));
    } catch {
      await write(errorFrame(syntaxError(whole(), path, shift)));
      return 2;
    }
  }
  const { cases, results } = layout;
  let caseAt = 0;
  let resultAt = 0;
  for (let part = 0; part === 0 || caseAt < cases.length || resultAt < results.length; part++) {
    // The first part small: the view paints the summary and first rows from it while the rest is checked.
    const items = part === 0 ? STREAM_FIRST_PART_ITEMS : STREAM_ITEMS_PER_PART;
    const caseEnd = partEnd(cases, caseAt, items);
    const resultEnd = partEnd(results, resultAt, items);
    const deep = tooDeep(cases.slice(caseAt, caseEnd), 2) ?? tooDeep(results.slice(resultAt, resultEnd), 2);
    if (deep !== undefined) {
      await write(errorFrame(deep));
      return 2;
    }
    const caseTexts = texts(bytes, cases, caseAt, caseEnd);
    const resultTexts = texts(bytes, results, resultAt, resultEnd);
    let caseValues: unknown[];
    let resultValues: unknown[];
    try {
      caseValues = caseTexts.map((t) => JSON.parse(t) as unknown);
      resultValues = resultTexts.map((t) => JSON.parse(t) as unknown);
    } catch {
      await write(errorFrame(syntaxError(whole(), path, shift)));
      return 2;
    }
    // Each part is checked as a report of the head and its own cases and results (the schema has no rule across elements).
    // A report without the arrays, or with something else in their place, is checked as it is (a cut-off one has what came).
    const problem = reportSchemaProblem({
      ...head,
      ...((layout.arrays.has('cases') || layout.brokenAt !== undefined) && !('cases' in head)
        ? { cases: caseValues }
        : {}),
      ...((layout.arrays.has('results') || layout.brokenAt !== undefined) && !('results' in head)
        ? { results: resultValues }
        : {}),
    });
    if (problem !== undefined) {
      // Before any part is out, a missing field may be the file's break; a broken file says so first.
      if (layout.brokenAt !== undefined && part === 0 && !/^\/(cases|results)\//.test(problem.pointer)) {
        await write(errorFrame(syntaxError(whole(), path, shift)));
        return 2;
      }
      const pointer = problem.pointer
        .replace(/^\/cases\/(\d+)/, (_, i: string) => `/cases/${caseAt + Number(i)}`)
        .replace(/^\/results\/(\d+)/, (_, i: string) => `/results/${resultAt + Number(i)}`);
      await write(errorFrame(schemaError(whole(), path, shift, pointer, problem.message, problem.count)));
      return 2;
    }
    const itemsText = `"cases":[${caseTexts.join(',')}],"results":[${resultTexts.join(',')}]`;
    if (part === 0) {
      const headText = JSON.stringify(head);
      const report = headText === '{}' ? `{${itemsText}}` : `${headText.slice(0, -1)},${itemsText}}`;
      await write(`{"type":"head","report":${report}}`);
    } else {
      await write(`{"type":"chunk",${itemsText}}`);
    }
    caseAt = caseEnd;
    resultAt = resultEnd;
  }
  if (layout.brokenAt !== undefined) {
    await write(errorFrame(syntaxError(whole(), path, shift)));
    return 2;
  }
  await write('{"type":"end"}');
  return 0;
}

function errorFrame(error: ReportFileError): string {
  return JSON.stringify({ type: 'error', message: error.message });
}

/** The end of the part that starts at `from`: at most `items` elements and about STREAM_CHARS_PER_PART of text. */
function partEnd(ranges: readonly Range[], from: number, items: number): number {
  let chars = 0;
  let at = from;
  while (at < ranges.length && at - from < items) {
    const [start, end] = ranges[at] ?? [0, 0];
    if (at > from && chars + (end - start) > STREAM_CHARS_PER_PART) break;
    chars += end - start;
    at++;
  }
  return at;
}

/** The elements' texts on one line: a line break outside a string is only whitespace in JSON (inside one it is escaped). */
function texts(bytes: Buffer, ranges: readonly Range[], from: number, to: number): string[] {
  const out: string[] = [];
  for (let i = from; i < to; i++) {
    const [start, end] = ranges[i] ?? [0, 0];
    const t = bytes.toString('utf8', start, end);
    out.push(/[\r\n]/.test(t) ? t.replace(/[\r\n]/g, ' ') : t);
  }
  return out;
}

async function writeLine(out: NodeJS.WritableStream, line: string): Promise<void> {
  if (!out.write(`${line}\n`)) await new Promise<void>((resolve) => out.once('drain', resolve));
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * The report's top-level fields and the elements of its `cases` and `results`, by offset; stops where
 * the structure breaks (a file cut off, a missing comma). Tokens inside a value are not checked here:
 * each value's JSON.parse does that.
 */
export function scanReport(body: Buffer): Layout {
  const fields = new Map<string, Range>();
  const cases: Range[] = [];
  const results: Range[] = [];
  const arrays = new Set<string>();
  const broken = (at: number): Layout => ({ fields, cases, results, arrays, brokenAt: at });
  let i = skipSpace(body, 0);
  if (body[i] !== OPEN_BRACE) return broken(i);
  i = skipSpace(body, i + 1);
  if (body[i] === CLOSE_BRACE) return whole(body, i + 1, { fields, cases, results, arrays });
  for (;;) {
    if (body[i] !== QUOTE) return broken(i);
    const keyEnd = endOfString(body, i);
    if (keyEnd >= body.length) return broken(i);
    let key: string;
    try {
      key = JSON.parse(body.toString('utf8', i, keyEnd + 1)) as string;
    } catch {
      return broken(i);
    }
    i = skipSpace(body, keyEnd + 1);
    if (body[i] !== COLON) return broken(i);
    i = skipSpace(body, i + 1);
    if ((key === 'cases' || key === 'results') && body[i] === OPEN_BRACKET) {
      const list = key === 'cases' ? cases : results;
      list.length = 0;
      arrays.add(key);
      i = skipSpace(body, i + 1);
      if (body[i] === CLOSE_BRACKET) i++;
      else
        for (;;) {
          const end = endOfValue(body, i);
          if (end === undefined) return broken(i);
          list.push([i, end]);
          i = skipSpace(body, end);
          const c = body[i];
          if (c === CLOSE_BRACKET) {
            i++;
            break;
          }
          if (c !== COMMA) return broken(i);
          i = skipSpace(body, i + 1);
        }
      fields.delete(key);
    } else {
      const end = endOfValue(body, i);
      if (end === undefined) return broken(i);
      fields.set(key, [i, end]);
      i = end;
    }
    i = skipSpace(body, i);
    const c = body[i];
    if (c === CLOSE_BRACE) return whole(body, i + 1, { fields, cases, results, arrays });
    if (c !== COMMA) return broken(i);
    i = skipSpace(body, i + 1);
  }
}

function whole(body: Uint8Array, after: number, found: Omit<Layout, 'brokenAt'>): Layout {
  const rest = skipSpace(body, after);
  return { ...found, brokenAt: rest < body.length ? rest : undefined };
}

function skipSpace(text: Uint8Array, i: number): number {
  let at = i;
  for (; at < text.length; at++) {
    const c = text[at];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
  }
  return at;
}

/** The offset just after the value starting at `start` (strings and brackets balanced), or undefined when the text ends first. */
function endOfValue(text: Uint8Array, start: number): number | undefined {
  const first = text[start];
  if (first === QUOTE) {
    const end = endOfString(text, start);
    return end < text.length ? end + 1 : undefined;
  }
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (c === QUOTE) i = endOfString(text, i);
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    return undefined;
  }
  // A number, true, false or null: up to the next delimiter (JSON.parse checks its spelling).
  let i = start;
  while (i < text.length) {
    const c = text[i];
    if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09)
      break;
    i++;
  }
  return i > start ? i : undefined;
}

function endOfString(text: Uint8Array, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i;
  }
  return text.length;
}
