/**
 * Test Explorer messages for the cases a run regressed. A run's comparison with its baseline comes
 * with its report, after every case has ended and got its state and messages; so the mapper's sink is
 * wrapped to remember what each failing case was told, and a regressed case is told again, its first
 * message led by "▼ regressed: passed in the baseline, …" (its diff kept). VS Code keeps a case's
 * earlier messages in the same run, so the regressed case's peek shows both. Pure, vscode-free.
 */
import type { CaseMessage, TestRunSink } from '../testing/runEventMapper';
import { regressedMessageText } from './runComparison';

/** Failing cases whose messages are kept for the end of a run; past it only the state is (memory stays bounded). */
export const MAX_REMEMBERED_CASES = 5000;

interface Failure {
  readonly status: 'failed' | 'errored';
  readonly durationMs: number;
  readonly first?: CaseMessage;
}

export interface RegressedNotice {
  readonly status: 'failed' | 'errored';
  readonly durationMs: number;
  readonly messages: readonly CaseMessage[];
}

export class FailureMemory {
  private readonly failures = new Map<string, Failure>();
  private withMessages = 0;

  /** `sink`, remembering each failing or erroring case's first message on its way through. */
  wrap(sink: TestRunSink): TestRunSink {
    const remember = (status: Failure['status'], caseId: string, messages: readonly CaseMessage[], ms: number) => {
      const first = this.withMessages < MAX_REMEMBERED_CASES ? messages[0] : undefined;
      if (first !== undefined) this.withMessages++;
      this.failures.set(caseId, { status, durationMs: ms, ...(first === undefined ? {} : { first }) });
    };
    return {
      started: (caseId, range) => sink.started(caseId, range),
      passed: (caseId, ms) => {
        this.failures.delete(caseId);
        sink.passed(caseId, ms);
      },
      failed: (caseId, messages, ms) => {
        remember('failed', caseId, messages, ms);
        sink.failed(caseId, messages, ms);
      },
      errored: (caseId, messages, ms) => {
        remember('errored', caseId, messages, ms);
        sink.errored(caseId, messages, ms);
      },
      skipped: (caseId) => sink.skipped(caseId),
      output: (text, caseId, location) => sink.output(text, caseId, location),
    };
  }

  /**
   * What to tell a regressed case again: its state and one message whose first line says it passed
   * in the baseline, followed by its first failure's text and diff. Undefined for a case this run did
   * not fail (skipped cases regress too, but a skipped state carries no message).
   */
  regressed(caseId: string): RegressedNotice | undefined {
    const failure = this.failures.get(caseId);
    if (failure === undefined) return undefined;
    const first = failure.first;
    const message: CaseMessage = {
      text: regressedMessageText(first?.text),
      ...(first?.expected === undefined || first.actual === undefined
        ? {}
        : { expected: first.expected, actual: first.actual }),
      ...(first?.location === undefined ? {} : { location: first.location }),
    };
    return { status: failure.status, durationMs: failure.durationMs, messages: [message] };
  }
}
