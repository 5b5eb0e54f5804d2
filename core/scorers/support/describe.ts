import type { Json } from '../../case';
import { fail, type ScorerVerdict } from '../../result';

/** The kind of a JSON value, as reasons name it ("a number", "an object"). Never the value itself. */
export function kindOf(value: Json | undefined): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  switch (typeof value) {
    case 'string':
      return `a string of ${codePointLength(value)} character${codePointLength(value) === 1 ? '' : 's'}`;
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    default:
      return 'an object';
  }
}

/** The bare type name of a JSON value: string, number, boolean, null, array, object. */
export function typeName(value: Json | undefined): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

export function codePointLength(text: string, end = text.length): number {
  let n = 0;
  for (let i = 0; i < end; i++) {
    const unit = text.charCodeAt(i);
    // A surrogate pair is one code point; a lone surrogate counts as one too.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < end) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/**
 * Where two texts first differ, in code points (0-based), or -1 when equal. Reasons quote this
 * position instead of the texts.
 */
export function firstDifference(a: string, b: string): number {
  if (a === b) return -1;
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  // Do not stop between the two halves of a surrogate pair: the code point starts one unit earlier.
  if (i > 0) {
    const previous = a.charCodeAt(i - 1);
    if (previous >= 0xd800 && previous <= 0xdbff) i--;
  }
  return codePointLength(a, i);
}

/**
 * The output as text, or the failing verdict every text scorer gives otherwise: a missing output, or
 * an output of another type (nothing is converted). `hint` adds advice to the wrong-type reason.
 */
export function textOutput(
  output: Json | undefined,
  hint = '',
): { ok: true; text: string } | { ok: false; verdict: ScorerVerdict } {
  if (output === undefined) return { ok: false, verdict: fail('the case has no output') };
  if (typeof output !== 'string')
    return { ok: false, verdict: fail(`the output is ${kindOf(output)}, not a string; nothing is converted${hint}`) };
  return { ok: true, text: output };
}
