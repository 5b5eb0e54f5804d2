import { isAscii } from 'node:buffer';
import { once } from 'node:events';
import { closeSync, createWriteStream, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Report, ReportCase, ReportSource } from '../core/report/report';
import type { ScorerResult } from '../core/result';
import type { RunEvent } from '../core/runner/events';
import { toDisplay } from '../shared/text/displayPosition';
import {
  REPORT_JSON_BETWEEN,
  REPORT_JSON_COMPARISON,
  REPORT_JSON_END,
  reportJsonAfterResults,
  reportJsonHead,
} from './reporters/json';
import { jsonPrintable } from '../shared/text/printable';
import { numberedLines } from './runFolderCases';
import { TickBatch } from './tickBatch';
import { resultLines } from './runWorkers';
import { writeRunInfo, type RunDescription, type RunInfo } from './runInfo';

export interface RunStoreOptions {
  /** What the CLI knows of the run before it starts (fingerprints, shard): with it, run.json is written. */
  readonly description?: RunDescription;
  /** The write of finished cases; a seam so tests can make the disk full. */
  readonly write?: (fd: number, text: string) => void;
  /**
   * Called once when a finished case cannot be written (the disk is full): the caller stops the run.
   * Nothing is written after it, so the files hold whole cases up to the failure (their last line
   * may be cut; readers of a run folder ignore a cut last line).
   */
  readonly onFailure?: (error: RunFolderWriteError) => void;
}

/** A run folder file that could not be written, by name, with the system's reason. */
export class RunFolderWriteError extends Error {
  constructor(
    readonly file: string,
    readonly code: string,
  ) {
    super(`cannot write ${file}: ${code}${code === 'ENOSPC' ? ' (no space left on the device)' : ''}`);
    this.name = 'RunFolderWriteError';
  }
}

/**
 * The run's folder, `.evallens/runs/<run-id>/`: each finished case's results are appended to
 * `results.jsonl` (and the case to `cases.jsonl`) with synchronous writes at the end of the event-loop
 * turn in which the case finished, so a killed run keeps what had finished (a SIGKILL can take at
 * most the turn it lands in). `report.json` is written at the end by streaming those files back, so
 * memory does not grow with the run.
 */
export class RunStore {
  readonly dir: string;
  private readonly resultsFd: number;
  private readonly casesFd: number;
  /** Results and their cases are flushed together, results first: cases.jsonl never lists a case whose results are not written. */
  private readonly batch: TickBatch;
  private pendingCases = '';
  private info: RunInfo | undefined;
  /** The first write that failed; nothing is written after it. */
  failure: RunFolderWriteError | undefined;
  /**
   * Whether every case was stored after the ones before it in the dataset. Cases are stored as they
   * finish, so with more than one in flight a slow case is stored after later ones; the folder is then
   * put in dataset order before its report is written (cli/resume.ts reorderFolder).
   */
  storedInOrder = true;
  private lastIndex = -1;

  constructor(
    runsDir: string,
    runId: string,
    private readonly options: RunStoreOptions = {},
  ) {
    this.dir = join(runsDir, runId);
    mkdirSync(this.dir, { recursive: true });
    this.resultsFd = openSync(this.resultsPath, 'a');
    this.casesFd = openSync(this.casesPath, 'a');
    const write = options.write ?? ((fd: number, text: string) => void writeSync(fd, text));
    this.batch = new TickBatch((results) => {
      const cases = this.pendingCases;
      this.pendingCases = '';
      if (this.failure !== undefined) return;
      let file = this.resultsPath;
      try {
        write(this.resultsFd, results);
        file = this.casesPath;
        if (cases !== '') write(this.casesFd, cases);
      } catch (e) {
        this.failure = new RunFolderWriteError(file, (e as NodeJS.ErrnoException).code ?? String(e));
        this.options.onFailure?.(this.failure);
      }
    });
  }

  get resultsPath(): string {
    return join(this.dir, 'results.jsonl');
  }

  get casesPath(): string {
    return join(this.dir, 'cases.jsonl');
  }

  get reportPath(): string {
    return join(this.dir, 'report.json');
  }

