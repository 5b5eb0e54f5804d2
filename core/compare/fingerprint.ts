import * as crypto from 'node:crypto';
import type { EvalCase, Json } from '../case';

/**
 * A case's fingerprint: what it asks and what it should give, so a comparison can tell a case whose
 * id stayed but whose question or answer changed (docs/compare.md). The first 16 hex digits of the
 * SHA-256 of the canonical JSON (keys sorted, no spaces) of `{"expected": …, "input": …}`, a field
 * the case lacks left out. Nothing else of the case counts: its recorded output is what a run
 * measures, and its context, trace and metadata do not change what is asked.
 *
 * Baselines kept in git hold these values: the text hashed and the hash must never change.
 */
export function caseFingerprint(c: Pick<EvalCase, 'input' | 'expected'>): string {
  // canonicalJson of the two-field object, written directly ("expected" sorts before "input").
  let text = '{';
  if (c.expected !== undefined) text += `"expected":${canonicalJson(c.expected)}`;
  if (c.input !== undefined) text += `${c.expected === undefined ? '' : ','}"input":${canonicalJson(c.input)}`;
  return sha256Hex(`${text}}`).slice(0, 16);
}

/** Node's one-shot hash (20.12 and later) where there is one: a third of createHash's cost on short texts. */
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

function sha256Hex(text: string): string {
  return oneShotHash !== undefined
    ? oneShotHash('sha256', text, 'hex')
    : crypto.createHash('sha256').update(text).digest('hex');
}

/** JSON with object keys sorted at every depth, so the same value always gives the same text. */
export function canonicalJson(value: Json): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${(value as readonly Json[]).map(canonicalJson).join(',')}]`;
  const record = value as { readonly [key: string]: Json };
  const keys = Object.keys(record).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k] as Json)}`).join(',')}}`;
}
