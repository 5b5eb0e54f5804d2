import type { Json } from '../../case';
import { isObject } from '../../../shared/isObject';

/**
 * Python's value semantics, as EvalBench's scorers rely on them, for values read from SQL results
 * (null, numbers, strings, booleans; recorded document results may also hold lists and objects).
 *
 * - `==` (`pyEquals`): `None == None`; numbers compare by value, and booleans are the numbers 1 and
 *   0, so `1 == 1.0 == True`; NaN equals nothing, itself included (two query runs never share one
 *   NaN object, so Python's identity shortcut never applies); a number never equals a string; lists
 *   compare item by item in order; dicts by their key sets and the values under each key, in any
 *   key order.
 * - Hashing (`pyKey`): a text key that two values share exactly when they are `==`, for the sets and
 *   Counters of EvalBench's scorers (NaN gets a key of its own every time).
 * - `repr` of floats, strings and tuples, Python's white space (`str.isspace`, `str.strip`) and
 *   line breaks (`str.splitlines`), for the scorers that sort by `str(tuple)` or clean text.
 *
 * Numbers are JavaScript doubles: integers beyond 2^53, which Python keeps exact, are already
 * rounded when they arrive here.
 */

/** A SQL row as EvalBench holds it: a Python dict from column name to value, names unique. */
export interface RowDict {
  readonly keys: readonly string[];
  readonly values: readonly Json[];
}

function isNumeric(value: Json): value is number | boolean {
  return typeof value === 'number' || typeof value === 'boolean';
}

function numeric(value: number | boolean): number {
  return typeof value === 'boolean' ? (value ? 1 : 0) : value;
}

function isList(value: Json): value is readonly Json[] {
  return Array.isArray(value);
}

/** Python's `a == b` on two values. */
export function pyEquals(a: Json, b: Json): boolean {
  if (a === null || b === null) return a === b;
  if (isNumeric(a) || isNumeric(b)) return isNumeric(a) && isNumeric(b) && numeric(a) === numeric(b);
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if (isList(a) || isList(b)) {
    if (!isList(a) || !isList(b) || a.length !== b.length) return false;
    return a.every((item, i) => pyEquals(item, b[i] ?? null));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.hasOwn(b, k) && pyEquals(a[k] ?? null, b[k] ?? null));
}

/** Python's `==` on two rows (dicts): the same column names, equal values under each, any order. */
export function pyDictEquals(a: RowDict, b: RowDict): boolean {
  if (a.keys.length !== b.keys.length) return false;
  for (const [i, key] of a.keys.entries()) {
    const j = b.keys.indexOf(key);
    if (j < 0 || !pyEquals(a.values[i] ?? null, b.values[j] ?? null)) return false;
  }
  return true;
}

/** Python's `==` on two lists of rows: the same length and equal rows at every position. */
export function pyRowListsEqual(a: readonly RowDict[], b: readonly RowDict[]): boolean {
  return (
    a.length === b.length &&
    a.every((row, i) => {
      const other = b[i];
      return other !== undefined && pyDictEquals(row, other);
    })
  );
}

/** The first position (0-based) where two row lists differ, comparing the shorter length; -1 if none. */
export function firstDifferingRow(a: readonly RowDict[], b: readonly RowDict[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined || y === undefined || !pyDictEquals(x, y)) return i;
  }
  return -1;
}

let nanCount = 0;

/**
 * A hash key for a value: equal for `==` values (`1`, `1.0` and `True` share one), different
 * otherwise. Lists key in order (as EvalBench's tuples), dicts by their sorted items (as its
 * frozensets and sorted item tuples). NaN never shares a key.
 */
export function pyKey(value: Json): string {
  if (value === null) return 'N';
  if (isNumeric(value)) {
    const n = numeric(value);
    if (Number.isNaN(n)) return `nan#${++nanCount}`;
    return `n${Object.is(n, -0) ? 0 : n}`;
  }
  if (typeof value === 'string') return `s${JSON.stringify(value)}`;
  if (isList(value)) return `(${value.map(pyKey).join(',')})`;
  if (!isObject(value)) return 'N';
  const items = Object.keys(value).map((k): [string, Json] => [k, value[k] ?? null]);
  return dictKey(items);
}

