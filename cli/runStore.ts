import { closeSync, createReadStream, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Report, ReportCase, ReportSource } from '../core/report/report';
import type { ScorerResult } from '../core/result';
import type { RunEvent } from '../core/runner/events';

/**
 * The run's folder, `.evallens/runs/<run-id>/`: each finished case's results are appended to
 * `results.jsonl` (and the case to `cases.jsonl`) with a synchronous write as the case ends, so a
 * run killed at any point keeps everything that had finished. `report.json` is written at the end
 * by streaming those files back, so memory does not grow with the run.
 */
export class RunStore {
  readonly dir: string;
  private readonly resultsFd: number;
  private readonly casesFd: number;

  constructor(runsDir: string, runId: string) {
    this.dir = join(runsDir, runId);
    mkdirSync(this.dir, { recursive: true });
    this.resultsFd = openSync(this.resultsPath, 'a');
    this.casesFd = openSync(this.casesPath, 'a');
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
    writeSync(this.resultsFd, lines);
    const reportCase: ReportCase = {
      id: event.caseId,
      index: event.index,
      status: event.status,
      durationMs: event.durationMs,
      location: { file: event.range.file, line: event.range.start.line + 1, column: event.range.start.column + 1 },
    };
    writeSync(this.casesFd, `${JSON.stringify(reportCase)}\n`);
  }

  close(): void {
    closeSync(this.resultsFd);
    closeSync(this.casesFd);
  }

  /** The finished run as reporters read it: the head in memory, cases and results streamed from disk. */
  source(head: Omit<Report, 'cases' | 'results'>): ReportSource {
    return {
      head,
      cases: () => readJsonLines<ReportCase>(this.casesPath),
      results: () => readJsonLines<ScorerResult>(this.resultsPath),
    };
  }
}

async function* readJsonLines<T>(path: string): AsyncIterable<T> {
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) if (line !== '') yield JSON.parse(line) as T;
}
