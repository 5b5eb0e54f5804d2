/**
 * `evallens report <report.json> --stream`, for the results view (extension/results/reportStream.ts):
 * the report read and checked as `--reporter json` does, but printed in parts as they are checked, so
 * the view shows the summary and first rows while the rest is still read. One JSON value a line:
 *
 *   {"type":"head","detailsApart":true,"report":{…the report, with its first cases and results…}}
 *   {"type":"chunk","cases":[…],"results":[…]}        (as many as needed, each bounded)
 *   {"type":"end"}   or   {"type":"error","message":"<file>:<line>:<col>: …"}
 *
 * `detailsApart`: the results are printed without their `details` (about a third of a report's bytes,
 * which the view needs only for the result it opens); they are still read and checked. Each such line
 * then also has `"resultsAt":[start, end, …]`, two numbers a result: where the result's bytes are in
 * the file, so the view reads one case's back itself (extension/results/resultsAt.ts); it asks the CLI
 * (cli/reportDetails.ts) when the file has changed since. A report read from EvalBench's results
 * (`imported`) keeps them inline: the view's case data comes from them, and the file may be a temporary one.
 *
 * A problem found part-way (a result that does not fit the schema, a file cut off) ends the stream with
 * an error line after the parts before it, named at file:line:col as `--reporter json` names it.
 * The file is read bounded as every report is; a structural scan finds each top-level field and each
 * element of `cases` and `results`, and each part is parsed and schema-checked on its own.
 */
import { isAscii } from 'node:buffer';
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { jsonPrintable } from '../shared/text/printable';
import { readBoundedBytes } from '../core/text/boundedRead';
import { MAX_JSON_DEPTH, tooDeepJson } from '../core/text/jsonDepth';
import { LineIndex } from '../core/text/position';
import { toDisplay } from '../shared/text/displayPosition';
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
  const write = (frame: string | Buffer): Promise<void> =>
    writeLine(out, typeof frame === 'string' ? Buffer.from(`${printableLine(frame)}\n`) : frame);
  // Bytes, decoded value by value: JSON's structure is ASCII, and UTF-8 never puts an ASCII byte inside a character.
  const read = await readBoundedBytes(path, 'report');
  if (!read.ok) {
    const why = read.code === 'ENOENT' ? 'it does not exist' : read.reason;
    await write(errorFrame(new ReportFileError(path, 1, 1, `cannot read the report file (${why})`)));
    return 2;
  }
  const bom = read.bytes[0] === 0xef && read.bytes[1] === 0xbb && read.bytes[2] === 0xbf;
  const bytes = bom ? read.bytes.subarray(3) : read.bytes;
  const reader = new PartReader(path, bytes, bom ? 1 : 0, bom ? 3 : 0);
  // A report that ends with its results (as the CLI writes one) prints its first part as soon as the
  // scan has reached it; when that part has a problem, or the report ends otherwise, the whole layout
  // is scanned first (so the first part and any problem in it are exactly as when reading it whole).
  let early = endsAfterAnArray(bytes);
  let first = early ? reader.first() : undefined;
  if (first === undefined || 'error' in first) {
    early = false;
    reader.scan.advance();
    first = reader.first();
  }
  if ('error' in first) {
    await write(errorFrame(first.error));
    return 2;
  }
  await write(first.line);
  for (;;) {
    const next = reader.next();
    if (next === undefined) break;
    await write('error' in next ? errorFrame(next.error) : next.line);
    if ('error' in next) return 2;
  }
  if (reader.scan.brokenAt !== undefined) {
    await write(errorFrame(reader.syntaxError()));
    return 2;
  }
  const late = reader.lateField();
  if (late !== undefined) {
    // The head went out without that field: say so rather than show the report without it.
    await write(
      errorFrame(
        reader.errorAt(
          late.at,
          `expected the results to be the report's last field, as the CLI writes it (or "imported" or "comparison" last), saw the field "${late.key}" after them`,
        ),
      ),
    );
    return 2;
  }
  await write('{"type":"end"}');
  return 0;
}

