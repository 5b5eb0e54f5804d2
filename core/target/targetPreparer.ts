import { performance } from 'node:perf_hooks';
import type { EvalCase, Json } from '../case';
import type { CasePreparer } from '../runner/casePreparer';
import { traceOf } from '../trace/traceOf';
import { readAnswer } from './answer';
import { limitedCall } from './callLimit';
import { runCommandTarget } from './cmdTarget';
import { callHttpTarget } from './httpTarget';
import type { TargetConfig } from './targetConfig';
import { casePayload } from './template';

export interface TargetOptions {
  /** The environment the command runs with and `{{env.NAME}}` headers read, read once by the host. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The run's own signal: when the run is cancelled, calls in flight are stopped. */
  readonly signal?: AbortSignal;
}

/**
 * The preparer that gets a case's output from the target. A case with a recorded `output` (not null)
 * is left as it is unless `replace_recorded`; otherwise the target is called, and its output, any
 * trace it gives (`trace_path`) and its wall time join the case. The wall time becomes the trace's
 * `latency_ms` when the trace has none: a missing trace becomes `{latency_ms}`, an object trace
 * that reads gains the field, and a trace recorded as a list, or one that says its own latency, is
 * left alone. A failed call is thrown; the runner makes it the case's `error` results.
 *
 * `reaches` makes a run without trust skip a case that would call the target, without calling it;
 * cases with recorded outputs are still scored.
 */
export function targetPreparer(config: TargetConfig, options: TargetOptions): CasePreparer {
  const closing = new AbortController();
  const call = (evalCase: EvalCase, signal: AbortSignal): Promise<string> =>
    config.kind === 'cmd'
      ? runCommandTarget(config.cmd, {
          cwd: config.cwd,
          stdin: `${JSON.stringify(casePayload(evalCase))}\n`,
          env: options.env,
          signal,
        })
      : callHttpTarget(config, evalCase, { env: options.env, signal });
  return {
    reaches: config.kind === 'cmd' ? 'workspace-code' : 'network',
    reachesFor: (evalCase) => config.replaceRecorded || !hasRecordedOutput(evalCase),
    async prepare(evalCase, signal) {
      if (hasRecordedOutput(evalCase) && !config.replaceRecorded) return evalCase;
      const started = performance.now();
      const text = await limitedCall(config.timeoutMs, [signal, options.signal, closing.signal], (stop) =>
        call(evalCase, stop),
      );
      const latencyMs = Math.round((performance.now() - started) * 1000) / 1000;
      const answer = readAnswer(text, config);
      const trace = withLatency(answer.trace ?? evalCase.trace, latencyMs);
      return { ...evalCase, output: answer.output, ...(trace === undefined ? {} : { trace }) };
    },
    close() {
      closing.abort();
      return Promise.resolve();
    },
  };
}

function hasRecordedOutput(evalCase: EvalCase): boolean {
  return evalCase.output !== undefined && evalCase.output !== null;
}

/** The trace with the target's wall time as its `latency_ms`, where it can hold it and has none. */
function withLatency(trace: Json | undefined, latencyMs: number): Json | undefined {
  if (trace === undefined || trace === null) return { latency_ms: latencyMs };
  if (typeof trace !== 'object' || Array.isArray(trace)) return trace;
  const object = trace as { readonly [key: string]: Json };
  if (object['latency_ms'] !== undefined) return trace;
  // Only a trace that reads gains the field: it would turn an object of unknown shape into a trace.
  if (!traceOf({ id: '', trace }).ok) return trace;
  return { ...object, latency_ms: latencyMs };
}
