import { isAscii } from 'node:buffer';
import { once } from 'node:events';
import { closeSync, createReadStream, createWriteStream, mkdirSync, openSync, writeSync } from 'node:fs';
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
  const file = createWriteStream(join(dir, 'report.json'));
  const failed = new Promise<never>((_resolve, reject) => file.once('error', reject));
  // Keeps an early failure from being unhandled while the writes below have not yet awaited it.
  failed.catch(() => undefined);
  const put = async (chunk: Buffer | string): Promise<void> => {
    if (!file.write(chunk)) await Promise.race([once(file, 'drain'), failed]);
  };
  await put(jsonPrintable(reportJsonHead(head)));
  await copyItems(join(dir, 'cases.jsonl'), put);
  await put(REPORT_JSON_BETWEEN);
  await copyItems(join(dir, 'results.jsonl'), put);
  await put(jsonPrintable(reportJsonAfterResults(head)));
  if (comparison !== undefined) {
    await put(REPORT_JSON_COMPARISON);
    await Promise.race([comparison(file), failed]);
  }
  file.end(REPORT_JSON_END);
  await Promise.race([once(file, 'finish'), failed]);
}

/** Chunks of a stored file read at once. */
const COPY_CHUNK = 1 << 20;

/** The lines of a JSON Lines file as the items of a report's array: each after `\n` (the first) or `,\n`. */
async function copyItems(path: string, put: (chunk: Buffer | string) => Promise<void>): Promise<void> {
  let first = true;
  const putItems = async (lines: Buffer) => {
    for (const items of asItems(lines, first)) {
      if (items.length === 0) continue;
      await put(items);
      first = false;
    }
  };
  // The unfinished line at a chunk's end; joined with the start of the next chunk only (not the whole chunk).
  let carry: Buffer | undefined;
  for await (const chunk of createReadStream(path, { highWaterMark: COPY_CHUNK }) as AsyncIterable<Buffer>) {
    let from = 0;
    if (carry !== undefined) {
      const newline = chunk.indexOf(10);
      if (newline === -1) {
        carry = Buffer.concat([carry, chunk]);
        continue;
      }
      await putItems(Buffer.concat([carry, chunk.subarray(0, newline + 1)]));
      carry = undefined;
      from = newline + 1;
    }
    const end = Math.max(from, chunk.lastIndexOf(10) + 1);
    if (end > from) await putItems(chunk.subarray(from, end));
    if (end < chunk.length) carry = chunk.subarray(end);
  }
  if (carry !== undefined) await putItems(carry);
}

const BLANK_LINE = Buffer.from('\n\n');
/** Bytes of the run folder turned into one string at a time (see asItems). */
const PIECE = 48 * 1024;

/**
 * Whole lines (each ending with \n, but the file's last may not) as report items. Blank lines are
 * left out; a \r before a \n is dropped.
 */
function asItems(lines: Buffer, first: boolean): (Buffer | string)[] {
  if (!isAscii(lines) || lines.indexOf(0x7f) !== -1) {
    const items = lines
      .toString('utf8')
      .split('\n')
      .map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line))
      .filter((line) => line !== '');
    if (items.length === 0) return [];
    return [Buffer.from(jsonPrintable(`${first ? '\n' : ',\n'}${items.join(',\n')}`))];
  }
  // The usual chunk (no \r, no blank line): every line end but the last becomes `,\n` in one native
  // pass, instead of a copy per line; in pieces of whole lines of about PIECE bytes, so each string
  // is an ordinary young object (a string over ~128 KB lives until a full collection: +50 MB of peak RSS).
  if (lines.length > 0 && lines[0] !== 10 && lines.indexOf(13) === -1 && lines.indexOf(BLANK_LINE) === -1) {
    const pieces: string[] = [];
    let start = 0;
    while (start < lines.length) {
      const cut = start + PIECE >= lines.length ? -1 : lines.indexOf(10, start + PIECE);
      const end = cut === -1 ? lines.length : cut + 1;
      const text = lines.toString('latin1', start, lines[end - 1] === 10 ? end - 1 : end);
      pieces.push(`${first && start === 0 ? '\n' : ',\n'}${text.replaceAll('\n', ',\n')}`);
      start = end;
    }
    return pieces;
  }
  const out = Buffer.allocUnsafe(lines.length * 2 + 2);
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
  return [out.subarray(0, at)];
}

/** A run folder file's lines, blank ones left out. */
async function* readLines(path: string): AsyncIterable<string> {
  for await (const { text } of numberedLines(path)) yield text;
}

async function* parsed<T>(lines: AsyncIterable<string>): AsyncIterable<T> {
  for await (const line of lines) yield JSON.parse(line) as T;
}
