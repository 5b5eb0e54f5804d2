/**
 * A finished run folder read back case by case: each line of `cases.jsonl` with the lines of
 * `results.jsonl` that belong to it. RunStore writes a case's results and then the case in the same
 * write batch, in the same order in both files, so the two files are read side by side without
 * holding either. A line that is not what RunStore writes is an error naming the file and line.
 *
 * Lines stay bytes until something needs them as values: a merge passes most of them through as
 * they are, and reads only the few fields the figures need from the front of a result line.
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import type { ReportCase } from '../core/report/report';
import type { ScorerResult } from '../core/result';
import { displayLine } from '../shared/text/displayPosition';
import type { FoldResult } from './runFold';
import type { ShownResult } from './reporters/shownResults';

export class RunFolderError extends Error {}

/** The longest line read from a run folder (a case or a result RunStore writes is far shorter); a longer one is refused, not buffered. */
export const MAX_LINE = 16 * 1024 * 1024; // bytes

/**
 * A case of a run folder: its line as written and parsed, and its results' lines as written, parsed
 * only when asked (`results()`, or the few fields the figures need, `foldResults()`): a merge holds
 * cases back to order them, and bytes held are far cheaper to keep than parsed objects.
 */
export interface FolderCase {
  readonly case: ReportCase;
  /** The case's line, as written (UTF-8, no line end). */
  readonly caseBytes: Buffer;
  readonly caseLine: string;
  /** Its results' lines, as written, in file order. */
  readonly resultBytes: readonly Buffer[];
  readonly resultLines: readonly string[];
  /** Hands on the case's line (its bytes as written, no line end). */
  putCaseLine(put: PutBytes): void;
  /** Hands on its results' lines as written, in file order: lines written together as one piece, a \n between them, none after. */
  putResultLines(put: PutBytes): void;
  results(): ScorerResult[];
  /** What the figures read of each result (cli/runFold.ts); whole results where the front of a line does not say enough. */
  foldResults(whole: (scorer: string) => boolean): FoldResult[];
  /** The results whose status is in `statuses`, with what the console and JUnit print of them, read from the lines' fronts where they can be. */
  shownResults(statuses: ReadonlySet<string>): ShownResult[];
}

export interface NumberedLine {
  readonly text: string;
  readonly line: number;
}

/** The lines of a file, numbered from 1, blank lines left out. */
export async function* numberedLines(path: string): AsyncIterable<NumberedLine> {
  const lines = new LineCursor(path);
  while (lines.has() || (await lines.fill())) {
    const at = lines.numberedText();
    lines.advance();
    yield at;
  }
}

/**
 * A case line as RunStore writes it (JSON.stringify of a case without trials: its fields in this
 * order, strings without escapes or control characters, numbers as JSON writes them).
 */
const STORED_CASE =
  /^\{"id":"([^"\\\x00-\x1f]*)","index":(0|[1-9]\d{0,15}),"status":"([a-z]+)","durationMs":(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?),"location":\{"file":"([^"\\\x00-\x1f]*)","line":(0|[1-9]\d*),"column":(0|[1-9]\d*)\}(?:,"fingerprint":"([^"\\\x00-\x1f]*)")?\}$/;

/** The file of the last case read by STORED_CASE (a dataset's cases share it: one string, not one per case). */
let lastCaseFile = '';

/**
 * A case line read by STORED_CASE: the object JSON.parse makes of it (the same fields in the same
 * order), about twice as fast for the hundred thousand lines of a merge; undefined when the line is
 * written otherwise (then it is parsed whole).
 */
function storedCase(text: string): ReportCase | undefined {
  const m = STORED_CASE.exec(text);
  if (m === null) return undefined;
  let file = m[5] as string;
  if (file === lastCaseFile) file = lastCaseFile;
  else lastCaseFile = file;
  const id = m[1] as string;
  const index = Number(m[2]);
  const status = m[3] as ReportCase['status'];
  const durationMs = Number(m[4]);
  const location = { file, line: Number(m[6]), column: Number(m[7]) };
  const fingerprint = m[8];
  return fingerprint === undefined
    ? { id, index, status, durationMs, location }
    : { id, index, status, durationMs, location, fingerprint };
}

