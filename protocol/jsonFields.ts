import { isObject } from '../shared/isObject';

// What the protocol readers share: a value read from another process or the webview is an object of
// unknown fields until each field is checked.

export type Fields = { readonly [key: string]: unknown };

/** The value as an object of fields, or undefined when it is not a plain object (null, a list, a scalar). */
export function fieldsOf(value: unknown): Fields | undefined {
  return isObject(value) ? value : undefined;
}

/** A line a CLI printed, as an object of fields; undefined when it is not JSON or not an object. */
export function parsedFields(text: string): Fields | undefined {
  try {
    return fieldsOf(JSON.parse(text));
  } catch {
    return undefined;
  }
}