/** The hash key of a row as a dict: its items sorted by column name (key-sensitive, order-free). */
export function pyDictKey(row: RowDict): string {
  return dictKey(row.keys.map((k, i): [string, Json] => [k, row.values[i] ?? null]));
}

/** The hash key of a row's values as a tuple, in column order (names ignored). */
export function pyTupleKey(values: readonly Json[]): string {
  return `(${values.map(pyKey).join(',')})`;
}

function dictKey(items: [string, Json][]): string {
  items.sort((x, y) => compareCodePoints(x[0], y[0]));
  return `{${items.map(([k, v]) => `${JSON.stringify(k)}:${pyKey(v)}`).join(',')}}`;
}

/** Python's string order: by code point (JavaScript's `<` orders UTF-16 code units). */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const x = [...a];
  const y = [...b];
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const p = x[i]?.codePointAt(0) ?? 0;
    const q = y[i]?.codePointAt(0) ?? 0;
    if (p !== q) return p - q;
  }
  return x.length - y.length;
}

/** Python's `repr(float)`: the shortest round-tripping digits, `1.0`, `1e+16`, `1e-05`, `-0.0`, `inf`, `nan`. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  const [mantissa = '0', exponent = '0'] = Math.abs(x).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const decpt = Number(exponent) + 1;
  if (decpt <= -4 || decpt > 16) {
    const e = decpt - 1;
    const body = digits.length === 1 ? digits : `${digits[0] ?? ''}.${digits.slice(1)}`;
    return `${sign}${body}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
  if (decpt >= digits.length) return `${sign}${digits}${'0'.repeat(decpt - digits.length)}.0`;
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}

const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** Python's `repr(str)`: single quotes unless the text has `'` and no `"`; unprintable characters escaped. */
export function pyStrRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === '\\' || ch === quote) out += `\\${ch}`;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch !== ' ' && NOT_PRINTABLE.test(ch)) {
      if (cp < 0x100) out += `\\x${cp.toString(16).padStart(2, '0')}`;
      else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, '0')}`;
      else out += `\\U${cp.toString(16).padStart(8, '0')}`;
    } else out += ch;
  }
  return out + quote;
}

/** Python's `repr` of None, a float or a string. */
export function pyScalarRepr(value: null | number | string): string {
  if (value === null) return 'None';
  return typeof value === 'number' ? pyFloatRepr(value) : pyStrRepr(value);
}

/** Python's `str(tuple)`: `(1.0, 'a')`, `(None,)`, `()`. */
export function pyTupleRepr(values: readonly (null | number | string)[]): string {
  const items = values.map(pyScalarRepr);
  return items.length === 1 ? `(${items[0] ?? ''},)` : `(${items.join(', ')})`;
}

/** The characters of Python's `str.isspace()` (and of `\s` in a `str` pattern), as a class body. */
export const PY_WHITESPACE_CLASS =
  '\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

const PY_SPACE = new RegExp(`^[${PY_WHITESPACE_CLASS}]$`, 'u');

/** Whether one character is white space to Python (`str.isspace`). */
export function pyIsSpace(ch: string): boolean {
  return PY_SPACE.test(ch);
}

/** Python's `str.strip()`: Python's white space, which is not JavaScript's `trim` set (U+FEFF stays, U+001C–U+001F and U+0085 go). */
export function pyStrip(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && pyIsSpace(text.charAt(start))) start++;
  while (end > start && pyIsSpace(text.charAt(end - 1))) end--;
  return text.slice(start, end);
}

/** Python's `str.splitlines()`: breaks at \n, \r, \r\n, \v, \f, \x1c–\x1e, \x85, U+2028 and U+2029. */
export function pySplitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/u);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}