/** A case line parsed and checked for the fields merge reads. */
export function parseCaseLine(path: string, at: NumberedLine): ReportCase {
  const stored = storedCase(at.text);
  if (stored !== undefined) return stored;
  const value = parseLine(path, at) as Partial<ReportCase>;
  if (typeof value.id !== 'string' || typeof value.index !== 'number' || typeof value.status !== 'string')
    throw new RunFolderError(
      `${path}:${at.line}:1: expected a case with "id", "index" and "status", but this line lacks one`,
    );
  return value as ReportCase;
}

/**
 * Whether `bytes` holds `needle` at `at`. A loop: for the few dozen bytes compared here it is faster
 * than Buffer#compare, whose call costs more than the comparison, half a million times a merge.
 */
function bytesAt(bytes: Uint8Array, at: number, needle: Uint8Array): boolean {
  const length = needle.length;
  if (at < 0 || at + length > bytes.length) return false;
  for (let i = 0; i < length; i++) if (bytes[at + i] !== needle[i]) return false;
  return true;
}

/**
 * Whether `bytes` holds at `at` the bytes whose latin1 decoding is `text` (one character a byte).
 * Compared from the end: fronts that differ mostly differ in the score, nearer their end.
 */
function textAt(bytes: Uint8Array, at: number, text: string): boolean {
  const length = text.length;
  if (at < 0 || at + length > bytes.length) return false;
  for (let i = length - 1; i >= 0; i--) if (bytes[at + i] !== text.charCodeAt(i)) return false;
  return true;
}

/** Where `byte` first is in bytes[from, to), or -1 (a loop, for short ranges, as bytesAt). */
function byteIn(bytes: Uint8Array, byte: number, from: number, to: number): number {
  for (let i = from; i < to; i++) if (bytes[i] === byte) return i;
  return -1;
}

const ID_OPEN = Buffer.from('{"id":"');
const INDEX_KEY = Buffer.from('","index":');

/**
 * A case line's index, read from the bytes of its front as RunStore writes it (JSON.stringify puts
 * id, then index, first: `{"id":"…","index":12,`); -1 when the front is not so (an id with an escape,
 * an index of more than 15 digits), and then the line is parsed whole. No string is made: the first
 * pass over a shard's cases.jsonl reads a hundred thousand of them.
 */
function frontIndex(bytes: Buffer, start: number, end: number): number {
  const close = plainIdEnd(bytes, start, end);
  if (close === -1) return -1;
  const digits = close + INDEX_KEY.length;
  if (end <= digits || !bytesAt(bytes, close, INDEX_KEY)) return -1;
  let index = 0;
  let at = digits;
  for (; at < end && at - digits <= 15; at++) {
    const digit = (bytes[at] as number) - 0x30;
    if (digit < 0 || digit > 9) break;
    index = index * 10 + digit;
  }
  const length = at - digits;
  // JSON's number: no leading zero; then the next field.
  if (length === 0 || length > 15 || (length > 1 && bytes[digits] === 0x30) || at >= end || bytes[at] !== 0x2c)
    return -1;
  return index;
}

/** The dataset index of each case line of a cases.jsonl, in file order, a chunk's at a time (each line checked as parseCaseLine does where its front is not RunStore's). */
export async function* caseIndexes(path: string): AsyncIterable<number[]> {
  const lines = new LineCursor(path);
  while (lines.has() || (await lines.fill())) {
    const indexes: number[] = [];
    while (lines.has()) {
      const front = frontIndex(lines.bytes as Buffer, lines.start, lines.end);
      indexes.push(front !== -1 ? front : parseCaseLine(path, lines.numberedText()).index);
      lines.advance();
    }
    yield indexes;
  }
}

