import { closeSync, createReadStream, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReportSource } from '../../core/report/report';
import type { CaseEndEvent, RunEvent } from '../../core/runner/events';
import { Output, writeChunk } from './output';
import { toDisplay } from '../../shared/text/displayPosition';
import { displayPath } from './paths';
import type { Reporter, ReporterOptions } from './reporter';
import { SkipReasons } from './nothingScored';
import { runVerdict, verdictField } from './verdict';
import { xmlAttr, xmlText } from './xml';
import { FAILED_SHOWN, shownResults, type ShownResult } from './shownResults';

const SHOWN = FAILED_SHOWN;
/** Bytes of test cases gathered before they are written to the temporary file. */
const PENDING_BYTES = 1 << 20;

/**
 * JUnit XML for CI: one `<testsuite>` named after the config file, one `<testcase>` per case. The
 * header needs the counts, so test cases go to a temporary file as cases end and are copied after
 * the header at the end; the temporary folder is removed whatever happens. A run that scored nothing
 * gets one more test case, an error saying why, so CI does not count it as a pass.
 */
export class JunitReporter implements Reporter {
  private numTrials = 1;
  /** The config file as shown (classname of every test case); known from `run/start`. */
  private suite: string | undefined;
  private temp: { readonly dir: string; fd: number | undefined; failure?: Error } | undefined;
  private readonly counts = { tests: 0, failures: 0, errors: 0, skipped: 0 };
  private readonly skipReasons = new SkipReasons();
  /**
   * Test cases not yet handed to the temporary file, as UTF-8: one write per case, or a string
   * gathered and written whole, cost more than the cases' text (a JUnit file of 100,000 cases).
   */
  private pending = Buffer.allocUnsafe(PENDING_BYTES);
  private pendingUsed = 0;
  /** The last case file's path as shown and as an attribute (a dataset's cases share one file). */
  private shownFile: { readonly file: string; readonly shown: string; readonly attribute: string } | undefined;
  /** The suite's name as an attribute. */
  private suiteAttribute: { readonly suite: string; readonly attribute: string } | undefined;

  constructor(private readonly options: ReporterOptions) {}

  onEvent(event: RunEvent): void {
    if (event.type === 'run/start') {
      this.numTrials = event.numTrials;
      this.suite = displayPath(this.options.cwd, event.configFile);
    } else if (event.type === 'case/end') {
      const text = this.testcase(event);
      // Up to 3 bytes a UTF-16 unit: flushed first when it may not fit.
      if (this.pendingUsed + text.length * 3 > PENDING_BYTES) this.flushPending();
      if (text.length * 3 > PENDING_BYTES) this.writeTemp(Buffer.from(text));
      else this.pendingUsed += this.pending.write(text, this.pendingUsed);
    }
    this.skipReasons.onEvent(event);
  }

  private flushPending(): void {
    if (this.pendingUsed === 0) return;
    const used = this.pendingUsed;
    this.pendingUsed = 0;
    this.writeTemp(this.pending.subarray(0, used));
  }

  async finish(report: ReportSource): Promise<void> {
    const { head } = report;
    this.flushPending();
    const temp = this.temp;
    try {
      if (temp !== undefined) {
        this.closeTemp(temp);
        if (temp.failure !== undefined) throw new Error(`cannot write a temporary JUnit file: ${temp.failure.message}`);
      }
      const output = Output.open(this.options);
      try {
        const name = xmlAttr(displayPath(this.options.cwd, head.configFile));
        // A run that scored nothing is not a green build: one error test case says what was missing.
        const verdict = runVerdict(head);
        const nothingScored = verdict === 'NOTHING SCORED' ? this.nothingScoredCase(head, name) : '';
        const { tests, failures, errors, skipped } = this.counts;
        const totals = `tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds(head.durationMs)}"`;
        const properties: [string, string][] = [
          ['evallens.runId', head.runId],
          ['evallens.verdict', verdictField(verdict)],
        ];
        for (const s of head.scorers) {
          if (s.test === undefined) continue;
          properties.push(
            [`scorer.${s.name}.mean_score`, String(s.test.primary_score)],
            [`scorer.${s.name}.threshold`, String(s.test.threshold)],
            [`scorer.${s.name}.pass`, String(s.test.pass)],
          );
          // The mean's 95% interval beside it (issue 16), when the report has one.
          if (typeof s.ci_low === 'number' && typeof s.ci_high === 'number')
            properties.push(
              [`scorer.${s.name}.ci_low`, String(s.ci_low)],
              [`scorer.${s.name}.ci_high`, String(s.ci_high)],
            );
        }
        const job = head.job.test;
        if (job !== undefined)
          properties.push(
            ['job.score', String(job.score)],
            ['job.threshold', String(job.threshold)],
            ['job.pass', String(job.pass)],
          );
        let text = '<?xml version="1.0" encoding="UTF-8"?>\n';
        text += `<testsuites name="evallens" ${totals}>\n`;
        text += `  <testsuite name="${name}" ${totals}>\n`;
        text += '    <properties>\n';
        for (const [key, value] of properties)
          text += `      <property name="${xmlAttr(key)}" value="${xmlAttr(value)}"/>\n`;
        text += '    </properties>\n';
        await writeChunk(output.stream, text);
        if (temp !== undefined) {
          const testcases = createReadStream(join(temp.dir, 'testcases.xml'), { highWaterMark: 1 << 20 });
          for await (const chunk of testcases as AsyncIterable<Buffer>) await writeChunk(output.stream, chunk);
        }
        await writeChunk(output.stream, `${nothingScored}  </testsuite>\n</testsuites>\n`);
      } finally {
        await output.close();
      }
    } finally {
      if (temp !== undefined) {
        this.closeTemp(temp);
        rmSync(temp.dir, { recursive: true, force: true });
      }
      this.temp = undefined;
    }
  }

