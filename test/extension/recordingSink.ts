/**
 * A test double for the Test Explorer: a TestRunSink that records what a run reported, in order.
 * It stands in for VS Code's TestRun, which cannot run here; everything else in these tests is real.
 */
import type { SourceRange } from '../../core/text/position';
import type { CaseMessage, MessageLocation, TestRunSink } from '../../extension/testing/runEventMapper';

export type SinkCall =
  | { readonly kind: 'started'; readonly caseId: string; readonly range: SourceRange }
  | { readonly kind: 'passed'; readonly caseId: string; readonly durationMs: number }
  | {
      readonly kind: 'failed' | 'errored';
      readonly caseId: string;
      readonly messages: readonly CaseMessage[];
      readonly durationMs: number;
    }
  | { readonly kind: 'skipped'; readonly caseId: string }
  | { readonly kind: 'output'; readonly text: string; readonly caseId?: string; readonly location?: MessageLocation };

export class RecordingSink implements TestRunSink {
  readonly calls: SinkCall[] = [];

  started(caseId: string, range: SourceRange): void {
    this.calls.push({ kind: 'started', caseId, range });
  }
  passed(caseId: string, durationMs: number): void {
    this.calls.push({ kind: 'passed', caseId, durationMs });
  }
  failed(caseId: string, messages: readonly CaseMessage[], durationMs: number): void {
    this.calls.push({ kind: 'failed', caseId, messages, durationMs });
  }
  errored(caseId: string, messages: readonly CaseMessage[], durationMs: number): void {
    this.calls.push({ kind: 'errored', caseId, messages, durationMs });
  }
  skipped(caseId: string): void {
    this.calls.push({ kind: 'skipped', caseId });
  }
  output(text: string, caseId?: string, location?: MessageLocation): void {
    this.calls.push({
      kind: 'output',
      text,
      ...(caseId === undefined ? {} : { caseId }),
      ...(location === undefined ? {} : { location }),
    });
  }

  /** The final state of each case (started excluded), by case id. */
  states(): Map<string, SinkCall> {
    const states = new Map<string, SinkCall>();
    for (const call of this.calls) if (call.kind !== 'started' && call.kind !== 'output') states.set(call.caseId, call);
    return states;
  }

  outputOf(caseId: string): string {
    return this.calls.flatMap((c) => (c.kind === 'output' && c.caseId === caseId ? [c.text] : [])).join('');
  }
}
