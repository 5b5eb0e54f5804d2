/**
 * The two sides of an expected/actual diff, or none. A diff compares like with like: the text a
 * scorer compared with the text it was compared to, a tool sequence with a tool sequence; never a
 * case's whole `expected` object (a trajectory, skills, relevant ids) with its whole `output`, where
 * nearly everything would be struck through for no reason. When the two sides are not alike, there
 * is no diff and the reason says what differed.
 *
 * Per scorer kind (its registry key), which fields of the result's details are the two sides, and
 * what they are; a scorer not named here (python_scorer, subprocess, a custom one) gets a diff only
 * when its details hold `expected` and `actual` of the same shape.
 */
import type { Json } from '../../core/case';

export interface DiffSides {
  readonly expected: string;
  readonly actual: string;
}

interface Compared {
  readonly expected: string;
  readonly actual: string;
  /** `text`: two texts (or two JSON texts, shown indented); `list`: two sequences, one item a line. */
  readonly as: 'text' | 'list';
}

const COMPARED_BY_KIND: Readonly<Record<string, Compared>> = {
  exact_match: { expected: 'expected', actual: 'actual', as: 'text' },
  edit_similarity: { expected: 'expected', actual: 'actual', as: 'text' },
  trajectory_matcher: { expected: 'expected', actual: 'actual', as: 'list' },
  skills_trajectory: { expected: 'expected', actual: 'actual', as: 'list' },
  execution_order: { expected: 'expected', actual: 'called', as: 'list' },
};

const GENERIC: Compared = { expected: 'expected', actual: 'actual', as: 'text' };

/** The diff of one result of scorer kind `key` (undefined when unknown), from its details. */
export function diffSides(
  key: string | undefined,
  details: { readonly [key: string]: Json } | undefined,
): DiffSides | undefined {
  if (details === undefined) return undefined;
  const compared = (key === undefined ? undefined : COMPARED_BY_KIND[key]) ?? GENERIC;
  const expected = details[compared.expected];
  const actual = details[compared.actual];
  if (expected === undefined || actual === undefined) return undefined;
  return compared.as === 'list' ? listSides(expected, actual) : likeSides(expected, actual);
}

/** Two sequences, one item a line; anything but two lists is no diff. */
function listSides(expected: Json, actual: Json): DiffSides | undefined {
  if (!Array.isArray(expected) || !Array.isArray(actual)) return undefined;
  const line = (item: Json) => (typeof item === 'string' ? item : JSON.stringify(item));
  return { expected: expected.map(line).join('\n'), actual: actual.map(line).join('\n') };
}

/**
 * Two values of the same shape: two texts as they are (two JSON texts of containers, as a scorer that
 * compares canonical JSON gives them, indented); two lists; two objects that share a key. Anything
 * else (text against an object, an object against an unrelated object) is no diff.
 */
function likeSides(expected: Json, actual: Json): DiffSides | undefined {
  if (typeof expected === 'string' && typeof actual === 'string') {
    const a = containerOf(expected);
    const b = containerOf(actual);
    // Two texts are alike; two JSON texts of containers are alike when their values are.
    return a === undefined || b === undefined ? { expected, actual } : likeSides(a, b);
  }
  if (Array.isArray(expected) && Array.isArray(actual))
    return { expected: indented(expected), actual: indented(actual) };
  if (isMapping(expected) && isMapping(actual)) {
    const shared = Object.keys(expected).some((k) => k in actual);
    return shared ? { expected: indented(expected), actual: indented(actual) } : undefined;
  }
  if (typeof expected === typeof actual && !isContainer(expected) && !isContainer(actual))
    return { expected: indented(expected), actual: indented(actual) };
  return undefined;
}

/** A JSON text of an object or a list, parsed; anything else (plain text, a JSON scalar) undefined. */
function containerOf(text: string): Json | undefined {
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return undefined;
  try {
    const value = JSON.parse(text) as Json;
    return isContainer(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isContainer(value: Json): boolean {
  return typeof value === 'object' && value !== null;
}

function isMapping(value: Json): value is { readonly [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function indented(value: Json): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}