/** A result line's caseId, read from the front of the line as RunStore writes it (JSON.stringify puts it first). */
const CASE_ID_FIRST = /^\{"caseId":("(?:[^"\\]|\\.)*")/;

function caseIdOf(path: string, at: NumberedLine): string {
  const quoted = CASE_ID_FIRST.exec(at.text)?.[1];
  if (quoted !== undefined) {
    try {
      return JSON.parse(quoted) as string;
    } catch {
      // read whole below
    }
  }
  return parseResultLine(path, at).caseId;
}

function parseResultLine(path: string, at: NumberedLine): ScorerResult {
  const value = parseLine(path, at) as Partial<ScorerResult>;
  if (typeof value.caseId !== 'string' || typeof value.scorer !== 'string' || typeof value.status !== 'string')
    throw new RunFolderError(
      `${path}:${at.line}:1: expected a result with "caseId", "scorer" and "status", but this line lacks one`,
    );
  return value as ScorerResult;
}

function parseLine(path: string, at: NumberedLine): unknown {
  try {
    const value: unknown = JSON.parse(at.text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value;
  } catch {
    // said below
  }
  throw new RunFolderError(
    `${path}:${at.line}:1: expected one JSON object per line, but this line is not one (a cut or damaged line)`,
  );
}

/**
 * The fields after the caseId, as JSON.stringify writes a result RunStore stores: scorer, trial,
 * status, the score when there is one, `passed` when there is, then the reason's opening quote.
 * Only names of printable ASCII without escapes are read here; anything else is parsed whole.
 */
const FRONT_FIELDS =
  /^"scorer":"([\x20\x21\x23-\x5b\x5d-\x7e]*)","trial":(-?\d+),"status":"([a-z]+)"(?:,"score":(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)(?=[,}]))?(?:,"passed":(?:true|false))?(,"reason":")?/;
/** Statuses whose score the figures take (cli/runFold.ts): their line must say the score, or that there is none, up front. */
const SCORED: ReadonlySet<string> = new Set(['pass', 'fail', 'measured']);
/** How much of a line's front is read for FRONT_FIELDS. */
const FRONT = 320;

const REASON_KEY = Buffer.from(',"reason":"');

/**
 * FRONT_FIELDS matched on a result line's front, after the `{"caseId":…,` prefix of `skip` bytes:
 * decoded up to the reason's opening quote when it is in the front (half a million lines make a
 * merge: the less decoded, the less to collect).
 */
function frontOf(bytes: Buffer, skip: number, lineEnd: number, slot: number): Front {
  const known = recentFronts.knownReasonFront(bytes, skip, lineEnd, slot);
  if (known !== undefined) return known;
  const limit = Math.min(lineEnd, skip + FRONT);
  // Found past the line's end (in a later line of the chunk) it is past the limit too.
  const reason = bytes.indexOf(REASON_KEY, skip);
  const end = reason !== -1 && reason + REASON_KEY.length <= limit ? reason + REASON_KEY.length : limit;
  return recentFronts.match(bytes, skip, end, slot);
}

/** Fronts remembered per result's place in its case. */
const FRONTS_PER_SLOT = 4;
/** Places in a case whose fronts are remembered (a case's first results; the rest are matched each time). */
const SLOTS = 64;

/**
 * The fronts last matched at each place of a case's results (a case's results come in scorer order):
 * most results of a scorer share their front (`"scorer":"contains","trial":1,"status":"fail","score":0,…`),
 * and a front compared as bytes makes no string and no match, which half a million lines otherwise
 * make for the collector. Fronts are only ever the same bytes, so a remembered match is the match.
 */
class RecentFronts {
  /** Each front as the text its match was made on (decoded as latin1: a character per byte, compared with the bytes). */
  private readonly slots: { text: string; front: Front; toReason: boolean }[][] = [];
  private readonly next: number[] = [];

  /**
   * The match of a remembered front that ends at its reason's opening quote and that the line at
   * `start` begins with, before the line is searched for where its reason begins: the lines'
   * bytes are the same up to there, so the line's first `,"reason":"` ends there too.
   */
  knownReasonFront(bytes: Buffer, start: number, lineEnd: number, slot: number): Front | undefined {
    const seen = slot < SLOTS ? this.slots[slot] : undefined;
    if (seen === undefined) return undefined;
    for (const seenFront of seen) {
      const end = start + seenFront.text.length;
      if (seenFront.toReason && end <= lineEnd && textAt(bytes, start, seenFront.text)) return seenFront.front;
    }
    return undefined;
  }

  match(bytes: Buffer, start: number, end: number, slot: number): Front {
    const length = end - start;
    const seen = slot < SLOTS ? (this.slots[slot] ??= []) : undefined;
    if (seen !== undefined)
      for (const seenFront of seen)
        if (seenFront.text.length === length && textAt(bytes, start, seenFront.text)) return seenFront.front;
    const text = bytes.toString('latin1', start, end);
    const front = new Front(FRONT_FIELDS.exec(text));
    if (seen !== undefined) {
      const remembered = {
        text,
        front,
        toReason: end - start >= REASON_KEY.length && bytesAt(bytes, end - REASON_KEY.length, REASON_KEY),
      };
      const at = this.next[slot] ?? 0;
      seen[at] = remembered;
      this.next[slot] = (at + 1) % FRONTS_PER_SLOT;
    }
    return front;
  }
}

const recentFronts = new RecentFronts();

/**
 * A result line's front, matched; the fold's fields read from it once (a remembered front serves
 * many lines, which then share one FoldResult: the figures only read it).
 */
class Front {
  private fold: FoldResult | undefined;
  private folded = false;

  constructor(readonly match: RegExpExecArray | null) {}

  /** The fold's fields; undefined when the front does not say them all. */
  foldFields(): FoldResult | undefined {
    if (!this.folded) {
      this.fold = foldFieldsOf(this.match);
      this.folded = true;
    }
    return this.fold;
  }
}

/** The fold's fields of a result line from its front; undefined when the front does not say them all (then the line is parsed whole). */
function foldFieldsOf(match: RegExpExecArray | null): FoldResult | undefined {
  if (match === null) return undefined;
  const status = match[3] as FoldResult['status'];
  // A skipped result's details say whether a credential was missing: read whole.
  if (status === 'skipped') return undefined;
  const score = match[4];
  if (score !== undefined) return { scorer: match[1] as string, status, score: Number(score) };
  // A scored status with no score right after it may have one further on: read whole.
  if (SCORED.has(status)) return undefined;
  return { scorer: match[1] as string, status };
}

/** The closing quote of the JSON string whose text starts at `from` (after its opening quote); -1 when the line ends (at `lineEnd`) first. */
function stringEnd(bytes: Buffer, from: number, lineEnd: number): number {
  for (let at = from; ;) {
    const quote = bytes.indexOf(0x22, at);
    if (quote === -1 || quote >= lineEnd) return -1;
    let backslashes = 0;
    while (quote - backslashes - 1 >= from && bytes[quote - backslashes - 1] === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
    at = quote + 1;
  }
}

/**
 * A result line's printed fields from its front (`match`, after `skip` bytes): undefined when the
 * front is not as RunStore writes it (then the line is parsed whole), null when its status is not one
 * asked for. Only a reason with an escape in it is parsed as JSON.
 */
function shownFieldsOf(
  bytes: Buffer,
  skip: number,
  lineEnd: number,
  match: RegExpExecArray | null,
  statuses: ReadonlySet<string>,
): ShownResult | null | undefined {
  if (match === null) return undefined;
  const status = match[3] as ShownResult['status'];
  if (!statuses.has(status)) return null;
  if (match[5] === undefined) return undefined;
  const start = skip + match[0].length;
  const end = stringEnd(bytes, start, lineEnd);
  if (end === -1) return undefined;
  let reason: string;
  if (byteIn(bytes, 0x5c, start, end) === -1) reason = bytes.toString('utf8', start, end);
  else {
    try {
      reason = JSON.parse(bytes.toString('utf8', start - 1, end + 1)) as string;
    } catch {
      return undefined;
    }
  }
  return { scorer: match[1] as string, trial: Number(match[2]), status, reason };
}

/**
 * Lines where they were read: line i is bytes `spans[3i]` to `spans[3i + 1]` of `chunks[i]` (of
 * `chunk`, when all are in one), numbered `spans[3i + 2]`. Not a Buffer and an object per line: a
 * merge reads half a million lines, and those were much of what the collector had to copy.
 */
interface Spans {
  readonly chunk: Buffer;
  readonly chunks: readonly Buffer[] | undefined;
  readonly spans: readonly number[];
}

/** Hands on bytes start to end of a buffer (a line, or lines with their \n between them). */
export type PutBytes = (bytes: Buffer, start: number, end: number) => void;

class FolderCaseItem implements FolderCase {
  private parsed: ScorerResult[] | undefined;
  /** Each result line's front fields, matched once for the figures and the printed reasons. */
  private fronts: Front[] | undefined;
  /** The printed results last read, and for which statuses. */
  private shown: { readonly statuses: ReadonlySet<string>; readonly results: ShownResult[] } | undefined;
  readonly case: ReportCase;

  constructor(
    reportCase: ReportCase,
    /** The case's line: bytes `caseStart` to `caseEnd` of `caseChunk`. */
    private readonly caseChunk: Buffer,
    private readonly caseStart: number,
    private readonly caseEnd: number,
    private readonly resultsAt: Spans | undefined,
    private readonly resultsPath: string,
    /** Bytes at the front of each result line that are this case's `{"caseId":…,` (0 when a line was not checked so). */
    private readonly prefix: number,
  ) {
    this.case = reportCase;
  }

  get caseBytes(): Buffer {
    return this.caseChunk.subarray(this.caseStart, this.caseEnd);
  }

  get caseLine(): string {
    return this.caseChunk.toString('utf8', this.caseStart, this.caseEnd);
  }

  /** How many result lines the case has. */
  private get count(): number {
    return this.resultsAt === undefined ? 0 : this.resultsAt.spans.length / 3;
  }

  private chunkOf(i: number): Buffer {
    const at = this.resultsAt as Spans;
    return at.chunks === undefined ? at.chunk : (at.chunks[i] as Buffer);
  }

  private startOf(i: number): number {
    return (this.resultsAt as Spans).spans[3 * i] as number;
  }

  private endOf(i: number): number {
    return (this.resultsAt as Spans).spans[3 * i + 1] as number;
  }

  private lineText(i: number): NumberedLine {
    const text = this.chunkOf(i).toString('utf8', this.startOf(i), this.endOf(i));
    return { text, line: (this.resultsAt as Spans).spans[3 * i + 2] as number };
  }

  get resultBytes(): Buffer[] {
    const out: Buffer[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.chunkOf(i).subarray(this.startOf(i), this.endOf(i)));
    return out;
  }

  get resultLines(): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.lineText(i).text);
    return out;
  }

  putCaseLine(put: PutBytes): void {
    put(this.caseChunk, this.caseStart, this.caseEnd);
  }

  putResultLines(put: PutBytes): void {
    // Lines next to each other in one chunk (one \n between them, as RunStore writes a case's
    // results) are handed on as one piece.
    let from = -1;
    let to = -1;
    let chunk: Buffer | undefined;
    for (let i = 0; i < this.count; i++) {
      const at = this.chunkOf(i);
      const start = this.startOf(i);
      if (chunk === at && start === to + 1) {
        to = this.endOf(i);
        continue;
      }
      if (chunk !== undefined) put(chunk, from, to);
      chunk = at;
      from = start;
      to = this.endOf(i);
    }
    if (chunk !== undefined) put(chunk, from, to);
  }

  results(): ScorerResult[] {
    if (this.parsed === undefined) {
      const parsed = new Array<ScorerResult>(this.count);
      for (let i = 0; i < this.count; i++) parsed[i] = parseResultLine(this.resultsPath, this.lineText(i));
      this.parsed = parsed;
    }
    return this.parsed;
  }

  private frontFields(): Front[] {
    if (this.fronts === undefined) {
      // Made at their size (a list grown by push starts at 17 places).
      const fronts = new Array<Front>(this.count);
      for (let i = 0; i < this.count; i++)
        fronts[i] = frontOf(this.chunkOf(i), this.startOf(i) + this.prefix, this.endOf(i), i);
      this.fronts = fronts;
    }
    return this.fronts;
  }

  foldResults(whole: (scorer: string) => boolean): FoldResult[] {
    if (this.parsed !== undefined || this.prefix === 0) return this.results();
    const fronts = this.frontFields();
    const out = new Array<FoldResult>(fronts.length);
    for (let i = 0; i < fronts.length; i++) {
      const fields = (fronts[i] as Front).foldFields();
      out[i] = fields === undefined || whole(fields.scorer) ? (this.results()[i] as ScorerResult) : fields;
    }
    return out;
  }

  shownResults(statuses: ReadonlySet<string>): ShownResult[] {
    // The console and JUnit ask with the same set: read once.
    if (this.shown?.statuses !== statuses) this.shown = { statuses, results: this.readShownResults(statuses) };
    return this.shown.results;
  }

  private readShownResults(statuses: ReadonlySet<string>): ShownResult[] {
    if (this.parsed !== undefined || this.prefix === 0) return this.results().filter((r) => statuses.has(r.status));
    const out: ShownResult[] = [];
    const fronts = this.frontFields();
    for (let i = 0; i < fronts.length; i++) {
      const fields = shownFieldsOf(
        this.chunkOf(i),
        this.startOf(i) + this.prefix,
        this.endOf(i),
        (fronts[i] as Front).match,
        statuses,
      );
      if (fields === undefined) {
        const result = this.results()[i] as ScorerResult;
        if (statuses.has(result.status)) out.push(result);
      } else if (fields !== null) out.push(fields);
    }
    return out;
  }
}

