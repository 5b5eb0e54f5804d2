import type { Json } from '../case';

/** A metric value read as EvalHub reads it: a JSON number, or why it is not one. */
export type MetricValue = { readonly ok: true; readonly value: number } | { readonly ok: false; readonly seen: string };

/**
 * EvalHub casts a primary metric by type, never by parsing text (seed 003, "What counts as numeric"):
 * only a JSON number is a score. A numeric-looking string ("0.78"), a boolean, null, a list, a map or
 * an absent metric is not, and says what it was so the result's reason can name it.
 */
export function numericMetric(value: Json | undefined): MetricValue {
  if (typeof value === 'number' && Number.isFinite(value)) return { ok: true, value };
  return { ok: false, seen: describeMetric(value) };
}

function describeMetric(value: Json | undefined): string {
  if (value === undefined) return 'not reported';
  if (value === null) return 'null';
  if (typeof value === 'number') return `${String(value)}, not a finite number`;
  if (typeof value === 'string')
    return Number.isFinite(Number(value)) && value.trim() !== ''
      ? 'a numeric-looking string (EvalHub accepts JSON numbers only: report 0.78, not "0.78")'
      : 'a string';
  if (typeof value === 'boolean') return `a boolean (${String(value)})`;
  return Array.isArray(value) ? 'a list' : 'a map';
}
