import type { EvalCase } from '../case';
import type { Trace } from './trace';

/** A case's trace in the engine's model, or why it has none a scorer could use. */
export type TraceLookup = { readonly ok: true; readonly trace: Trace } | { readonly ok: false; readonly reason: string };

const cache = new WeakMap<EvalCase, TraceLookup>();

/**
 * The case's trace, normalized from whatever format it was recorded in. Computed once per case
 * object (every trace scorer of the case shares it).
 */
export function traceOf(evalCase: EvalCase): TraceLookup {
  let found = cache.get(evalCase);
  if (found === undefined) {
    found = normalize(evalCase);
    cache.set(evalCase, found);
  }
  return found;
}

// Placeholder until the importers land: native `trace.steps` only.
function normalize(evalCase: EvalCase): TraceLookup {
  const raw = evalCase.trace;
  if (raw === undefined || raw === null) return { ok: false, reason: 'the case has no trace' };
  return { ok: false, reason: 'trace formats are not read yet' };
}
