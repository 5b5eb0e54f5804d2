import type { Json } from '../../case';

/**
 * RFC 8785 (JSON Canonicalization Scheme) text of a value: object keys sorted by UTF-16 code units,
 * no white space, numbers in ECMAScript shortest form (so `1.0` and `1` are the same), strings as
 * JSON.stringify escapes them. JavaScript's JSON.stringify already follows the RFC for numbers and
 * strings; only key order needs doing here.
 */
export function canonicalJson(value: Json): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${(value as readonly Json[]).map(canonicalJson).join(',')}]`;
  const record = value as { readonly [key: string]: Json };
  const keys = Object.keys(record).sort(compareCodeUnits);
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k] ?? null)}`).join(',')}}`;
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
