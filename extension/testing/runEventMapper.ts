/**
 * Turns one CLI run's event stream into Test Explorer states and messages. Pure: it talks to a
 * `TestRunSink` (the vscode glue implements it with a `TestRun`; unit tests with a recording fake),
 * so the rules below are tested without VS Code.
 *
 * - A case's state is the engine's case status: passed, failed, errored (error or timeout) or skipped.
 * - Each failing (or erroring) scorer result becomes one message with its reason, at the case's line;
 *   a result whose details carry both `expected` and `actual` becomes a diff message.
 * - Every result, including skipped ones (e.g. "workspace is not trusted"), is written to the run's
 *   output under its case, so nothing the engine said is lost.
 */
import type { ScorerResult } from '../../core/result';
import type { CaseEndEvent, RunEvent, RunSummary, ScorerInfo } from '../../protocol/runEvents';
import type { SourceRange } from '../../core/text/position';
import { formatScore, resultMark } from './resultText';

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
    for (const result of event.results) this.sink.output(`${this.resultLine(result)}\n`, event.caseId, location);
    switch (event.status) {
      case 'passed':
        this.sink.passed(event.caseId, event.durationMs);
        return;
      case 'skipped':
        this.sink.skipped(event.caseId);
        return;
      case 'failed':
        this.sink.failed(event.caseId, this.messages(event.results.filter((r) => r.status === 'fail'), location), event.durationMs);
        return;
      case 'errored': {
        const bad = event.results.filter((r) => r.status === 'error' || r.status === 'timeout' || r.status === 'fail');
        this.sink.errored(event.caseId, this.messages(bad, location), event.durationMs);
        return;
      }
    }
  }

  private messages(results: readonly ScorerResult[], location: MessageLocation): CaseMessage[] {
    return results.map((result) => {
      const text = this.messageText(result);
      const diff = expectedAndActual(result);
      return diff === undefined ? { text, location } : { text, ...diff, location };
    });
  }

  private messageText(result: ScorerResult): string {
    const scorer = this.scorers.get(result.scorer);
    const score = result.score === undefined ? '' : ` (score ${formatScore(result.score)}${scorer?.threshold === undefined ? '' : `, threshold ${formatScore(scorer.threshold)}`})`;
    const status = result.status === 'fail' ? '' : ` [${result.status}]`;
    return `${result.scorer}${this.trialSuffix(result)}${status}${score}: ${result.reason}`;
  }

  private resultLine(result: ScorerResult): string {
    const score = result.score === undefined ? '' : ` ${formatScore(result.score)}`;
    return `${resultMark(result.status)} ${result.caseId} · ${result.scorer}${this.trialSuffix(result)} ${result.status}${score}: ${result.reason}`;
  }

  private trialSuffix(result: ScorerResult): string {
    return this.numTrials > 1 ? ` (trial ${result.trial})` : '';
  }
}

export function locationOf(range: SourceRange): MessageLocation {
  return { file: range.file, line: range.start.line, column: range.start.column };
}

/**
 * The two sides of a comparison, when the scorer put both in its details (exact_match and the like
 * do: `expected` and `actual`). Strings stay as they are; other JSON is shown indented.
 */
export function expectedAndActual(result: ScorerResult): { expected: string; actual: string } | undefined {
  const details = result.details;
  if (details === undefined || !('expected' in details) || !('actual' in details)) return undefined;
  const expected = details['expected'];
  const actual = details['actual'];
  if (expected === undefined || actual === undefined) return undefined;
  return { expected: asText(expected), actual: asText(actual) };
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}
