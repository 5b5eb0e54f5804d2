import type { ReportSource, ScorerAggregate } from '../../core/report/report';
import type { CaseEndEvent, RunEvent } from '../../core/runner/events';
import { printable } from '../../shared/text/printable';
import { shownTrialName } from '../../shared/text/trialName';
import { TickBatch } from '../tickBatch';
import { CaseOrder } from './caseOrder';
import { Output } from './output';
import { toDisplay } from '../../shared/text/displayPosition';
import { displayPath } from './paths';
import type { Reporter, ReporterOptions } from './reporter';
import { SkipReasons } from './nothingScored';
import { runVerdict } from './verdict';
import { MIN_CASES } from '../../core/stats/rules';
import { spendLines } from '../spendLines';
import { FAILED_SHOWN, shownResults } from './shownResults';

const INDENT = '     ';
/** Results shown under a failed or errored case. */
const SHOWN = FAILED_SHOWN;
const UNDECIDED: ReadonlySet<string> = new Set(['inconclusive']);
const COLOURS = { green: 32, red: 31, yellow: 33 } as const;
type Colour = keyof typeof COLOURS;

/**
 * Human output, streamed as cases end (`PASS id (4ms)`, `FAIL id (9ms)` with the failing scorers'
 * reasons indented under it, `ERROR id` with an `at file:line:col` line, `SKIP id`), then the
 * per-scorer table, the job test, the counts, where the report is, and the verdict. Prints reasons
 * only, never payloads.
 */
export class ConsoleReporter implements Reporter {
  private readonly output: Output;
  private readonly batch: TickBatch;
  private numTrials = 1;
  private readonly skipReasons = new SkipReasons();
  /** Cases are printed in dataset order, as they were read, whatever order they finish in. */
  private readonly order = new CaseOrder<string>();
  /** Per scorer (not evalhub_benchmark's), results left without a test by their primary metric (EvalHub's rule). */
  private readonly noTest = new Map<string, number>();

  constructor(private readonly options: ReporterOptions) {
    this.output = Output.open(options);
    const progress = options.out === undefined ? options.progress : undefined;
    this.batch = new TickBatch((text) =>
      progress === undefined ? this.output.stream.write(text) : progress.printAbove(text),
    );
  }

  onEvent(event: RunEvent): void {
    this.skipReasons.onEvent(event);
    if (
      event.type === 'result' &&
      event.result.status === 'inconclusive' &&
      event.result.reason.startsWith('no test: ')
    )
      this.noTest.set(event.result.scorer, (this.noTest.get(event.result.scorer) ?? 0) + 1);
    if (event.type === 'run/start') this.numTrials = event.numTrials;
    else if (event.type === 'case/start') this.order.start(event.index);
    else if (event.type === 'case/end') {
      for (const text of this.order.end(event.index, this.caseText(event))) this.batch.add(text);
      this.options.progress?.caseEnded(event.status);
    } else if (event.type === 'run/end') this.options.progress?.stop();
  }

  async finish(report: ReportSource): Promise<void> {
    const { head } = report;
    for (const held of this.order.rest()) this.batch.add(held);
    const lines: string[] = [];
    if (head.scorers.length > 0) lines.push('', ...this.scorerTable(head.scorers));
    const job = head.job.test;
    if (job !== undefined) {
      if (head.scorers.length === 0) lines.push('');
      lines.push(`job score ${num(job.score)} (threshold ${num(job.threshold)}) → ${this.outcome(job.pass)}`);
    }
    lines.push(...untestedBenchmarks(head.scorers, this.noTest));
    const { passed, failed, errored, skipped, total } = head.summary;
    const counts = [`${passed} passed`, `${failed} failed`];
    if (errored > 0) counts.push(`${errored} errored`);
    if (skipped > 0) counts.push(`${skipped} skipped`);
    counts.push(`${total} total`);
    const verdict = runVerdict(head);
    const colour: Colour = verdict === 'PASSED' ? 'green' : verdict === 'CANCELLED' ? 'yellow' : 'red';
    lines.push('', counts.join(', '));
    const missing = head.summary.missingCredentials;
    if (missing !== undefined) {
      lines.push(
        this.paint(
          'yellow',
          `${missing.results} judge result${missing.results === 1 ? ' was' : 's were'} skipped for missing credentials:`,
        ),
      );
      for (const reason of missing.reasons) lines.push(`${INDENT}${printable(reason)}`);
    }
    lines.push(...spendLines(head.spend));
    if (verdict === 'NOTHING SCORED') lines.push('', ...this.skipReasons.explain(head).map((line) => printable(line)));
    // Where the results are kept (the run folder's report.json, which the results view opens).
    if (report.file !== undefined) lines.push('', `report: ${printable(displayPath(this.options.cwd, report.file))}`);
    lines.push('', this.paint(colour, verdict));
    this.write(lines);
    this.batch.flush();
    await this.output.close();
  }

  /** A case's lines, each ending with a line break (one string: a merge prints a hundred thousand cases). */
  private caseText(event: CaseEndEvent): string {
    const id = plain(event.caseId) ? event.caseId : printable(event.caseId);
    const t = event.trials;
    const trials =
      t === undefined ? '' : ` [${t.passed}/${t.trials} trials passed${t.flaky === true ? ', flaky' : ''}]`;
    const took = `(${Math.round(event.durationMs)}ms)${trials}`;
    switch (event.status) {
      case 'passed':
        return `${this.paint('green', 'PASS')} ${id} ${took}\n`;
      case 'skipped':
        // An undecided result says why (EvalHub's omitted test: never a silent drop).
        return `${this.paint('yellow', 'SKIP')} ${id}\n${this.reasons(event, UNDECIDED)}`;
      case 'failed':
        return `${this.paint('red', 'FAIL')} ${id} ${took}\n${this.reasons(event)}`;
      case 'errored': {
        const { line, column } = toDisplay(event.range.start);
        const at = `${INDENT}at ${printable(displayPath(this.options.cwd, event.range.file))}:${line}:${column}`;
        return `${this.paint('red', 'ERROR')} ${id} ${took}\n${this.reasons(event)}${at}\n`;
      }
    }
  }

