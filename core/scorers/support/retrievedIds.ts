import type { Trace } from '../../trace/trace';

/** The document ids a trace records as retrieved, and how they were gathered. */
export interface RetrievedIds {
  /** Every retrieval step's ids, step after step, each id kept at its first appearance. */
  readonly ids: readonly string[];
  /** How many retrieval steps the trace records. */
  readonly steps: number;
  /** How many ids the steps list in all, duplicates included. */
  readonly listed: number;
}

/**
 * The retrieved document ids of a trace: the ids of its retrieval steps concatenated in step order,
 * duplicates removed keeping the first (so a document's rank is where it was first retrieved).
 * `steps` is 0 when the trace records no retrieval at all, which differs from retrievals that
 * returned nothing.
 */
export function retrievedIds(trace: Trace): RetrievedIds {
  const seen = new Set<string>();
  const ids: string[] = [];
  let steps = 0;
  let listed = 0;
  for (const step of trace.steps) {
    if (step.kind !== 'retrieval') continue;
    steps++;
    for (const id of step.documentIds) {
      listed++;
      if (seen.has(id)) continue;
      seen.add(id);
      ids.push(id);
    }
  }
  return { ids, steps, listed };
}
