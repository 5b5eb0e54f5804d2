import type { SqlValue } from './sqlResult';

/**
 * PostgreSQL values as EvalLens compares them. `pg` hands every value over as the server's text
 * (the connection asks for ISO dates in UTC, hex bytea and shortest-exact floats); this turns that
 * text into a SqlValue by the column's type:
 *
 * - `boolean` → true / false.
 * - `smallint`, `integer`, `oid`, `real`, `double precision` → numbers (`NaN`, `Infinity` included).
 * - `bigint` (`count(*)`, `sum` of integers) → a number within ±(2^53 − 1), else its decimal text,
 *   exactly as SQLite's INTEGER is given.
 * - `numeric` → a number when the double's shortest decimal form is the same decimal value (so no
 *   digit is lost: `12.50` → 12.5, `19.99` → 19.99); otherwise the text as the server wrote it
 *   (`12345678901234567890.5`, `0.33333333333333333333`, `NaN`).
 * - `date` → `2024-01-31`; `timestamp` → `2024-01-31T12:00:00`; `timestamptz` → `2024-01-31T12:00:00Z`
 *   (ISO 8601, fractional seconds kept); BC dates and ±infinity stay as the server's text.
 * - `bytea` → lowercase hex without the `\x` prefix (as SQLite BLOBs are given).
 * - `json`, `jsonb` → their JSON text, as the server writes it.
 * - anything else (text, time, interval, uuid, arrays, …) → the server's text.
 */
export function postgresValue(typeOid: number, text: string): SqlValue {
  switch (typeOid) {
    case OID.bool:
      return text === 't' || text === 'true';
    case OID.int2:
    case OID.int4:
    case OID.oid:
    case OID.float4:
    case OID.float8:
      return Number(text);
    case OID.int8:
      return safeInteger(text);
    case OID.numeric:
      return exactNumber(text);
    case OID.timestamp:
    case OID.timestamptz:
      return isoTimestamp(text);
    case OID.bytea:
      return text.startsWith('\\x') ? text.slice(2).toLowerCase() : text;
    default:
      return text;
  }
}

/** The type OIDs of PostgreSQL's built-in types that get their own mapping. */
export const OID = {
  bool: 16,
  bytea: 17,
  int8: 20,
  int2: 21,
  int4: 23,
  oid: 26,
  json: 114,
  float4: 700,
  float8: 701,
  date: 1082,
  timestamp: 1114,
  timestamptz: 1184,
  numeric: 1700,
  jsonb: 3802,
} as const;

/** An integer's text as a number within ±(2^53 − 1), else the text. */
function safeInteger(text: string): number | string {
  const n = Number(text);
  return Number.isSafeInteger(n) && /^-?\d+$/.test(text) ? n : text;
}

/** `text` as a number when no digit is lost, else `text` itself. */
export function exactNumber(text: string): number | string {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n)) return text;
  return canonicalDecimal(text) === canonicalDecimal(plainDecimal(n)) ? (Object.is(n, -0) ? 0 : n) : text;
}

/** A decimal string without exponent, sign of zero, leading or trailing zeros: `-012.50` → `-12.5`. */
function canonicalDecimal(text: string): string | undefined {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (m === null) return undefined;
  const whole = (m[2] ?? '').replace(/^0+/, '');
  const fraction = (m[3] ?? '').replace(/0+$/, '');
  if (whole === '' && fraction === '') return '0';
  return `${m[1] === '-' ? '-' : ''}${whole === '' ? '0' : whole}${fraction === '' ? '' : `.${fraction}`}`;
}

/** A number's shortest round-trip form written without an exponent: 1e21 → `1000000000000000000000`. */
function plainDecimal(n: number): string {
  const shortest = String(n);
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(shortest);
  if (m === null) return shortest;
  const digits = `${m[2] ?? ''}${m[3] ?? ''}`;
  const point = (m[2] ?? '').length + Number(m[4]);
  if (point <= 0) return `${m[1]}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${m[1]}${digits}${'0'.repeat(point - digits.length)}`;
  return `${m[1]}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** `2024-01-31 12:00:00.5+00` → `2024-01-31T12:00:00.5Z`; other offsets as `+05:30`. */
function isoTimestamp(text: string): string {
  const m = /^(\d{4,}-\d\d-\d\d) (\d\d:\d\d:\d\d(?:\.\d+)?)(?:([+-])(\d\d)(?::?(\d\d))?(?::?(\d\d))?)?$/.exec(text);
  if (m === null) return text;
  const [, date, time, sign, hours, minutes, seconds] = m;
  if (sign === undefined) return `${date}T${time}`;
  if (hours === '00' && (minutes ?? '00') === '00' && (seconds ?? '00') === '00') return `${date}T${time}Z`;
  return `${date}T${time}${sign}${hours}:${minutes ?? '00'}${seconds === undefined ? '' : `:${seconds}`}`;
}