  onEvent(event: RunEvent): void {
    if (event.type === 'run/start' && this.options.description !== undefined) {
      this.info = {
        version: 1,
        runId: event.runId,
        configFile: event.configFile,
        startedAt: event.startedAt,
        ...this.options.description,
        numTrials: event.numTrials,
        ...(event.jobThreshold === undefined ? {} : { jobThreshold: event.jobThreshold }),
        scorers: event.scorers,
      };
      writeRunInfo(this.dir, this.info);
    }
    if (event.type !== 'case/end') return;
    if (event.index < this.lastIndex) this.storedInOrder = false;
    else this.lastIndex = event.index;
    // Results scored on a worker thread come with their lines already written (cli/runWorkers.ts).
    let lines = resultLines.get(event.results) ?? '';
    if (lines === '') for (const result of event.results) lines += `${JSON.stringify(result)}\n`;
    const reportCase: ReportCase = {
      id: event.caseId,
      index: event.index,
      status: event.status,
      durationMs: event.durationMs,
      location: { file: event.range.file, ...toDisplay(event.range.start) },
      ...(event.fingerprint === undefined ? {} : { fingerprint: event.fingerprint }),
      ...(event.trials === undefined ? {} : { trials: event.trials }),
    };
    // The case goes in before its results are added: a flush the add sets off writes both.
    this.pendingCases += `${JSON.stringify(reportCase)}\n`;
    this.batch.add(lines);
  }

  close(): void {
    this.batch.flush();
    closeSync(this.resultsFd);
    closeSync(this.casesFd);
  }

  /**
   * The finished run as reporters read it: the head in memory, cases and results streamed from disk,
   * and `report.json` once `writeReport` has written it.
   */
  source(head: Omit<Report, 'cases' | 'results'>, written = false): ReportSource {
    return folderSource(this.dir, head, written);
  }

  /** Writes `report.json` from the stored lines; returns the source that knows the file. */
  async writeReport(
    head: Omit<Report, 'cases' | 'results'>,
    comparison?: (stream: NodeJS.WritableStream) => Promise<void>,
  ): Promise<ReportSource> {
    await writeFolderReport(this.dir, head, comparison);
    if (this.info !== undefined) {
      const finished = { finishedAt: head.finishedAt, durationMs: head.durationMs, cancelled: head.cancelled };
      writeRunInfo(this.dir, { ...this.info, finished });
    }
    return this.source(head, true);
  }
}

/** A run folder's report as reporters read it: the head given, cases and results streamed from its files. */
export function folderSource(dir: string, head: Omit<Report, 'cases' | 'results'>, written = false): ReportSource {
  const lines = {
    cases: () => readLines(join(dir, 'cases.jsonl')),
    results: () => readLines(join(dir, 'results.jsonl')),
  };
  return {
    head,
    cases: () => parsed<ReportCase>(lines.cases()),
    results: () => parsed<ScorerResult>(lines.results()),
    lines,
    ...(written ? { file: join(dir, 'report.json') } : {}),
  };
}

/**
 * Writes a run folder's `report.json` from its cases.jsonl and results.jsonl (and a baseline
 * comparison after them), as writeReportJson writes a report: the stored lines are copied as bytes in
 * large chunks, a comma put between them; only a chunk with a byte outside printable ASCII is decoded
 * to spell its C1, bidi and format characters as \u escapes (jsonPrintable), as writeReportJson does.
 */
export async function writeFolderReport(
  dir: string,
  head: Omit<Report, 'cases' | 'results'>,
  comparison?: (stream: NodeJS.WritableStream) => Promise<void>,
): Promise<void> {
  // Written with synchronous writes from buffers used again and again: the copy is ~180 MB for
  // 100,000 cases, and a stream's buffers (one per chunk, freed only when a collection finds them)
  // added ~30 MB of peak memory. The event loop gets a turn after every chunk (a Ctrl-C is heard).
  const fd = openSync(join(dir, 'report.json'), 'w');
  let closed = false;
  try {
    const put = (chunk: Buffer | string): void => {
      if (typeof chunk === 'string') writeSync(fd, chunk);
      else for (let at = 0; at < chunk.length;) at += writeSync(fd, chunk, at);
    };
    put(jsonPrintable(reportJsonHead(head)));
    const buffers = { read: Buffer.allocUnsafe(COPY_CHUNK), out: Buffer.allocUnsafe(2 * COPY_CHUNK + 2) };
    await copyItems(join(dir, 'cases.jsonl'), put, buffers);
    put(REPORT_JSON_BETWEEN);
    await copyItems(join(dir, 'results.jsonl'), put, buffers);
    put(jsonPrintable(reportJsonAfterResults(head)));
    if (comparison === undefined) {
      put(REPORT_JSON_END);
      return;
    }
    put(REPORT_JSON_COMPARISON);
    // The comparison writes to a stream: one on the same file, from where the copy ended.
    const file = createWriteStream('', { fd });
    closed = true;
    const failed = new Promise<never>((_resolve, reject) => file.once('error', reject));
    failed.catch(() => undefined);
    try {
      await Promise.race([comparison(file), failed]);
    } catch (e) {
      file.destroy();
      throw e;
    }
    file.end(REPORT_JSON_END);
    await Promise.race([once(file, 'finish'), failed]);
  } finally {
    if (!closed) closeSync(fd);
  }
}

