import type { Json } from '../core/case';

/**
 * A mapping read from JSON or YAML: an object that is neither null nor an array. The one such guard
 * in the code (the view and the extension reach it through protocol/).
 */
export function isObject(value: Json | undefined): value is { readonly [key: string]: Json };
export function isObject(value: unknown): value is { readonly [key: string]: unknown };
export function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