/** A part's line is bytes, made printable and ending in a line break. */
type Part = { readonly line: Buffer } | { readonly error: ReportFileError };

/** A report's parts, checked one at a time, scanning only as far as each needs. */
class PartReader {
  readonly scan: ReportScan;
  private head: Record<string, unknown> = {};
  /** How many of the fields after the results the head holds (all of them once the scan was done). */
  private lateFieldsFrom = Infinity;
  private caseAt = 0;
  private resultAt = 0;
  /** The whole text only to name where a problem is (as `--reporter json` names it). */
  private decoded: string | undefined;
  /** Results are printed without their `details` (not for a report read from EvalBench's results). */
  private detailsApart = true;

  constructor(
    private readonly path: string,
    private readonly bytes: Buffer,
    private readonly shift: number,
    /** Where `bytes` start in the file (after a byte order mark). */
    private readonly fileOffset: number,
  ) {
    this.scan = new ReportScan(bytes);
  }

  /** The head with the first cases and results (read again from the start each call). */
  first(): Part {
    const { scan } = this;
    this.caseAt = 0;
    this.resultAt = 0;
    scan.advance(() => this.scanned(STREAM_FIRST_PART_ITEMS));
    this.lateFieldsFrom = scan.done ? Infinity : scan.afterResults.length;
    this.head = {};
    this.detailsApart = !scan.fields.has('imported');
    const headDeep = this.tooDeep(scan.fields.values(), 1);
    if (headDeep !== undefined) return { error: headDeep };
    for (const [key, [start, end]] of scan.fields) {
      try {
        this.head[key] = JSON.parse(this.bytes.toString('utf8', start, end));
      } catch {
        return { error: this.syntaxError() };
      }
    }
    return this.part(true, STREAM_FIRST_PART_ITEMS);
  }

  /** The next part, or undefined when every case and result scanned has been printed. */
  next(): Part | undefined {
    const { scan } = this;
    const items = STREAM_ITEMS_PER_PART;
    scan.advance(() => this.scanned(items));
    if (this.caseAt >= scan.cases.length && this.resultAt >= scan.results.length) return undefined;
    return this.part(false, items);
  }

  /** Whether the scan has found the next `items` cases and results, or every one there is. */
  private scanned(items: number): boolean {
    const { scan } = this;
    return (
      (scan.cases.length >= this.caseAt + items || scan.closed.has('cases')) &&
      (scan.results.length >= this.resultAt + items || scan.closed.has('results'))
    );
  }

  /** A field after the results that the scan found only after the head was printed (the head lacks it). */
  lateField(): { readonly key: string; readonly at: number } | undefined {
    return this.scan.afterResults[this.lateFieldsFrom];
  }

