import { once } from 'node:events';
import { closeSync, createReadStream, createWriteStream, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Report, ReportCase, ReportSource } from '../core/report/report';
import type { ScorerResult } from '../core/result';
import type { RunEvent } from '../core/runner/events';
import { toDisplay } from '../shared/text/displayPosition';
import { writeReportJson } from './reporters/json';
import { TickBatch } from './tickBatch';

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

  constructor(runsDir: string, runId: string) {
    this.dir = join(runsDir, runId);
    mkdirSync(this.dir, { recursive: true });
    this.resultsFd = openSync(this.resultsPath, 'a');
    this.casesFd = openSync(this.casesPath, 'a');
    this.batch = new TickBatch((results) => {
      writeSync(this.resultsFd, results);
      const cases = this.pendingCases;
      this.pendingCases = '';
      if (cases !== '') writeSync(this.casesFd, cases);
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
    if (event.type !== 'case/end') return;
    let lines = '';
    for (const result of event.results) lines += `${JSON.stringify(result)}\n`;
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
    const lines = { cases: () => readLines(this.casesPath), results: () => readLines(this.resultsPath) };
    return {
      head,
      cases: () => parsed<ReportCase>(lines.cases()),
      results: () => parsed<ScorerResult>(lines.results()),
      lines,
      ...(written ? { file: this.reportPath } : {}),
    };
  }

  /** Writes `report.json` from the stored lines; returns the source that knows the file. */
  async writeReport(
    head: Omit<Report, 'cases' | 'results'>,
    comparison?: (stream: NodeJS.WritableStream) => Promise<void>,
  ): Promise<ReportSource> {
    const file = createWriteStream(this.reportPath);
    await writeReportJson(this.source(head), file, comparison);
    file.end();
    await once(file, 'finish');
    return this.source(head, true);
  }
}

async function* readLines(path: string): AsyncIterable<string> {
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) if (line !== '') yield line;
}

async function* parsed<T>(lines: AsyncIterable<string>): AsyncIterable<T> {
  for await (const line of lines) yield JSON.parse(line) as T;
}
