import type { Json } from '../../case';

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

export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * Where two texts first differ, in code points (0-based), or -1 when equal. Reasons quote this
 * position instead of the texts.
 */
export function firstDifference(a: string, b: string): number {
  const left = Array.from(a);
  const right = Array.from(b);
  const n = Math.min(left.length, right.length);
  for (let i = 0; i < n; i++) if (left[i] !== right[i]) return i;
  return left.length === right.length ? -1 : n;
}