  private part(first: boolean, items: number): Part {
    const { scan, caseAt, resultAt } = this;
    const { cases, results } = scan;
    const caseEnd = partEnd(cases, caseAt, items);
    const resultEnd = partEnd(results, resultAt, items);
    const deep = this.tooDeepAmong(cases, caseAt, caseEnd) ?? this.tooDeepAmong(results, resultAt, resultEnd);
    if (deep !== undefined) return { error: deep };
    let caseValues: unknown[];
    let resultValues: unknown[];
    try {
      // The part's elements in one parse each: the text between them is what the scan checked (commas, spaces).
      caseValues = this.parseAll(cases, caseAt, caseEnd);
      resultValues = this.parseAll(results, resultAt, resultEnd);
    } catch {
      return { error: this.syntaxError() };
    }
    // Each part is checked as a report of the head and its own cases and results (the schema has no rule across elements).
    // A report without the arrays, or with something else in their place, is checked as it is (a cut-off one has what came).
    const { head } = this;
    const problem = reportSchemaProblem({
      ...head,
      ...((scan.arrays.has('cases') || scan.brokenAt !== undefined) && !('cases' in head) ? { cases: caseValues } : {}),
      ...((scan.arrays.has('results') || scan.brokenAt !== undefined) && !('results' in head)
        ? { results: resultValues }
        : {}),
    });
    if (problem !== undefined) {
      // Before any part is out, a missing field may be the file's break; a broken file says so first.
      if (scan.brokenAt !== undefined && first && !/^\/(cases|results)\//.test(problem.pointer))
        return { error: this.syntaxError() };
      const pointer = problem.pointer
        .replace(/^\/cases\/(\d+)/, (_, i: string) => `/cases/${caseAt + Number(i)}`)
        .replace(/^\/results\/(\d+)/, (_, i: string) => `/results/${resultAt + Number(i)}`);
      return { error: schemaError(this.whole(), this.path, this.shift, pointer, problem.message, problem.count) };
    }
    this.caseAt = caseEnd;
    this.resultAt = resultEnd;
    // The elements' own bytes, joined by commas (a result's details cut out): no decoding, no re-serializing.
    const pieces: Buffer[] = [];
    const add = (text: string): number => pieces.push(Buffer.from(text));
    if (first) {
      const headText = printableLine(JSON.stringify(head));
      add(`{"type":"head",${this.detailsApart ? '"detailsApart":true,' : ''}"report":`);
      add(headText === '{}' ? '{' : `${headText.slice(0, -1)},`);
    } else add('{"type":"chunk",');
    add('"cases":[');
    const itemsFrom = pieces.length;
    this.addElements(pieces, cases, caseAt, caseEnd, undefined);
    add('],"results":[');
    this.addElements(pieces, results, resultAt, resultEnd, this.detailsApart ? scan.detailsCuts : undefined);
    const itemsTo = pieces.length;
    add(first ? ']}' : ']');
    if (this.detailsApart) add(`,"resultsAt":[${this.fileRanges(results, resultAt, resultEnd)}]`);
    add('}\n');
    return { line: printableItems(pieces, itemsFrom, itemsTo) };
  }

  /** Where elements `from` to `to - 1` are in the file: their start and end byte offsets, in order. */
  private fileRanges(ranges: readonly Range[], from: number, to: number): string {
    const offsets: number[] = [];
    for (let i = from; i < to; i++) {
      const [start, end] = ranges[i] ?? [0, 0];
      offsets.push(start + this.fileOffset, end + this.fileOffset);
    }
    return offsets.join(',');
  }

  /** Elements `from` to `to - 1` parsed in one go (the scan found each; JSON.parse checks them). */
  private parseAll(ranges: readonly Range[], from: number, to: number): unknown[] {
    if (from >= to) return [];
    const start = ranges[from]?.[0] ?? 0;
    const end = ranges[to - 1]?.[1] ?? 0;
    return JSON.parse(`[${this.bytes.toString('utf8', start, end)}]`) as unknown[];
  }

  /** The elements' bytes into `pieces`, comma-separated; with `cuts`, each element's cut (its details member) left out. */
  private addElements(
    pieces: Buffer[],
    ranges: readonly Range[],
    from: number,
    to: number,
    cuts: readonly (Range | undefined)[] | undefined,
  ): void {
    const { bytes } = this;
    for (let i = from; i < to; i++) {
      if (i > from) pieces.push(COMMA_BYTES);
      const [start, end] = ranges[i] ?? [0, 0];
      const cut = cuts?.[i];
      if (cut === undefined) pieces.push(bytes.subarray(start, end));
      else pieces.push(bytes.subarray(start, cut[0]), bytes.subarray(cut[1], end));
    }
  }

  syntaxError(): ReportFileError {
    return syntaxError(this.whole(), this.path, this.shift);
  }

  /** An error at byte `offset`, named at its line and column as the others are. */
  errorAt(offset: number, detail: string): ReportFileError {
    const at = toDisplay(new LineIndex(this.whole()).position(this.charOffset(offset)));
    return new ReportFileError(this.path, at.line, at.column + (at.line === 1 ? this.shift : 0), detail);
  }

  private whole(): string {
    return (this.decoded ??= this.bytes.toString('utf8'));
  }

  private charOffset(byteOffset: number): number {
    return this.bytes.toString('utf8', 0, byteOffset).length;
  }

  /** The first of the elements `from` to `to - 1` nested too deep, named at its bracket (the scan noted which are). */
  private tooDeepAmong(ranges: readonly Range[], from: number, to: number): ReportFileError | undefined {
    if (this.scan.tooDeep.size === 0) return undefined;
    for (let i = from; i < to; i++) {
      const range = ranges[i];
      if (range !== undefined && this.scan.tooDeep.has(range)) return this.tooDeep([range], 2);
    }
    return undefined;
  }

  /** Nesting is checked value by value (a value inside the report's object and arrays sits one or two levels down). */
  private tooDeep(ranges: Iterable<Range>, levels: number): ReportFileError | undefined {
    for (const [start, end] of ranges) {
      const text = this.bytes.toString('utf8', start, end);
      const deep = tooDeepJson(text, MAX_JSON_DEPTH - levels);
      if (deep !== undefined)
        return depthErrorAt(this.whole(), this.path, this.shift, this.charOffset(start) + text.slice(0, deep).length);
    }
    return undefined;
  }
}

/** Printable ASCII (and JSON's whitespace) needs no escape: only other text goes through jsonPrintable. */
const NOT_PLAIN = /[^\t\n\r\x20-\x7e]/;
function printableLine(frame: string): string {
  return NOT_PLAIN.test(frame) ? jsonPrintable(frame) : frame;
}

const COMMA_BYTES = Buffer.from(',');

/**
 * The line from its pieces, where `pieces[from..to)` are elements' bytes from the file: plain ASCII
 * (the usual case) is kept as it is, but for its line breaks, which become spaces (outside a string a
 * line break is only whitespace between tokens; inside one JSON has it escaped); other text is
 * decoded and goes through jsonPrintable, as the frame's text did before.
 */
function printableItems(pieces: readonly Buffer[], from: number, to: number): Buffer {
  const line = Buffer.concat(pieces);
  const start = pieces.slice(0, from).reduce((n, p) => n + p.length, 0);
  const end = line.length - pieces.slice(to).reduce((n, p) => n + p.length, 0);
  const items = line.subarray(start, end);
  if (!isAscii(items) || items.includes(0x7f)) {
    const text = jsonPrintable(items.toString('utf8')).replace(/[\r\n]/g, ' ');
    return Buffer.concat([line.subarray(0, start), Buffer.from(text), line.subarray(end)]);
  }
  for (let at = items.indexOf(0x0a); at !== -1; at = items.indexOf(0x0a, at + 1)) items[at] = 0x20;
  for (let at = items.indexOf(0x0d); at !== -1; at = items.indexOf(0x0d, at + 1)) items[at] = 0x20;
  return line;
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

async function writeLine(out: NodeJS.WritableStream, line: Buffer): Promise<void> {
  if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', resolve));
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
 * The report's top-level fields and the elements of its `cases` and `results`, by offset, found by
 * scanning from the front; stops where the structure breaks (a file cut off, a missing comma). Tokens
 * inside a value are not checked here: each value's JSON.parse does that. Resumable (`advance`), so a
 * stream can check and print its first part once the scan has reached it.
 */
export class ReportScan implements Layout {
  readonly fields = new Map<string, Range>();
  readonly cases: Range[] = [];
  readonly results: Range[] = [];
  /** Per result, the bytes that take its one top-level `details` member out (with a comma), when it has one. */
  readonly detailsCuts: (Range | undefined)[] = [];
  readonly arrays = new Set<string>();
  /** Elements of cases and results nested deeper than a report allows (rare: each is checked exactly on its own). */
  readonly tooDeep = new Set<Range>();
  /** Which of cases and results have been scanned to their end. */
  readonly closed = new Set<string>();
  /** Top-level members that come after the `results` array (a report the CLI writes has only `imported` and `comparison` there). */
  readonly afterResults: { readonly key: string; readonly at: number }[] = [];
  brokenAt: number | undefined;
  done = false;
  private at = -1;
  /** The array being scanned (cases or results), when inside one. */
  private list: Range[] | undefined;
  private resultsSeen = false;

  constructor(private readonly body: Buffer) {}

  /** Scans on, element by element, until `enough()` holds after an element, or to the end. */
  advance(enough: () => boolean = () => false): this {
    const body = this.body;
    let i = this.at;
    if (this.done) return this;
    if (i === -1) {
      i = skipSpace(body, 0);
      if (body[i] !== OPEN_BRACE) return this.broken(i);
      i = skipSpace(body, i + 1);
      if (body[i] === CLOSE_BRACE) return this.whole(i + 1);
    }
    for (;;) {
      const list = this.list;
      if (list !== undefined) {
        // Inside cases or results: at an element.
        const inResults = list === this.results;
        const end = inResults ? endOfObjectNotingDetails(body, i) : endOfValue(body, i);
        if (end === undefined) return this.broken(i);
        const range: Range = [i, end];
        list.push(range);
        if (inResults) this.detailsCuts.push(detailsCutOfLastValue);
        // The element sits two levels down in the report (its object and the array).
        if (deepestOfLastValue > MAX_JSON_DEPTH - 2) this.tooDeep.add(range);
        i = skipSpace(body, end);
        const c = body[i];
        if (c === CLOSE_BRACKET) {
          if (list === this.results) this.resultsSeen = true;
          this.closed.add(list === this.results ? 'results' : 'cases');
          this.list = undefined;
          i = this.afterMember(i + 1);
          if (i < 0) return this;
        } else if (c === COMMA) i = skipSpace(body, i + 1);
        else return this.broken(i);
        if (enough()) {
          this.at = i;
          return this;
        }
        continue;
      }
      // At a member's key.
      if (body[i] !== QUOTE) return this.broken(i);
      const keyEnd = endOfString(body, i);
      if (keyEnd >= body.length) return this.broken(i);
      let key: string;
      try {
        key = JSON.parse(body.toString('utf8', i, keyEnd + 1)) as string;
      } catch {
        return this.broken(i);
      }
      const keyAt = i;
      i = skipSpace(body, keyEnd + 1);
      if (body[i] !== COLON) return this.broken(i);
      i = skipSpace(body, i + 1);
      // The cases after the results is an order the parts handle; anything else there the head would miss.
      const firstCases = key === 'cases' && !this.arrays.has('cases') && body[i] === OPEN_BRACKET;
      if (this.resultsSeen && !firstCases) this.afterResults.push({ key, at: keyAt });
      if ((key === 'cases' || key === 'results') && body[i] === OPEN_BRACKET) {
        const list = key === 'cases' ? this.cases : this.results;
        list.length = 0;
        if (key === 'results') this.detailsCuts.length = 0;
        this.arrays.add(key);
        this.closed.delete(key);
        this.fields.delete(key);
        i = skipSpace(body, i + 1);
        if (body[i] === CLOSE_BRACKET) {
          if (key === 'results') this.resultsSeen = true;
          this.closed.add(key);
          i = this.afterMember(i + 1);
          if (i < 0) return this;
        } else this.list = list;
      } else {
        const end = endOfValue(body, i);
        if (end === undefined) return this.broken(i);
        this.fields.set(key, [i, end]);
        i = this.afterMember(end);
        if (i < 0) return this;
      }
    }
  }

  /** After a member: the next key's offset, or -1 when the object ended (or broke) there. */
  private afterMember(from: number): number {
    const i = skipSpace(this.body, from);
    const c = this.body[i];
    if (c === CLOSE_BRACE) {
      this.whole(i + 1);
      return -1;
    }
    if (c !== COMMA) {
      this.broken(i);
      return -1;
    }
    return skipSpace(this.body, i + 1);
  }

  private broken(at: number): this {
    this.brokenAt = at;
    this.done = true;
    return this;
  }

  private whole(after: number): this {
    const rest = skipSpace(this.body, after);
    this.brokenAt = rest < this.body.length ? rest : undefined;
    this.done = true;
    return this;
  }
}

/** The whole layout of a report's text (see ReportScan). */
export function scanReport(body: Buffer): Layout {
  return new ReportScan(body).advance();
}

/**
 * Whether the text ends as a report whose last member is an array (`…]}`), as the CLI writes one
 * without `imported` or `comparison`: then nothing the head needs is likely to come after the results,
 * and the first part is printed as soon as the scan has reached it.
 */
function endsAfterAnArray(body: Uint8Array): boolean {
  let i = body.length - 1;
  while (i >= 0 && isSpace(body[i])) i--;
  if (body[i] !== CLOSE_BRACE) return false;
  i--;
  while (i >= 0 && isSpace(body[i])) i--;
  return body[i] === CLOSE_BRACKET;
}

function isSpace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpace(text: Uint8Array, i: number): number {
  let at = i;
  for (; at < text.length; at++) {
    const c = text[at];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
  }
  return at;
}

/** How deep the last value endOfValue found nests (brackets outside strings, as tooDeepJson counts them). */
let deepestOfLastValue = 0;

/** The offset just after the value starting at `start` (strings and brackets balanced), or undefined when the text ends first. */
function endOfValue(text: Uint8Array, start: number): number | undefined {
  const first = text[start];
  if (first === QUOTE) {
    const end = endOfString(text, start);
    return end < text.length ? end + 1 : undefined;
  }
  deepestOfLastValue = 0;
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    let deepest = 0;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (c === QUOTE) i = endOfString(text, i);
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        depth++;
        if (depth > deepest) deepest = depth;
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) {
          deepestOfLastValue = deepest;
          return i + 1;
        }
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

/** Where the last object endOfObjectNotingDetails scanned had its one top-level "details" member, with a comma. */
let detailsCutOfLastValue: Range | undefined;

/**
 * endOfValue for a result, noting the bytes that take its top-level `"details"` member out with one
 * comma (the one before it, else the one after it), so the result prints without it. Only a key spelt
 * plainly is seen, and only one: a result with none, or with two, is printed whole.
 */
function endOfObjectNotingDetails(text: Uint8Array, start: number): number | undefined {
  detailsCutOfLastValue = undefined;
  if (text[start] !== OPEN_BRACE) return endOfValue(text, start);
  let depth = 0;
  let deepest = 0;
  let expectKey = false;
  let commaBefore = -1;
  let detailsAt = -1;
  let found = 0;
  let cut: Range | undefined;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === QUOTE) {
      const end = endOfString(text, i);
      if (depth === 1 && expectKey) {
        expectKey = false;
        if (end - i === 8 && isDetailsKey(text, i)) detailsAt = i;
      }
      i = end;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (depth === 1) expectKey = true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (depth === 1 && detailsAt >= 0) {
        found++;
        cut = [commaBefore >= 0 ? commaBefore : detailsAt, i];
        detailsAt = -1;
      }
      depth--;
      if (depth === 0) {
        deepestOfLastValue = deepest;
        detailsCutOfLastValue = found === 1 ? cut : undefined;
        return i + 1;
      }
    } else if (c === COMMA && depth === 1) {
      if (detailsAt >= 0) {
        found++;
        cut = commaBefore >= 0 ? [commaBefore, i] : [detailsAt, i + 1];
        detailsAt = -1;
      }
      commaBefore = i;
      expectKey = true;
    }
  }
  return undefined;
}

const DETAILS_KEY = Buffer.from('"details"');

function isDetailsKey(text: Uint8Array, at: number): boolean {
  for (let k = 0; k < DETAILS_KEY.length; k++) if (text[at + k] !== DETAILS_KEY[k]) return false;
  return true;
}

function endOfString(text: Uint8Array, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i;
  }
  return text.length;
}
