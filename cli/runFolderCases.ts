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

interface NumberedBytes {
  readonly bytes: Buffer;
  readonly line: number;
}

/** The lines of a file, numbered from 1, blank lines left out. */
export async function* numberedLines(path: string): AsyncIterable<NumberedLine> {
  const lines = new LineCursor(path);
  while (lines.current !== undefined || (await lines.fill())) {
    const at = lines.current as NumberedBytes;
    lines.advance();
    yield { text: at.bytes.toString('utf8'), line: at.line };
  }
}

/** A case line parsed and checked for the fields merge reads. */
export function parseCaseLine(path: string, at: NumberedLine): ReportCase {
  const value = parseLine(path, at) as Partial<ReportCase>;
  if (typeof value.id !== 'string' || typeof value.index !== 'number' || typeof value.status !== 'string')
    throw new RunFolderError(
      `${path}:${at.line}:1: expected a case with "id", "index" and "status", but this line lacks one`,
    );
  return value as ReportCase;
}

/** A case line's index, read from its front as RunStore writes it (JSON.stringify puts id, then index, first). */
const INDEX_SECOND = /^\{"id":"(?:[^"\\]|\\.)*","index":(0|[1-9]\d{0,15}),/;

/** The dataset index of each case line of a cases.jsonl, in file order, a chunk's at a time (each line checked as parseCaseLine does where its front is not RunStore's). */
export async function* caseIndexes(path: string): AsyncIterable<number[]> {
  const lines = new LineCursor(path);
  while (lines.current !== undefined || (await lines.fill())) {
    const indexes: number[] = [];
    for (let at = lines.current; at !== undefined; at = lines.current) {
      lines.advance();
      const front = INDEX_SECOND.exec(at.bytes.toString('latin1', 0, Math.min(at.bytes.length, FRONT)))?.[1];
      indexes.push(
        front !== undefined
          ? Number(front)
          : parseCaseLine(path, { text: at.bytes.toString('utf8'), line: at.line }).index,
      );
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
function frontOf(bytes: Buffer, skip: number, slot: number): RegExpExecArray | null {
  const limit = Math.min(bytes.length, skip + FRONT);
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
  private readonly slots: { bytes: Buffer; match: RegExpExecArray | null }[][] = [];
  private readonly next: number[] = [];

  match(bytes: Buffer, start: number, end: number, slot: number): RegExpExecArray | null {
    const length = end - start;
    const seen = slot < SLOTS ? (this.slots[slot] ??= []) : undefined;
    if (seen !== undefined)
      for (const front of seen)
        if (front.bytes.length === length && bytes.compare(front.bytes, 0, length, start, end) === 0)
          return front.match;
    const match = FRONT_FIELDS.exec(bytes.toString('latin1', start, end));
    if (seen !== undefined) {
      const front = { bytes: Buffer.from(bytes.subarray(start, end)), match };
      const at = this.next[slot] ?? 0;
      seen[at] = front;
      this.next[slot] = (at + 1) % FRONTS_PER_SLOT;
    }
    return match;
  }
}

const recentFronts = new RecentFronts();

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

/** The closing quote of the JSON string whose text starts at `from` (after its opening quote); -1 when the line ends first. */
function stringEnd(bytes: Buffer, from: number): number {
  for (let at = from; ;) {
    const quote = bytes.indexOf(0x22, at);
    if (quote === -1) return -1;
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
  match: RegExpExecArray | null,
  statuses: ReadonlySet<string>,
): ShownResult | null | undefined {
  if (match === null) return undefined;
  const status = match[3] as ShownResult['status'];
  if (!statuses.has(status)) return null;
  if (match[5] === undefined) return undefined;
  const start = skip + match[0].length;
  const end = stringEnd(bytes, start);
  if (end === -1) return undefined;
  let reason: string;
  const backslash = bytes.indexOf(0x5c, start);
  if (backslash === -1 || backslash > end) reason = bytes.toString('utf8', start, end);
  else {
    try {
      reason = JSON.parse(bytes.toString('utf8', start - 1, end + 1)) as string;
    } catch {
      return undefined;
    }
  }
  return { scorer: match[1] as string, trial: Number(match[2]), status, reason };
}

class FolderCaseItem implements FolderCase {
  private parsed: ScorerResult[] | undefined;
  /** Each result line's front fields, matched once for the figures and the printed reasons. */
  private fronts: (RegExpExecArray | null)[] | undefined;
  readonly case: ReportCase;

  constructor(
    reportCase: ReportCase,
    private readonly caseAt: NumberedBytes,
    private readonly resultsAt: readonly NumberedBytes[],
    private readonly resultsPath: string,
    /** Bytes at the front of each result line that are this case's `{"caseId":…,` (0 when a line was not checked so). */
    private readonly prefix: number,
  ) {
    this.case = reportCase;
  }

  get caseBytes(): Buffer {
    return this.caseAt.bytes;
  }

  get caseLine(): string {
    return this.caseAt.bytes.toString('utf8');
  }

  get resultBytes(): Buffer[] {
    return this.resultsAt.map((at) => at.bytes);
  }

  get resultLines(): string[] {
    return this.resultsAt.map((at) => at.bytes.toString('utf8'));
  }

  results(): ScorerResult[] {
    this.parsed ??= this.resultsAt.map((at) =>
      parseResultLine(this.resultsPath, { text: at.bytes.toString('utf8'), line: at.line }),
    );
    return this.parsed;
  }

  private frontFields(): (RegExpExecArray | null)[] {
    this.fronts ??= this.resultsAt.map((at, slot) => frontOf(at.bytes, this.prefix, slot));
    return this.fronts;
  }

  foldResults(whole: (scorer: string) => boolean): FoldResult[] {
    if (this.parsed !== undefined || this.prefix === 0) return this.results();
    const out: FoldResult[] = [];
    const fronts = this.frontFields();
    for (let i = 0; i < fronts.length; i++) {
      const fields = foldFieldsOf(fronts[i] ?? null);
      out.push(fields === undefined || whole(fields.scorer) ? (this.results()[i] as ScorerResult) : fields);
    }
    return out;
  }

  shownResults(statuses: ReadonlySet<string>): ShownResult[] {
    if (this.parsed !== undefined || this.prefix === 0) return this.results().filter((r) => statuses.has(r.status));
    const out: ShownResult[] = [];
    const fronts = this.frontFields();
    for (let i = 0; i < fronts.length; i++) {
      const fields = shownFieldsOf(
        (this.resultsAt[i] as NumberedBytes).bytes,
        this.prefix,
        fronts[i] ?? null,
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
  /** The current line, once asked for. */
  private next: NumberedBytes | undefined;
  private carry: Buffer | undefined;
  /** Lines read so far, blank ones included. */
  private number = 0;
  private ended = false;
  private readonly chunks: AsyncIterator<Buffer>;

  constructor(readonly path: string) {
    const input = createReadStream(path, { highWaterMark: 1 << 20 });
    this.chunks = (input as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  }

  get current(): NumberedBytes | undefined {
    this.next ??= this.take();
    return this.next;
  }

  advance(): void {
    if (this.next === undefined) this.take();
    this.next = undefined;
  }

  /** Reads until a line is ready; false at the end of the file. */
  async fill(): Promise<boolean> {
    while (this.current === undefined) {
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
        if (carry !== undefined) this.next = this.line(carry, carry.length);
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
      this.next = this.line(joined, joined.length);
    }
    return true;
  }

  /** The chunk's next line (blank ones skipped); undefined when the chunk is used up, its cut last line kept as the carry. */
  private take(): NumberedBytes | undefined {
    const chunk = this.chunk;
    if (chunk === undefined) return undefined;
    for (;;) {
      const start = this.offset;
      const newline = chunk.indexOf(10, start);
      if (newline === -1) {
        this.chunk = undefined;
        if (start < chunk.length) {
          this.carry = chunk.subarray(start);
          if (this.carry.length > MAX_LINE) this.tooLong();
        }
        return undefined;
      }
      this.offset = newline + 1;
      const line = this.line(chunk.subarray(start, newline), newline - start);
      if (line !== undefined) return line;
    }
  }

  private tooLong(): never {
    throw new RunFolderError(
      `${this.path}:${displayLine(this.number)}:1: expected one JSON object per line, but this line is longer than ${MAX_LINE} bytes (16 MiB; a damaged file)`,
    );
  }

  /** A line numbered, its \r dropped; undefined when blank. */
  private line(bytes: Buffer, length: number): NumberedBytes | undefined {
    if (length > MAX_LINE) this.tooLong();
    this.number++;
    const end = length > 0 && bytes[length - 1] === 13 ? length - 1 : length;
    if (end === 0) return undefined;
    return { bytes: end === length ? bytes : bytes.subarray(0, end), line: this.number };
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
  while (cases.current !== undefined || (await cases.fill())) {
    const at = cases.current as NumberedBytes;
    cases.advance();
    const reportCase = parseCaseLine(casesPath, { text: at.bytes.toString('utf8'), line: at.line });
    // Each result line of this case begins with these bytes when RunStore wrote it.
    const prefix = Buffer.from(`{"caseId":${JSON.stringify(reportCase.id)},`);
    let checked = prefix.length;
    const lines: NumberedBytes[] = [];
    while (resultsLeft) {
      const line = results.current as NumberedBytes;
      const bytes = line.bytes;
      if (bytes.length <= prefix.length || bytes.compare(prefix, 0, prefix.length, 0, prefix.length) !== 0) {
        // Written otherwise (another escape of the id), or another case's: read the id itself.
        if ((plainCaseId(bytes) ?? lineCaseId(resultsPath, line)) !== reportCase.id) break;
        checked = 0;
      }
      lines.push(line);
      results.advance();
      resultsLeft = results.current !== undefined || (await results.fill());
    }
    batch.push(new FolderCaseItem(reportCase, at, lines, resultsPath, checked));
    if (batch.length >= BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (resultsLeft) {
    const line = results.current as NumberedBytes;
    throw new RunFolderError(
      `${resultsPath}:${line.line}:1: expected the results of the cases cases.jsonl lists, in its order, but this result is of case "${lineCaseId(resultsPath, line)}", which is not there (a damaged run folder)`,
    );
  }
  if (batch.length > 0) yield batch;
}

const CASE_ID_OPEN = Buffer.from('{"caseId":"');

/** A result line's caseId when RunStore wrote it first and it has no escape in it (the next case's, at each case's end); undefined otherwise. */
function plainCaseId(bytes: Buffer): string | undefined {
  const open = CASE_ID_OPEN.length;
  if (bytes.length <= open || bytes.compare(CASE_ID_OPEN, 0, open, 0, open) !== 0) return undefined;
  const close = bytes.indexOf(0x22, open);
  if (close === -1) return undefined;
  const backslash = bytes.indexOf(0x5c, open);
  if (backslash !== -1 && backslash < close) return undefined;
  return bytes.toString('utf8', open, close);
}

function lineCaseId(path: string, at: NumberedBytes): string {
  return caseIdOf(path, { text: at.bytes.toString('utf8'), line: at.line });
}
