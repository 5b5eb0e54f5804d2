/**
 * `evallens report <report.json> --details-of=<case id>` prints the `details` of one case's results as
 * one JSON line (this shape): the results view gets a report's results without them (`report
 * --stream`, `detailsApart`) and asks for the case a person opens. The extension reads it with
 * `parseDetailsLookup`.
 */
import type { Json } from '../core/case';
import { fieldsOf, parsedFields } from './jsonFields';

/** One result of the case (by scorer and trial, as the view keys it) and its details, when it has any. */
export interface ResultDetails {
  readonly scorer: string;
  readonly trial: number;
  readonly details?: { readonly [key: string]: Json };
}

export type DetailsLookup =
  | { readonly ok: true; readonly runId: string; readonly results: readonly ResultDetails[] }
  | { readonly ok: false; readonly reason: string };

/** Whether a value is one result's entry (the view shows the details as text, never as HTML). */
export function isResultDetails(value: unknown): value is ResultDetails {
  const r = fieldsOf(value);
  return (
    r !== undefined &&
    typeof r['scorer'] === 'string' &&
    typeof r['trial'] === 'number' &&
    (r['details'] === undefined || fieldsOf(r['details']) !== undefined)
  );
}

/**
 * A report's result, as read from the file, as its details entry when it is one of `caseId`'s results;
 * undefined otherwise (another case's, or not a result).
 */
export function resultDetailsOf(value: unknown, caseId: string): ResultDetails | undefined {
  const r = fieldsOf(value);
  if (r === undefined) return undefined;
  const { caseId: id, scorer, trial, details } = r;
  if (id !== caseId || typeof scorer !== 'string' || typeof trial !== 'number') return undefined;
  const fields = fieldsOf(details);
  return { scorer, trial, ...(fields === undefined ? {} : { details: fields as { readonly [key: string]: Json } }) };
}

/** Reads the printed lookup; undefined when the text is not one (an older CLI, a crash). */
export function parseDetailsLookup(text: string): DetailsLookup | undefined {
  const v = parsedFields(text);
  if (v === undefined) return undefined;
  if (v['ok'] === false) return typeof v['reason'] === 'string' ? { ok: false, reason: v['reason'] } : undefined;
  const results = v['results'];
  if (v['ok'] !== true || typeof v['runId'] !== 'string' || !Array.isArray(results) || !results.every(isResultDetails))
    return undefined;
  return { ok: true, runId: v['runId'], results };
}
