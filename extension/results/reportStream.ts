/**
 * A `report.json` for the results view read by the CLI in parts (`evallens report <file> --stream`,
 * cli/reportStream.ts): the checked head with its first rows comes first and is handed on at once,
 * then each further part as it comes, so the view shows the summary while the rest is still read.
 * Bounded as the whole read is (reportFile.ts): each line and the whole output capped, a time limit,
 * and the CLI killed past either. No vscode here.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ReportCase, Report } from '../../core/report/report';
import type { ScorerResult } from '../../core/result';

/** The most stdout taken from the CLI in all (as reportFile.ts), and in one line (a part: the CLI makes them ~8 MB). */
const MAX_TOTAL_CHARS = 1024 * 1024 * 1024;
export const MAX_LINE_CHARS = 256 * 1024 * 1024;
const READ_TIMEOUT_MS = 120_000;

export interface ReportParts {
  /**
   * The report's head with its first cases and results (more may follow). `detailsApart`: the CLI
   * printed the results without their `details`; the view asks for a case's (resultDetailsSource.ts).
   * `resultsAt`, with them: where each of these results is in the file (resultsAt.ts).
   */
  head(report: Report, detailsApart: boolean, resultsAt?: ResultsAt): void;
  /** More cases and results, in order (and where those results are in the file, as for the head). */
  more(cases: readonly ReportCase[], results: readonly ScorerResult[], resultsAt?: ResultsAt): void;
}

/** Two byte offsets a result, in order: where each result of a part starts and ends in the report file. */
export type ResultsAt = readonly number[];

/** A part's `resultsAt` when it has one that fits its results (an older CLI prints none). */
function resultsAtOf(value: unknown, results: readonly unknown[] | undefined): ResultsAt | undefined {
  if (!Array.isArray(value) || value.length !== 2 * (results?.length ?? 0)) return undefined;
  for (let i = 0; i < value.length; i += 2) {
    const [start, end] = [value[i] as unknown, value[i + 1] as unknown];
    if (
      !Number.isSafeInteger(start) ||
      !Number.isSafeInteger(end) ||
      (start as number) < 0 ||
      (end as number) <= (start as number)
    )
      return undefined;
  }
  return value as number[];
}

export function reportStreamArgs(path: string): string[] {
  return ['report', path, '--stream', '--no-color'];
}

/** The CLI's `report --stream` bundled alone beside it (dist/reportStream.js: starts faster), else the CLI itself. */
export function streamEntry(cliPath: string): string {
  const alone = join(dirname(cliPath), 'reportStream.js');
  return existsSync(alone) ? alone : cliPath;
}

export interface StreamLimits {
  readonly timeoutMs?: number;
  readonly maxLineChars?: number;
  readonly maxTotalChars?: number;
  /** Told the CLI's process once it is started (tests watch it end). */
  readonly started?: (child: ChildProcess) => void;
}

/**
 * Reads `path` with the CLI at `cliPath`, handing each part to `parts` as it comes. Resolves when the
 * CLI said the report is whole; rejects with the CLI's message (file:line:col: expected, seen) when it
 * is not — the parts handed on before stay valid (they were checked).
 */
export function streamReportFile(
  cliPath: string,
  path: string,
  parts: ReportParts,
  limits: StreamLimits = {},
): Promise<void> {
  const timeoutMs = limits.timeoutMs ?? READ_TIMEOUT_MS;
  const maxLine = limits.maxLineChars ?? MAX_LINE_CHARS;
  const maxTotal = limits.maxTotalChars ?? MAX_TOTAL_CHARS;
  return new Promise((resolve, reject) => {
    const child = fork(streamEntry(cliPath), reportStreamArgs(path), {
      cwd: dirname(cliPath),
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      execArgv: [],
      timeout: timeoutMs,
    });
    limits.started?.(child);
    let pending: Buffer[] = [];
    let pendingSize = 0;
    let total = 0;
    let stderr = '';
    let failure: string | undefined;
    let ended = false;
    let headSeen = false;
    const stop = (why: string): void => {
      failure ??= why;
      child.kill();
    };
    const onLine = (line: string): void => {
      let frame: {
        type?: unknown;
        report?: Report;
        detailsApart?: unknown;
        cases?: ReportCase[];
        results?: ScorerResult[];
        resultsAt?: unknown;
        message?: unknown;
      };
      try {
        frame = JSON.parse(line) as typeof frame;
      } catch {
        return stop(`${path}:1:1: the EvalLens CLI did not print the report (an older CLI?)`);
      }
      if (frame.type === 'head' && !headSeen && frame.report !== undefined) {
        headSeen = true;
        const apart = frame.detailsApart === true;
        parts.head(frame.report, apart, apart ? resultsAtOf(frame.resultsAt, frame.report.results) : undefined);
      } else if (frame.type === 'chunk' && headSeen)
        parts.more(frame.cases ?? [], frame.results ?? [], resultsAtOf(frame.resultsAt, frame.results));
      else if (frame.type === 'end' && headSeen) ended = true;
      else if (frame.type === 'error' && typeof frame.message === 'string') failure ??= frame.message;
      else stop(`${path}:1:1: the EvalLens CLI did not print the report (an older CLI?)`);
    };
    child.stdout?.on('data', (chunk: Buffer) => {
      if (failure !== undefined) return;
      total += chunk.length;
      if (total > maxTotal) return stop(`${path}:1:1: the report is larger than ${maxTotal} bytes`);
      let from = 0;
      for (let nl = chunk.indexOf(10); nl !== -1 && failure === undefined; nl = chunk.indexOf(10, from)) {
        pending.push(chunk.subarray(from, nl));
        const line = Buffer.concat(pending).toString('utf8');
        pending = [];
        pendingSize = 0;
        from = nl + 1;
        onLine(line);
      }
      if (failure !== undefined || from >= chunk.length) return;
      pending.push(chunk.subarray(from));
      pendingSize += chunk.length - from;
      if (pendingSize > maxLine) {
        pending = [];
        stop(`${path}:1:1: a part of the report is larger than ${maxLine} bytes`);
      }
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      if (stderr.length < 64 * 1024) stderr += text;
    });
    child.on('error', (e) => (failure ??= `the EvalLens CLI could not be started: ${e.message}`));
    child.on('close', (code, signal) => {
      if (failure !== undefined) return reject(new Error(failure));
      if (ended) return resolve();
      if (signal !== null)
        return reject(
          new Error(`reading ${path} was stopped (${signal}) after ${timeoutMs / 1000} s or by the system`),
        );
      const said = stderr.split('\n').find((l) => l.trim() !== '' && !l.startsWith('evallens: warning:'));
      reject(
        new Error(
          said?.replace(/^evallens: /, '') ?? `reading ${path} failed (the EvalLens CLI exited with ${String(code)})`,
        ),
      );
    });
  });
}

/** The whole report from its parts (for a caller that needs all of it, e.g. to check its run id); results without details when the CLI left them apart. */
export async function streamWholeReport(cliPath: string, path: string, limits?: StreamLimits): Promise<Report> {
  let report: Report | undefined;
  const cases: ReportCase[] = [];
  const results: ScorerResult[] = [];
  await streamReportFile(
    cliPath,
    path,
    {
      head: (r) => {
        cases.push(...r.cases);
        results.push(...r.results);
        report = r;
      },
      more: (c, r) => {
        for (const x of c) cases.push(x);
        for (const x of r) results.push(x);
      },
    },
    limits,
  );
  if (report === undefined) throw new Error(`${path}:1:1: the EvalLens CLI did not print the report`);
  return { ...report, cases, results };
}