  /** The shown results' lines, each ending with a line break. */
  private reasons(event: CaseEndEvent, shown: ReadonlySet<string> = SHOWN): string {
    let text = '';
    for (const r of shownResults(event, shown)) {
      // Trial 0 is a scorer that compares the trials with each other: "across trials", as everywhere.
      const name = shownTrialName(r.trial, this.numTrials);
      const trial = name === undefined ? '' : ` [${name}]`;
      // A reason of several lines keeps its later lines under the first.
      const scorer = plain(r.scorer) ? r.scorer : printable(r.scorer);
      const reason = plain(r.reason)
        ? r.reason
        : printable(r.reason, { lines: true }).split('\n').join(`\n${INDENT}  `);
      text += `${INDENT}${scorer}${trial}: ${reason}\n`;
    }
    return text;
  }

  private scorerTable(scorers: readonly ScorerAggregate[]): string[] {
    const rows = scorers.map((s) => [
      printable(s.name),
      s.passRate === undefined ? '-' : `${num(s.passRate * 100, 1)}%${percentInterval(s)}`,
      s.meanScore === undefined
        ? '-'
        : s.scale.kind === 'count'
          ? `${num(s.meanScore)}${meanInterval(s)} ${s.scale.unit}`
          : `${num(s.meanScore)}${meanInterval(s)}`,
    ]);
    const header = ['scorer', 'pass rate', 'mean score'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
    const pad = (cells: readonly string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ');
    return [
      `${pad(header)}  test`.trimEnd(),
      ...rows.map((row, i) => {
        const test = scorers[i]?.test;
        const shown =
          test === undefined
            ? ''
            : `threshold ${num(test.threshold)}${test.lower_is_better ? ' (lower is better)' : ''} → ${this.outcome(test.pass)}`;
        const wide = scorers[i] === undefined ? '' : tooWideNote(scorers[i]);
        return `${pad(row)}  ${[shown, wide].filter((part) => part !== '').join('; ')}`.trimEnd();
      }),
    ];
  }

  private outcome(pass: boolean): string {
    return pass ? this.paint('green', 'pass') : this.paint('red', 'fail');
  }

  private paint(colour: Colour, text: string): string {
    return this.options.color ? `\u001b[${COLOURS[colour]}m${text}\u001b[39m` : text;
  }

  private write(lines: readonly string[]): void {
    this.batch.add(`${lines.join('\n')}\n`);
  }
}

/** Printable ASCII on one line, which `printable` leaves as it is: one test instead of its replacements for each printed case. */
function plain(text: string): boolean {
  return PLAIN.test(text);
}
const PLAIN = /^[\x20-\x7e]*$/;

/** The mean's 95% interval, ` [low, high]`, when the report has one. */
function meanInterval(s: ScorerAggregate): string {
  if (s.ci_low === undefined || s.ci_low === null || s.ci_high === undefined || s.ci_high === null) return '';
  return ` [${num(s.ci_low)}, ${num(s.ci_high)}]`;
}

/** The pass rate's Wilson interval in percent, ` [low%, high%]`, when the report has one. */
function percentInterval(s: ScorerAggregate): string {
  const low = s.pass_rate_ci_low;
  const high = s.pass_rate_ci_high;
  if (low === undefined || low === null || high === undefined || high === null) return '';
  return ` [${num(low * 100, 1)}%, ${num(high * 100, 1)}%]`;
}

/** Says when an interval is too wide to mean anything (the rule of docs/statistics.md). */
function tooWideNote(s: ScorerAggregate): string {
  const mean = s.meanScore !== undefined && s.too_wide === true;
  const rate = s.passRate !== undefined && s.pass_rate_too_wide === true;
  if (!mean && !rate) return '';
  const n = s.cases ?? s.counts.pass + s.counts.fail;
  return n < MIN_CASES
    ? `interval too wide to mean anything (${n} case${n === 1 ? '' : 's'}, fewer than ${MIN_CASES})`
    : 'interval too wide to mean anything (wider than ±10% of the scale)';
}

/** A number for people: at most `digits` decimals, no trailing zeros. */
function num(value: number, digits = 3): string {
  return String(Number(value.toFixed(digits)));
}

/** EvalHub's benchmarks without a test, said in the summary: they are left out of the job score. */
function untestedBenchmarks(scorers: readonly ScorerAggregate[], noTest: ReadonlyMap<string, number>): string[] {
  return scorers.flatMap((s) => {
    if (s.jobScoreByCase !== true) {
      const results = noTest.get(s.name) ?? 0;
      if (results === 0) return [];
      const what = results === 1 ? '1 result has' : `${results} results have`;
      return [`${printable(s.name)}: ${what} no test (its primary metric is missing or not a number) and no score`];
    }
    const untested = s.counts.inconclusive + s.counts.error;
    if (untested === 0) return [];
    const what = untested === 1 ? '1 benchmark has' : `${untested} benchmarks have`;
    return [
      `${printable(s.name)}: ${what} no test and ${untested === 1 ? 'is' : 'are'} left out of the job score (reasons above)`,
    ];
  });
}
