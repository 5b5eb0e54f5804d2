import type { Json } from '../case';
import { describeKind } from '../dataset/valueKinds';
import { parseJson } from '../text/jsonDepth';

/** A JSON object as recorded. */
export type JsonObject = { readonly [key: string]: Json };

/**
 * Why a recorded trace cannot be read. Its message is the whole reason, and names where and what kind
 * of value was seen, never the value (that is payload).
 */
export class TraceShapeError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'TraceShapeError';
  }
}

/** An own field of a recorded object (a `__proto__` key is a plain key, never the prototype). */
export function fieldOf(value: JsonObject, key: string): Json | undefined {
  return Object.hasOwn(value, key) ? value[key] : undefined;
}

export function hasField(value: JsonObject, key: string): boolean {
  return Object.hasOwn(value, key) && value[key] !== undefined;
}

/** "a string", "an object": the kind of a value, for reasons. */
export function kind(value: Json | undefined): string {
  return describeKind(value);
}

/** An optional string field; null counts as absent, another kind is a TraceShapeError. */
export function optionalString(value: JsonObject, key: string, where: string): string | undefined {
  const field = fieldOf(value, key);
  if (field === undefined || field === null) return undefined;
  if (typeof field !== 'string')
    throw new TraceShapeError(`${where} has a \`${key}\` that is ${kind(field)}, not a string`);
  return field;
}

export function requiredString(value: JsonObject, key: string, where: string): string {
  const field = optionalString(value, key, where);
  if (field === undefined) throw new TraceShapeError(`${where} has no \`${key}\``);
  return field;
}

/** An optional figure (a finite number, at least 0); null counts as absent. */
export function optionalFigure(value: JsonObject, key: string, where: string): number | undefined {
  const field = fieldOf(value, key);
  if (field === undefined || field === null) return undefined;
  if (typeof field !== 'number' || !Number.isFinite(field) || field < 0) {
    throw new TraceShapeError(
      `${where} has a \`${key}\` that is ${typeof field === 'number' ? 'a negative number' : kind(field)}, not a number of at least 0`,
    );
  }
  return field;
}

/** An optional count (an integer, at least 0); null counts as absent. */
export function optionalCount(value: JsonObject, key: string, where: string): number | undefined {
  const field = optionalFigure(value, key, where);
  if (field !== undefined && !Number.isInteger(field))
    throw new TraceShapeError(`${where} has a \`${key}\` that is not a whole number`);
  return field;
}

/** A list of ids or names: strings, with numbers taken in their string form. */
export function idList(value: Json | undefined, where: string): string[] {
  if (!Array.isArray(value)) throw new TraceShapeError(`${where} is ${kind(value)}, not a list`);
  return (value as readonly Json[]).map((item, index) => {
    if (typeof item === 'string') return item;
    if (typeof item === 'number') return String(item);
    throw new TraceShapeError(`item ${index + 1} of ${where} is ${kind(item)}, not a string`);
  });
}

/** The error a call ended with, as text: a string as it is, another value as its JSON; null and false are no error. */
export function errorText(value: Json | undefined): string | undefined {
  if (value === undefined || value === null || value === false || value === '') return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** JSON text as a value, or undefined when it does not parse. */
export function parsedJson(text: string): Json | undefined {
  try {
    return parseJson(text) as Json;
  } catch {
    return undefined;
  }
}

/** The object without its undefined fields (for types with optional fields under exactOptionalPropertyTypes). */
export function defined<T extends object>(value: { readonly [K in keyof T]: T[K] | undefined }): T {
  // A plain copy loop: this runs for every step of every trace, and entries/filter/fromEntries cost
  // more than the scoring of most trace scorers.
  const copy: { [key: string]: unknown } = {};
  for (const key in value) {
    const field: unknown = value[key];
    if (field !== undefined) copy[key] = field;
  }
  return copy as T;
}
