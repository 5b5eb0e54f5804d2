import { createHash } from 'node:crypto';
import type { EvalCase, Json } from '../case';

/**
 * A case's fingerprint: what it asks and what it should give, so a comparison can tell a case whose
 * id stayed but whose question or answer changed (docs/compare.md). The first 16 hex digits of the
 * SHA-256 of the canonical JSON (keys sorted, no spaces) of `{"expected": …, "input": …}`, a field
 * the case lacks left out. Nothing else of the case counts: its recorded output is what a run
 * measures, and its context, trace and metadata do not change what is asked.
 */
export function caseFingerprint(c: Pick<EvalCase, 'input' | 'expected'>): string {
  const fields: Record<string, Json> = {};
  if (c.expected !== undefined) fields['expected'] = c.expected;
  if (c.input !== undefined) fields['input'] = c.input;
  return createHash('sha256').update(canonicalJson(fields)).digest('hex').slice(0, 16);
}

/** JSON with object keys sorted at every depth, so the same value always gives the same text. */
export function canonicalJson(value: Json): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${(value as readonly Json[]).map(canonicalJson).join(',')}]`;
  const record = value as { readonly [key: string]: Json };
  const keys = Object.keys(record).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k] as Json)}`).join(',')}}`;
}
