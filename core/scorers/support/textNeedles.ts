import type { Json } from '../../case';
import { error, type ScorerVerdict } from '../../result';
import { codePointLength, kindOf } from './describe';

/**
 * The texts `contains` / `not_contains` look for, and where they are found. Needles come from the
 * options (`values` or `value`, already checked by the schema) or else from the case's expected
 * value, which is checked here because a dataset can hold anything.
 */
export interface NeedleOptions {
  readonly values?: readonly string[];
  readonly value?: string;
}

export type Needles =
  | { readonly ok: true; readonly needles: readonly string[]; readonly from: 'options' | 'expected' }
  | { readonly ok: false; readonly verdict: ScorerVerdict };

/** The needles to look for: the options' `values` / `value`, else the expected value (a string or a list of strings). */
export function resolveNeedles(options: NeedleOptions, expected: Json | undefined): Needles {
  if (options.values !== undefined) return { ok: true, needles: options.values, from: 'options' };
  if (options.value !== undefined) return { ok: true, needles: [options.value], from: 'options' };
  if (expected === undefined) {
    return {
      ok: false,
      verdict: error(
        'there is nothing to look for: the scorer has no `value` or `values` and the case has no expected value',
      ),
    };
  }
  if (typeof expected === 'string') {
    if (expected.length === 0)
      return {
        ok: false,
        verdict: error(
          'the expected value is an empty string; an empty text is in every output, so there is nothing to check',
        ),
      };
    return { ok: true, needles: [expected], from: 'expected' };
  }
  if (!Array.isArray(expected)) {
    return {
      ok: false,
      verdict: error(
        `the expected value is ${kindOf(expected)}, not a string or a list of strings; nothing is converted`,
      ),
    };
  }
  const list = expected as readonly Json[];
  if (list.length === 0)
    return { ok: false, verdict: error('the expected value is an empty list; there is nothing to look for') };
  const needles: string[] = [];
  for (const [i, item] of list.entries()) {
    if (typeof item !== 'string') {
      return {
        ok: false,
        verdict: error(
          `item ${i + 1} of ${list.length} of the expected value is ${kindOf(item)}, not a string; nothing is converted`,
        ),
      };
    }
    if (item.length === 0)
      return {
        ok: false,
        verdict: error(
          `item ${i + 1} of ${list.length} of the expected value is an empty string; an empty text is in every output`,
        ),
      };
    needles.push(item);
  }
  return { ok: true, needles, from: 'expected' };
}

/** Where one needle was found: `at` is a 0-based code-point position in the compared text, -1 when absent. */
export interface NeedleHit {
  /** 1-based position of the needle in its list (reasons name needles by this, never by their text). */
  readonly number: number;
  readonly needle: string;
  readonly at: number;
}

/**
 * Looks for every needle in the text. Case-insensitive search compares the Unicode lower case of
 * both (`toLowerCase`), so positions count characters of the lower-cased text.
 */
export function findNeedles(text: string, needles: readonly string[], caseSensitive: boolean): NeedleHit[] {
  const haystack = caseSensitive ? text : text.toLowerCase();
  return needles.map((needle, i) => {
    const index = haystack.indexOf(caseSensitive ? needle : needle.toLowerCase());
    return { number: i + 1, needle, at: index < 0 ? -1 : codePointLength(haystack.slice(0, index)) };
  });
}

/** "value 2 of 3", "values 1, 3 of 3", "the value" (a single needle). */
export function nameNeedles(hits: readonly NeedleHit[], total: number): string {
  if (total === 1) return 'the value';
  if (hits.length === 1) return `value ${hits[0]?.number ?? 0} of ${total}`;
  return `values ${hits.map((h) => h.number).join(', ')} of ${total}`;
}

/** "(a string of 12 characters)": how the output is described in reasons. */
export function describeText(text: string): string {
  const n = codePointLength(text);
  return `a string of ${n} character${n === 1 ? '' : 's'}`;
}
