import { createHash } from 'node:crypto';
import type { EvalCase, Json } from '../case';
import { canonicalJson } from '../scorers/support/canonicalJson';
import type { ScoringInput } from '../scorers/scorer';

/**
 * The cache key of one evaluation: SHA-256 of the canonical JSON of everything that decides its
 * result — the scorer's fingerprint (its key, version and resolved options with the files they name
 * by content: scorerFingerprint.ts), the case's fields the scorer reads, and the trial number, so
 * that trials stay independent (trial 2 never gets trial 1's verdict). Nothing else: the case id,
 * the run, the time and the machine do not change a verdict and are not in the key.
 */
export function evaluationKey(scorerFingerprint: string, fields: Json, trial: number): string {
  return sha256(canonicalJson({ scorer: scorerFingerprint, case: fields, trial }));
}

/** Hex SHA-256 of a text. */
export function sha256(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The case fields each scorer reads, where it reads only some (EvalCore's subprocess protocol sends
 * input, context, output and expected); any other scorer is keyed by every field of the case but its
 * id and its recorded trials (the trial's own output and trace are already in the case it sees).
 */
const FIELDS_READ: Readonly<Record<string, readonly (keyof EvalCase)[]>> = {
  subprocess: ['input', 'context'],
};

/** What of a case decides a scorer's verdict: the fields it reads, and the output and expected it was given (after `output_path`/`expected_path`). */
export function caseFields(scorerKey: string, input: ScoringInput): Json {
  const fields: { [key: string]: Json } = {};
  const read = FIELDS_READ[scorerKey];
  const source = input.case as unknown as { readonly [key: string]: Json | undefined };
  for (const name of read ?? Object.keys(source)) {
    if (read === undefined && (name === 'id' || name === 'trials')) continue;
    const value = source[name];
    if (value !== undefined) fields[name] = value;
  }
  // The selected values, under names no case field has: a scorer scores these, not the raw fields.
  if (input.output !== undefined) fields[' output'] = input.output;
  if (input.expected !== undefined) fields[' expected'] = input.expected;
  return fields;
}
