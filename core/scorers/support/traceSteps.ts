import type { EvalCase } from '../../case';
import { unsupported, type ScorerVerdict } from '../../result';
import type { ToolCallStep, Trace } from '../../trace/trace';
import { traceOf } from '../../trace/traceOf';

/** The case's trace, or the `unsupported` verdict every trace scorer gives when it has none it can read. */
export function readTrace(
  evalCase: EvalCase,
): { readonly ok: true; readonly trace: Trace } | { readonly ok: false; readonly verdict: ScorerVerdict } {
  const found = traceOf(evalCase);
  if (found.ok) return found;
  return { ok: false, verdict: unsupported(`${found.reason}; this scorer reads the trace`) };
}

/**
 * The case's trace when it records steps: a recording with only figures (turns, latency, citations)
 * cannot show what the agent did, so a scorer that reads steps finds it `unsupported`.
 */
export function readSteps(
  evalCase: EvalCase,
): { readonly ok: true; readonly trace: Trace } | { readonly ok: false; readonly verdict: ScorerVerdict } {
  const read = readTrace(evalCase);
  if (read.ok && read.trace.hasSteps === false) return { ok: false, verdict: unsupported(NO_STEPS) };
  return read;
}

/** Why a recording with figures but no steps cannot be read for steps. */
export const NO_STEPS =
  'the trace records no steps (only figures such as turns, latency or citations); this scorer reads the steps';

/** Why a trace without retrieval steps cannot be scored on retrieved ids. */
export function noRetrieval(trace: Trace): string {
  return trace.hasSteps === false
    ? 'the trace records no steps (only figures), so no retrieval; there are no retrieved document ids to score'
    : 'the trace records no retrieval step, so there are no retrieved document ids to score';
}

/** A tool call with where it sits: `number` is its 1-based place among all calls, `step` among all steps. */
export interface PlacedCall {
  readonly call: ToolCallStep;
  readonly number: number;
  readonly step: number;
}

/**
 * The trace's tool calls in start order. Steps are kept in recorded order unless every call has a
 * start time, in which case they are sorted by it (stably, so calls that start together keep their
 * recorded order).
 */
export function callsInStartOrder(trace: Trace): readonly PlacedCall[] {
  // Several scorers of a case ask for the same trace's calls: computed once per trace.
  let placed = orderedCalls.get(trace);
  if (placed === undefined) {
    placed = placeCalls(trace);
    orderedCalls.set(trace, placed);
  }
  return placed;
}

const orderedCalls = new WeakMap<Trace, readonly PlacedCall[]>();

function placeCalls(trace: Trace): PlacedCall[] {
  const calls: { call: ToolCallStep; step: number }[] = [];
  trace.steps.forEach((step, index) => {
    if (step.kind === 'tool_call') calls.push({ call: step, step: index + 1 });
  });
  if (calls.length > 1 && calls.every((c) => typeof c.call.startMs === 'number') && !inStartOrder(calls)) {
    calls.sort((x, y) => (x.call.startMs ?? 0) - (y.call.startMs ?? 0));
  }
  return calls.map((c, i) => ({ ...c, number: i + 1 }));
}

function inStartOrder(calls: readonly { call: ToolCallStep }[]): boolean {
  for (let i = 1; i < calls.length; i++)
    if ((calls[i - 1]?.call.startMs ?? 0) > (calls[i]?.call.startMs ?? 0)) return false;
  return true;
}

/** "1 call", "3 calls". */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

/** Four decimals, or every digit when four would round onto the threshold and hide the decision. */
export function formatRatio(value: number, threshold?: number): string {
  const short = Number(value.toFixed(4));
  return threshold !== undefined && short === threshold && value !== threshold ? String(value) : String(short);
}
