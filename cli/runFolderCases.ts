/**
 * A finished run folder read back case by case: each line of `cases.jsonl` with the lines of
 * `results.jsonl` that belong to it. RunStore writes a case's results and then the case in the same
 * write batch, in the same order in both files, so the two files are read side by side without
 * holding either. A line that is not what RunStore writes is an error naming the file and line.
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { ReportCase } from '../core/report/report';
import type { ScorerResult } from '../core/result';

export class RunFolderError extends Error {}

/**
 * A case of a run folder: its line as written and parsed, and its results' lines, parsed when asked
 * (`results()`): a merge holds cases back to order them, and text held is far cheaper to keep than
 * parsed objects.
 */
export interface FolderCase {
  readonly case: ReportCase;
  readonly caseLine: string;
  readonly resultLines: readonly string[];
  results(): ScorerResult[];
}

export interface NumberedLine {
  readonly text: string;
  readonly line: number;
}

/** The lines of a file, numbered from 1, blank lines left out. */
export async function* numberedLines(path: string): AsyncIterable<NumberedLine> {
  const input = createReadStream(path, 'utf8');
  const opened = new Promise<void>((resolveOpen, reject) => {
    input.once('open', () => resolveOpen());
    input.once('error', reject);
  });
  try {
    await opened;
  } catch (e) {
    throw new RunFolderError(`${path}:1:1: cannot read it (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  let line = 0;
  for await (const text of createInterface({ input, crlfDelay: Infinity })) {
    line++;
    if (text !== '') yield { text, line };
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
 * A file's lines read in large chunks and handed out one at a time without a promise per line (a
 * merge reads millions): `current` is the next line, or undefined when the chunk read so far is used
 * up, and then `fill()` reads on (false at the end of the file).
 */
class LineCursor {
  private lines: NumberedLine[] = [];
  private at = 0;
  private carry = '';
  private number = 0;
  private ended = false;
  private readonly chunks: AsyncIterator<string>;

  constructor(readonly path: string) {
    const input = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 });
    this.chunks = (input as AsyncIterable<string>)[Symbol.asyncIterator]();
  }

  get current(): NumberedLine | undefined {
    return this.lines[this.at];
  }

  advance(): void {
    this.at++;
  }

  /** Reads until a line is ready; false at the end of the file. */
  async fill(): Promise<boolean> {
    while (this.at >= this.lines.length) {
      if (this.ended) return false;
      let next: IteratorResult<string>;
      try {
        next = await this.chunks.next();
      } catch (e) {
        throw new RunFolderError(
          `${this.path}:1:1: cannot read it (${(e as NodeJS.ErrnoException).code ?? String(e)})`,
        );
      }
      const parts = next.done === true ? [this.carry] : (this.carry + next.value).split('\n');
      if (next.done === true) this.ended = true;
      this.carry = next.done === true ? '' : (parts.pop() ?? '');
      this.lines = [];
      this.at = 0;
      for (const part of parts) {
        this.number++;
        const text = part.endsWith('\r') ? part.slice(0, -1) : part;
        if (text !== '') this.lines.push({ text, line: this.number });
      }
    }
    return true;
  }
}

/** The cases of a finished run folder in the order they were written, each with its results. */
export async function* folderCases(dir: string): AsyncIterable<FolderCase> {
  const casesPath = join(dir, 'cases.jsonl');
  const resultsPath = join(dir, 'results.jsonl');
  const cases = new LineCursor(casesPath);
  const results = new LineCursor(resultsPath);
  let resultsLeft = await results.fill();
  let pendingId = resultsLeft ? caseIdOf(resultsPath, results.current as NumberedLine) : undefined;
  while (cases.current !== undefined || (await cases.fill())) {
    const at = cases.current as NumberedLine;
    cases.advance();
    const reportCase = parseCaseLine(casesPath, at);
    const lines: NumberedLine[] = [];
    while (pendingId === reportCase.id) {
      lines.push(results.current as NumberedLine);
      results.advance();
      resultsLeft = results.current !== undefined || (await results.fill());
      pendingId = resultsLeft ? caseIdOf(resultsPath, results.current as NumberedLine) : undefined;
    }
    yield {
      case: reportCase,
      caseLine: at.text,
      resultLines: lines.map((l) => l.text),
      results: () => lines.map((l) => parseResultLine(resultsPath, l)),
    };
  }
  if (pendingId !== undefined)
    throw new RunFolderError(
      `${resultsPath}:${(results.current as NumberedLine).line}:1: expected the results of the cases cases.jsonl lists, in its order, but this result is of case "${pendingId}", which is not there (a damaged run folder)`,
    );
}