/**
 * A file's lines as bytes, read in large chunks and handed out one at a time without a promise per
 * line (a merge reads millions): `current` is the next line, or undefined when the chunk read so far
 * is used up, and then `fill()` reads on (false at the end of the file). Lines end at \n (a \r before
 * it is dropped); blank lines are left out; a line longer than MAX_LINE is an error. A chunk is split
 * as its lines are asked for, not at once: a line made long before it is used outlives the young
 * generation, and copying such lines was most of a merge's garbage collection.
 */
class LineCursor {
  /** The chunk being split, and where its next line starts. */
  private chunk: Buffer | undefined;
  private offset = 0;
  /**
   * The current line, once asked for (`has()`): bytes `start` to `end` of `bytes` (its \n and \r
   * left out), numbered `line`; `bytes` is undefined when there is none. Places in the chunk, not a
   * Buffer and an object per line (a merge reads half a million lines).
   */
  bytes: Buffer | undefined;
  start = 0;
  end = 0;
  line = 0;
  private carry: Buffer | undefined;
  /** Lines read so far, blank ones included. */
  private number = 0;
  private ended = false;
  private readonly chunks: AsyncIterator<Buffer>;

  constructor(readonly path: string) {
    const input = createReadStream(path, { highWaterMark: 1 << 20 });
    this.chunks = (input as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  }

  /** Whether a line is ready in what was read so far (then it is the current line). */
  has(): boolean {
    if (this.bytes === undefined) this.take();
    return this.bytes !== undefined;
  }

  /** The current line as text. */
  numberedText(): NumberedLine {
    return { text: (this.bytes as Buffer).toString('utf8', this.start, this.end), line: this.line };
  }

  advance(): void {
    if (this.bytes === undefined) this.take();
    this.bytes = undefined;
  }

  /** Reads until a line is ready; false at the end of the file. */
  async fill(): Promise<boolean> {
    while (!this.has()) {
      if (this.ended) return false;
      let next: IteratorResult<Buffer>;
      try {
        next = await this.chunks.next();
      } catch (e) {
        throw new RunFolderError(
          `${this.path}:1:1: cannot read it (${(e as NodeJS.ErrnoException).code ?? String(e)})`,
        );
      }
      if (next.done === true) {
        this.ended = true;
        const carry = this.carry;
        this.carry = undefined;
        if (carry !== undefined) this.setLine(carry, 0, carry.length);
        continue;
      }
      const bytes = next.value;
      if (this.carry === undefined) {
        this.chunk = bytes;
        this.offset = 0;
        continue;
      }
      // Only the line cut at the chunk's edge is copied together, not the chunk.
      const newline = bytes.indexOf(10);
      if (newline === -1) {
        this.carry = Buffer.concat([this.carry, bytes]);
        if (this.carry.length > MAX_LINE) this.tooLong();
        continue;
      }
      const joined = Buffer.concat([this.carry, bytes.subarray(0, newline)]);
      this.carry = undefined;
      this.chunk = bytes;
      this.offset = newline + 1;
      this.setLine(joined, 0, joined.length);
    }
    return true;
  }

  /** Makes the chunk's next line current (blank ones skipped); none when the chunk is used up, its cut last line kept as the carry. */
  private take(): void {
    const chunk = this.chunk;
    if (chunk === undefined) return;
    for (;;) {
      const start = this.offset;
      const newline = chunk.indexOf(10, start);
      if (newline === -1) {
        this.chunk = undefined;
        if (start < chunk.length) {
          this.carry = chunk.subarray(start);
          if (this.carry.length > MAX_LINE) this.tooLong();
        }
        return;
      }
      this.offset = newline + 1;
      if (this.setLine(chunk, start, newline)) return;
    }
  }

  private tooLong(): never {
    throw new RunFolderError(
      `${this.path}:${displayLine(this.number)}:1: expected one JSON object per line, but this line is longer than ${MAX_LINE} bytes (16 MiB; a damaged file)`,
    );
  }

  /** Makes bytes start to end a numbered current line, its \r dropped; false (and no current line) when blank. */
  private setLine(bytes: Buffer, start: number, end: number): boolean {
    if (end - start > MAX_LINE) this.tooLong();
    this.number++;
    const last = end > start && bytes[end - 1] === 13 ? end - 1 : end;
    if (last === start) return false;
    this.bytes = bytes;
    this.start = start;
    this.end = last;
    this.line = this.number;
    return true;
  }
}

/** The cases of a finished run folder in the order they were written, each with its results. */
export async function* folderCases(dir: string): AsyncIterable<FolderCase> {
  for await (const batch of folderCaseBatches(dir)) yield* batch;
}

/** Cases handed on at once by folderCaseBatches. */
const BATCH = 64;

/**
 * folderCases in batches: a merge reads hundreds of thousands of cases, and a promise per case (an
 * async generator's step) cost more than reading the case.
 */
export async function* folderCaseBatches(dir: string): AsyncIterable<FolderCase[]> {
  const casesPath = join(dir, 'cases.jsonl');
  const resultsPath = join(dir, 'results.jsonl');
  const cases = new LineCursor(casesPath);
  const results = new LineCursor(resultsPath);
  let resultsLeft = await results.fill();
  let batch: FolderCase[] = [];
  while (cases.has() || (await cases.fill())) {
    const caseChunk = cases.bytes as Buffer;
    const { start: caseStart, end: caseEnd } = cases;
    const reportCase = parseCaseLine(casesPath, cases.numberedText());
    cases.advance();
    // Each result line of this case begins with `{"caseId":<the id as JSON>,` when RunStore wrote it:
    // compared with the case line's own bytes of the id where it has no escape (most ids), else made.
    const idEnd = plainIdEnd(caseChunk, caseStart, caseEnd);
    const prefix = idEnd === -1 ? Buffer.from(`{"caseId":${JSON.stringify(reportCase.id)},`) : undefined;
    const prefixLength = prefix?.length ?? CASE_ID_OPEN.length + (idEnd - caseStart - ID_OPEN.length) + 2;
    let checked = prefixLength;
    let chunk: Buffer | undefined;
    let chunks: Buffer[] | undefined;
    const spans: number[] = [];
    while (resultsLeft) {
      const bytes = results.bytes as Buffer;
      const { start, end } = results;
      const same =
        end - start > prefixLength &&
        (prefix === undefined
          ? startsWithCaseId(bytes, start, caseChunk, caseStart, idEnd)
          : bytesAt(bytes, start, prefix));
      if (!same) {
        // Written otherwise (another escape of the id), or another case's: read the id itself.
        if ((plainCaseId(bytes, start, end) ?? lineCaseId(resultsPath, results)) !== reportCase.id) break;
        checked = 0;
      }
      if (chunk === undefined) chunk = bytes;
      else if (chunks !== undefined) chunks.push(bytes);
      else if (bytes !== chunk) {
        // A line in another chunk: each line's chunk is kept from here on.
        chunks = new Array<Buffer>(spans.length / 3).fill(chunk);
        chunks.push(bytes);
      }
      spans.push(start, end, results.line);
      results.advance();
      resultsLeft = results.has() || (await results.fill());
    }
    const resultsAt = chunk === undefined ? undefined : { chunk, chunks, spans };
    batch.push(new FolderCaseItem(reportCase, caseChunk, caseStart, caseEnd, resultsAt, resultsPath, checked));
    if (batch.length >= BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (resultsLeft)
    throw new RunFolderError(
      `${resultsPath}:${results.line}:1: expected the results of the cases cases.jsonl lists, in its order, but this result is of case "${lineCaseId(resultsPath, results)}", which is not there (a damaged run folder)`,
    );
  if (batch.length > 0) yield batch;
}

const CASE_ID_OPEN = Buffer.from('{"caseId":"');

/** Where the id of a case line as RunStore writes it (`{"id":"…",`, bytes start to end) ends when it has no escape in it (its closing quote); -1 otherwise. */
function plainIdEnd(bytes: Buffer, start: number, end: number): number {
  const open = start + ID_OPEN.length;
  if (end <= open || !bytesAt(bytes, start, ID_OPEN)) return -1;
  const close = bytes.indexOf(0x22, open);
  if (close === -1 || close >= end || byteIn(bytes, 0x5c, open, close) !== -1) return -1;
  return close;
}

/**
 * Whether the result line at `start` of `bytes` begins `{"caseId":"<id>",` with the bytes of the id
 * of the case line at `caseStart` of `caseBytes`, whose id ends at `idEnd` (the caller checked that the
 * line is longer than that).
 */
function startsWithCaseId(bytes: Buffer, start: number, caseBytes: Buffer, caseStart: number, idEnd: number): boolean {
  if (!bytesAt(bytes, start, CASE_ID_OPEN)) return false;
  const shift = start + CASE_ID_OPEN.length - (caseStart + ID_OPEN.length);
  for (let i = caseStart + ID_OPEN.length; i < idEnd; i++) if (bytes[i + shift] !== caseBytes[i]) return false;
  return bytes[idEnd + shift] === 0x22 && bytes[idEnd + shift + 1] === 0x2c;
}

/** A result line's caseId when RunStore wrote it first and it has no escape in it (the next case's, at each case's end); undefined otherwise. */
function plainCaseId(bytes: Buffer, start: number, end: number): string | undefined {
  const open = start + CASE_ID_OPEN.length;
  if (end <= open || !bytesAt(bytes, start, CASE_ID_OPEN)) return undefined;
  const close = bytes.indexOf(0x22, open);
  if (close === -1 || close >= end || byteIn(bytes, 0x5c, open, close) !== -1) return undefined;
  return bytes.toString('utf8', open, close);
}

function lineCaseId(path: string, at: LineCursor): string {
  return caseIdOf(path, at.numberedText());
}
