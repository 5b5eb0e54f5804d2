/**
 * Turns one CLI run's event stream into Test Explorer states and messages. Pure: it talks to a
 * `TestRunSink` (the vscode glue implements it with a `TestRun`; unit tests with a recording fake),
 * so the rules below are tested without VS Code.
 *
 * - A case's state is the engine's case status: passed, failed, errored (error or timeout) or skipped.
 * - Each failing (or erroring) scorer becomes one message at the case's line, its trials summarized
 *   in it (caseResultText.ts); a diff message when its scorer compared two like things.
 * - The run's output gets one line per passing or skipped case (a skipped case with its reason, e.g.
 *   "workspace is not trusted"), and under a failing case only its failing scorers with their
 *   reasons; the rest is in the results view and the report.
 */
import type { ScorerResult } from '../../core/result';
import type { CaseEndEvent, RunEvent, RunSummary, ScorerInfo } from '../../protocol/runEvents';
import type { SourceRange } from '../../core/text/position';
import { diffSides } from '../../shared/text/diffSides';
import { caseOutputLines, verdictMessage, verdictsOf } from './caseResultText';

/** 0-based, as core gives it; the glue turns it into a vscode Location. */
export interface MessageLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

export interface CaseMessage {
  readonly text: string;
  /** Both set, or neither: VS Code then opens its diff view. */
  readonly expected?: string;
  readonly actual?: string;
  readonly location?: MessageLocation;
}

export interface TestRunSink {
  started(caseId: string, range: SourceRange): void;
  passed(caseId: string, durationMs: number): void;
  failed(caseId: string, messages: readonly CaseMessage[], durationMs: number): void;
  errored(caseId: string, messages: readonly CaseMessage[], durationMs: number): void;
  skipped(caseId: string): void;
  /** Lines for the run's output, under the case when one is given. `\n` ends each line. */
  output(text: string, caseId?: string, location?: MessageLocation): void;
}

export interface MappedRun {
  readonly runId?: string;
  readonly summary?: RunSummary;
  readonly cancelled: boolean;
  /** Cases that started and never ended (the run was stopped): the glue marks them skipped. */
  readonly unfinished: readonly string[];
}

export class RunEventMapper {
  private runId: string | undefined;
  private summary: RunSummary | undefined;
  private cancelled = false;
  private numTrials = 1;
  private readonly scorers = new Map<string, ScorerInfo>();
  private readonly running = new Set<string>();

  constructor(private readonly sink: TestRunSink) {}

  handle(event: RunEvent): void {
    switch (event.type) {
      case 'run/start':
        this.runId = event.runId;
        this.numTrials = event.numTrials;
        for (const scorer of event.scorers) this.scorers.set(scorer.name, scorer);
        return;
      case 'case/start':
        this.running.add(event.caseId);
        this.sink.started(event.caseId, event.range);
        return;
      case 'result':
        return;
      case 'case/end':
        this.running.delete(event.caseId);
        this.endCase(event);
        return;
      case 'run/end':
        this.summary = event.summary;
        this.cancelled = event.cancelled;
        return;
    }
  }

  /** What the stream said about the run as a whole; call when the child has exited. */
  finish(): MappedRun {
    return {
      ...(this.runId === undefined ? {} : { runId: this.runId }),
      ...(this.summary === undefined ? {} : { summary: this.summary }),
      cancelled: this.cancelled,
      unfinished: [...this.running],
    };
  }

  private endCase(event: CaseEndEvent): void {
    const location = locationOf(event.range);
    const lines = caseOutputLines({
      caseId: event.caseId,
      status: event.status,
      results: event.results,
      numTrials: this.numTrials,
      ...(event.trials === undefined ? {} : { trialsPassed: event.trials.passed }),
      thresholdOf: (scorer) => this.scorers.get(scorer)?.threshold,
    });
    this.sink.output(`${lines.join('\n')}\n`, event.caseId, location);
    switch (event.status) {
      case 'passed':
        this.sink.passed(event.caseId, event.durationMs);
        return;
      case 'skipped':
        this.sink.skipped(event.caseId);
        return;
      case 'failed':
        this.sink.failed(event.caseId, this.messages(event.results, location), event.durationMs);
        return;
      case 'errored':
        this.sink.errored(event.caseId, this.messages(event.results, location), event.durationMs);
        return;
    }
  }

  /**
   * One message per failing scorer, its trials folded into it; results across trials come after the
   * per-trial ones, so the peek opens on what a trial did. A message is a diff when the scorer's
   * kind compares two like things (shared/text/diffSides.ts), from its first failing trial.
   */
  private messages(results: readonly ScorerResult[], location: MessageLocation): CaseMessage[] {
    return verdictsOf(results)
      .filter((verdict) => verdict.bad.length > 0)
      .map((verdict) => {
        const scorer = this.scorers.get(verdict.scorer);
        const text = verdictMessage(verdict, this.numTrials, scorer?.threshold);
        const diff = verdict.bad.map((r) => diffSides(scorer?.key, r.details)).find((d) => d !== undefined);
        return diff === undefined
          ? { text, location }
          : { text, expected: diff.expected, actual: diff.actual, location };
      });
  }
}

export function locationOf(range: SourceRange): MessageLocation {
  return { file: range.file, line: range.start.line, column: range.start.column };
}
