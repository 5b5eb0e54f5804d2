import type { DatasetRecord, EvalCase, Json } from '../case';
import type { SourceRange } from '../text/position';
import type { CaseIdTracker } from './caseIdTracker';
import { caseSchemaViolations } from './caseValidator';
import { describeKind, type Vocabulary } from './valueKinds';
import { isObject } from '../../shared/isObject';
import { displayLine } from '../../shared/text/displayPosition';

/** Where a raw case value was found, and how messages should refer to it. */
export interface CaseLocation {
  readonly range: SourceRange;
  /** 0-based position of the record among the dataset's records. */
  readonly index: number;
  /** The id used when the case has none (`positionalId('line', n)` / `positionalId('case', n)`). */
  readonly positionalId: string;
  /** How messages name the record ("this line", "this element"); "this case" when absent. */
  readonly subject?: string;
  /** Words for kinds of values: JSON's ("an object", "an array") or YAML's ("a mapping", "a list"). */
  readonly vocabulary?: Vocabulary;
}

const CASE_FIELDS = new Set(['input', 'output', 'expected', 'context', 'trace', 'metadata', 'trials'] as const);
type CaseField = typeof CASE_FIELDS extends Set<infer F> ? F : never;
type MutableCase = { -readonly [K in keyof EvalCase]: EvalCase[K] };

/**
 * Turns one parsed value (a JSON line, an array element, a YAML item, a CSV row, an inline case) into a
 * case or an error record: it must be an object that matches `schemas/case.schema.json`, and its id
 * (its `id`, a number in its string form, else `at.positionalId`) must not be taken by an earlier
 * record of `ids`. Fields other than the case fields go into `metadata` (whose own keys win).
 */
export function caseFromValue(value: unknown, at: CaseLocation, ids: CaseIdTracker): DatasetRecord {
  const vocabulary = at.vocabulary ?? 'json';
  if (!isObject(value)) {
    const expected = vocabulary === 'yaml' ? 'a mapping of fields' : 'a JSON object';
    return readError(
      ids,
      at,
      `a case must be ${expected}, ${at.subject ?? 'this case'} is ${describeKind(value, vocabulary)}`,
    );
  }
  const rawId = value['id'];
  const ownId = typeof rawId === 'string' || typeof rawId === 'number' ? String(rawId) : undefined;
  const violations = caseSchemaViolations(value, vocabulary);
  if (violations.length > 0) return readError(ids, at, violations.join('; '), ownId);
  if (ownId !== undefined && ownId.trim() === '') return readError(ids, at, 'field "id" must not be empty');
  const id = ownId ?? at.positionalId;
  const first = ids.claimWithProof(id, at.range.start.line);
  if (first !== undefined) {
    // An id too far back to be kept whole is compared by its 64-bit hash (caseIdTracker.ts); the message says so.
    const how = first.byHash ? ' (compared by a 64-bit hash of the id: ids that far back are not kept whole)' : '';
    return readError(ids, at, `duplicate case id "${id}"; first defined at line ${displayLine(first.line)}${how}`);
  }
  return { ok: true, value: { case: toEvalCase(id, value), index: at.index, range: at.range } };
}

/**
 * An error record at `at`, with `preferredId` when it is free, else the positional id (made unique).
 * The message says what was expected and seen, never the values themselves.
 */
export function readError(ids: CaseIdTracker, at: CaseLocation, message: string, preferredId?: string): DatasetRecord {
  const id = ids.claimForError(preferredId, at.positionalId, at.range.start.line);
  return { ok: false, error: { id, index: at.index, range: at.range, message } };
}

function isCaseField(key: string): key is CaseField {
  return (CASE_FIELDS as Set<string>).has(key);
}

/** Values come from JSON, YAML or CSV parsers, so they are JSON values. */
function toEvalCase(id: string, value: { readonly [key: string]: unknown }): EvalCase {
  const result: MutableCase = { id };
  const extras: [string, Json][] = [];
  for (const [key, field] of Object.entries(value)) {
    if (key === 'id' || field === undefined) continue;
    if (isCaseField(key)) result[key] = field as Json;
    else extras.push([key, field as Json]);
  }
  if (extras.length > 0) {
    const own = isObject(result.metadata) ? result.metadata : {};
    result.metadata = { ...Object.fromEntries(extras), ...own };
  }
  return result;
}
