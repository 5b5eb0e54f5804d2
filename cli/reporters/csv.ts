import type { ReportSource } from '../../core/report/report';
import type { CaseEndEvent, RunEvent } from '../../core/runner/events';
import { csvNumber, csvRow, csvText } from './csvField';
import { Output } from './output';
import { toDisplay } from '../../shared/text/displayPosition';
import { displayPath } from './paths';
import type { Reporter, ReporterOptions } from './reporter';

export const CSV_HEADER = [
  'case_id',
  'scorer',
  'trial',
  'status',
  'score',
  'passed',
  'duration_ms',
  'reason',
  'file',
  'line',
  'column',
  'case_pass_rate',
  'case_flaky',
  'cached',
] as const;

/**
 * One row per case × scorer × trial, written as each case ends. Text fields are quoted per RFC 4180
 * and guarded against formula injection; `file` is relative to the working folder, `line`/`column`
 * are the case's 1-based start. With several trials, `case_pass_rate` and `case_flaky` repeat the
 * case's share of trials passed and whether they disagree on each of its rows (empty otherwise).
 * `cached` is `true` for a verdict the result cache gave (docs/cache.md), else empty.
 */
export class CsvReporter implements Reporter {
  private readonly output: Output;
  private started = false;

  constructor(private readonly options: ReporterOptions) {
    this.output = Output.open(options);
  }

  onEvent(event: RunEvent): void {
    this.start();
    if (event.type === 'case/end') this.output.stream.write(this.rows(event));
  }

  async finish(_report: ReportSource): Promise<void> {
    this.start();
    await this.output.close();
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.output.stream.write(csvRow(CSV_HEADER));
  }

  private rows(event: CaseEndEvent): string {
    const file = csvText(displayPath(this.options.cwd, event.range.file));
    const { line, column } = toDisplay(event.range.start);
    const t = event.trials;
    const passRate = csvNumber(t?.pass_rate ?? t?.passRate);
    const flaky = t?.flaky === undefined ? '' : String(t.flaky);
    return event.results
      .map((r) =>
        csvRow([
          csvText(r.caseId),
          csvText(r.scorer),
          csvNumber(r.trial),
          csvText(r.status),
          csvNumber(r.score),
          r.passed === undefined ? '' : String(r.passed),
          csvNumber(r.durationMs),
          csvText(r.reason),
          file,
          csvNumber(line),
          csvNumber(column),
          passRate,
          flaky,
          r.cached === true ? 'true' : '',
        ]),
      )
      .join('');
  }
}