/** Chunks of a stored file read at once. */
const COPY_CHUNK = 1 << 20;

interface CopyBuffers {
  /** Each chunk read goes here. */
  readonly read: Buffer;
  /** Items are written here when they fit (twice the chunk: a line end becomes two bytes). */
  readonly out: Buffer;
}

/**
 * The lines of a JSON Lines file as the items of a report's array: each after `\n` (the first) or
 * `,\n`. `put` must have written a chunk before it returns: the buffers are used again.
 */
async function copyItems(path: string, put: (chunk: Buffer) => void, buffers: CopyBuffers): Promise<void> {
  let first = true;
  const putItems = (lines: Buffer) => {
    const items = asItems(lines, first, buffers.out);
    if (items.length === 0) return;
    put(items);
    first = false;
  };
  const fd = openSync(path, 'r');
  try {
    // The unfinished line at a chunk's end (a copy: the read buffer is used again); joined with the
    // start of the next chunk only (not the whole chunk).
    let carry: Buffer | undefined;
    for (;;) {
      const size = readSync(fd, buffers.read, 0, COPY_CHUNK, null);
      if (size === 0) break;
      const chunk = buffers.read.subarray(0, size);
      let from = 0;
      if (carry !== undefined) {
        const newline = chunk.indexOf(10);
        if (newline === -1) {
          carry = Buffer.concat([carry, chunk]);
          continue;
        }
        putItems(Buffer.concat([carry, chunk.subarray(0, newline + 1)]));
        carry = undefined;
        from = newline + 1;
      }
      const end = Math.max(from, chunk.lastIndexOf(10) + 1);
      if (end > from) putItems(chunk.subarray(from, end));
      if (end < chunk.length) carry = Buffer.from(chunk.subarray(end));
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (carry !== undefined) putItems(carry);
  } finally {
    closeSync(fd);
  }
}

/**
 * Whole lines (each ending with \n, but the file's last may not) as report items, in `out` when they
 * fit. Blank lines are left out; a \r before a \n is dropped.
 */
function asItems(lines: Buffer, first: boolean, reusable: Buffer): Buffer {
  if (!isAscii(lines) || lines.indexOf(0x7f) !== -1) {
    const items = lines
      .toString('utf8')
      .split('\n')
      .map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line))
      .filter((line) => line !== '');
    if (items.length === 0) return Buffer.alloc(0);
    return Buffer.from(jsonPrintable(`${first ? '\n' : ',\n'}${items.join(',\n')}`));
  }
  // Printable ASCII needs no escaping: the bytes are copied as they are, a line at a time, each after
  // `\n` or `,\n`. Bytes stay bytes: decoding the chunk to a string, replacing its line ends and
  // encoding it again cost about twice as much CPU.
  const out = lines.length * 2 + 2 <= reusable.length ? reusable : Buffer.allocUnsafe(lines.length * 2 + 2);
  let at = 0;
  let start = 0;
  let separator = first ? 1 : 2;
  while (start < lines.length) {
    let newline = lines.indexOf(10, start);
    if (newline === -1) newline = lines.length;
    const end = newline > start && lines[newline - 1] === 13 ? newline - 1 : newline;
    if (end > start) {
      if (separator === 2) out[at++] = 44; // ,
      out[at++] = 10;
      separator = 2;
      at += lines.copy(out, at, start, end);
    }
    start = newline + 1;
  }
  return out.subarray(0, at);
}

/** A run folder file's lines, blank ones left out. */
async function* readLines(path: string): AsyncIterable<string> {
  for await (const { text } of numberedLines(path)) yield text;
}

async function* parsed<T>(lines: AsyncIterable<string>): AsyncIterable<T> {
  for await (const line of lines) yield JSON.parse(line) as T;
}