  /**
   * Appends test cases to the temporary file, synchronously (as the run folder's files are
   * written): what waits to be written stays one buffer, however fast cases come. The first failure
   * is kept, said by finish, and nothing is written after it.
   */
  private writeTemp(bytes: Buffer): void {
    if (this.temp === undefined) {
      const dir = mkdtempSync(join(tmpdir(), 'evallens-junit-'));
      this.temp = { dir, fd: undefined };
      try {
        this.temp.fd = openSync(join(dir, 'testcases.xml'), 'w');
      } catch (e) {
        this.temp.failure = e as Error;
      }
    }
    const temp = this.temp;
    if (temp.fd === undefined || temp.failure !== undefined) return;
    try {
      for (let at = 0; at < bytes.length;) at += writeSync(temp.fd, bytes, at);
    } catch (e) {
      temp.failure = e as Error;
    }
  }

  private closeTemp(temp: { fd: number | undefined; failure?: Error }): void {
    if (temp.fd === undefined) return;
    const fd = temp.fd;
    temp.fd = undefined;
    try {
      closeSync(fd);
    } catch (e) {
      temp.failure ??= e as Error;
    }
  }

  private testcase(event: CaseEndEvent): string {
    this.counts.tests++;
    if (this.shownFile?.file !== event.range.file) {
      const shown = displayPath(this.options.cwd, event.range.file);
      this.shownFile = { file: event.range.file, shown, attribute: xmlAttr(shown) };
    }
    const file = this.shownFile.shown;
    const { line, column } = toDisplay(event.range.start);
    const suite = this.suite ?? file;
    if (this.suiteAttribute?.suite !== suite) this.suiteAttribute = { suite, attribute: xmlAttr(suite) };
    const open = `    <testcase classname="${this.suiteAttribute.attribute}" name="${xmlAttr(event.caseId)}" time="${seconds(event.durationMs)}" file="${this.shownFile.attribute}" line="${line}"`;
    // Against a baseline (run --baseline), a case that moved says so in a property CI tools show.
    const transition = this.options.transitionOf?.(event.caseId, event.status);
    const properties =
      transition === undefined
        ? ''
        : `      <properties>\n        <property name="evallens.transition" value="${transition}"/>\n      </properties>\n`;
    if (event.status === 'passed')
      return properties === '' ? `${open}/>\n` : `${open}>\n${properties}    </testcase>\n`;
    if (event.status === 'skipped') {
      this.counts.skipped++;
      return `${open}>\n${properties}      <skipped/>\n    </testcase>\n`;
    }
    const element = event.status === 'failed' ? 'failure' : 'error';
    if (element === 'failure') this.counts.failures++;
    else this.counts.errors++;
    const lines = shownResults(event, SHOWN).map((r) => this.reason(r));
    const first = lines[0] ?? (element === 'failure' ? 'case failed' : 'case errored');
    const message = transition === 'regressed' ? `regressed: passed in the baseline; ${first}` : first;
    const body = [...lines, `at ${file}:${line}:${column}`].join('\n');
    return `${open}>\n${properties}      <${element} message="${xmlAttr(message)}" type="${element === 'failure' ? 'fail' : 'error'}">${xmlText(body)}</${element}>\n    </testcase>\n`;
  }

  private nothingScoredCase(head: ReportSource['head'], suite: string): string {
    this.counts.tests++;
    this.counts.errors++;
    const lines = this.skipReasons.explain(head);
    const message = lines[0] ?? 'Nothing was scored.';
    return `    <testcase classname="${suite}" name="(run) nothing scored" time="0.000">\n      <error message="${xmlAttr(message)}" type="nothing-scored">${xmlText(lines.join('\n'))}</error>\n    </testcase>\n`;
  }

  private reason(r: ShownResult): string {
    const trial = this.numTrials > 1 ? ` [trial ${r.trial}]` : '';
    return `${r.scorer}${trial}: ${r.reason}`;
  }
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}
