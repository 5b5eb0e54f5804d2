import type { Json } from '../../case';

/**
 * Field paths as options write them: `answer.items[0].name`, or `a.b` with numeric segments for
 * array indexes. Returns the segments, or an error message when the path is malformed.
 */
export function parseFieldPath(
  path: string,
): { ok: true; segments: (string | number)[] } | { ok: false; message: string } {
  const segments: (string | number)[] = [];
  const pattern = /([^.[\]]+)|\[(\d+)\]/gy;
  let index = 0;
  while (index < path.length) {
    if (path[index] === '.') {
      // A dot separates two segments: never first, last, or doubled.
      if (index === 0 || index === path.length - 1 || path[index + 1] === '.' || path[index + 1] === '[') {
        return { ok: false, message: `the field path "${path}" is malformed at character ${index + 1}` };
      }
      index++;
      continue;
    }
    pattern.lastIndex = index;
    const m = pattern.exec(path);
    if (m === null) return { ok: false, message: `the field path "${path}" is malformed at character ${index + 1}` };
    if (m[1] !== undefined) segments.push(/^\d+$/.test(m[1]) ? Number(m[1]) : m[1]);
    else segments.push(Number(m[2]));
    index = pattern.lastIndex;
  }
  if (segments.length === 0) return { ok: false, message: 'the field path is empty' };
  return { ok: true, segments };
}

/** The value at a path, or `undefined` when any segment is missing. */
export function valueAt(root: Json | undefined, segments: readonly (string | number)[]): Json | undefined {
  let current: Json | undefined = root;
  for (const segment of segments) {
    if (current === null || current === undefined || typeof current !== 'object') return undefined;
    if (Array.isArray(current)) {
      if (typeof segment !== 'number') return undefined;
      current = (current as readonly Json[])[segment];
    } else {
      const record = current as { readonly [key: string]: Json };
      const key = String(segment);
      current = Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
    }
  }
  return current;
}
