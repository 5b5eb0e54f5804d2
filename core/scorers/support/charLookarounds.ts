/**
 * A pattern with its one-character lookarounds set aside, for the ReDoS check.
 *
 * recheck can prove a pattern safe with its automaton checker only when the pattern has no lookaround
 * and no backreference; otherwise it fuzzes, which takes about a second for a short pattern and proves
 * nothing. Every Python `\b` the regexp_matcher translates becomes four lookarounds of one character class
 * (`(?:(?<=[w])(?![w])|(?<![w])(?=[w]))`), so a pattern as plain as `(?i)\bselect\s+\*` was fuzzed.
 *
 * A lookaround whose body is one character (a class, an escape, `.` or a literal) reads at most one
 * character and consumes none: for a backtracking matcher it only prunes paths, at a constant cost per
 * step. So every path the pattern can explore on an input is a path of the pattern without it, and if
 * that pattern cannot backtrack catastrophically neither can this one. The converse does not hold (a
 * lookaround may be what keeps a pattern linear), so a pattern whose reduced form is not proven safe is
 * checked as written. The caller still counts such a verdict as unproven (the pattern runs isolated),
 * as it does a fuzzed one.
 *
 * The source is an ECMAScript pattern compiled with the `u` flag (so a lookaround is never quantified
 * and a class never nests).
 */

/** `source` without its one-character lookarounds; the same string when it has none. */
export function withoutCharLookarounds(source: string): string {
  let out = '';
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === '\\') {
      const end = escapeEnd(source, i);
      out += source.slice(i, end);
      i = end;
    } else if (c === '[') {
      const end = classEnd(source, i);
      out += source.slice(i, end);
      i = end;
    } else if (c === '(') {
      const end = charLookaroundEnd(source, i);
      if (end === undefined) {
        out += c;
        i += 1;
      } else {
        i = end;
      }
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

const LOOKAROUND_OPENINGS = ['(?<=', '(?<!', '(?=', '(?!'] as const;

/** Where the lookaround opening at `at` ends, when its body is one character; undefined otherwise. */
function charLookaroundEnd(source: string, at: number): number | undefined {
  const opening = LOOKAROUND_OPENINGS.find((o) => source.startsWith(o, at));
  if (opening === undefined) return undefined;
  const body = at + opening.length;
  const atomEnd = oneCharacterEnd(source, body);
  if (atomEnd === undefined || source[atomEnd] !== ')') return undefined;
  return atomEnd + 1;
}

/** Characters that are syntax, not a literal, where an atom may start. */
const NOT_A_LITERAL = new Set([...'()|*+?{}^$]']);

/** The end of one atom that reads exactly one character at `at`, or undefined. */
function oneCharacterEnd(source: string, at: number): number | undefined {
  const c = source[at];
  if (c === undefined || NOT_A_LITERAL.has(c)) return undefined;
  if (c === '[') return classEnd(source, at);
  if (c === '\\') {
    const next = source[at + 1] ?? '';
    // A backreference reads what a group matched (any length); \b and \B are assertions, not characters.
    if (/[1-9kbB]/.test(next)) return undefined;
    return escapeEnd(source, at);
  }
  const code = source.codePointAt(at) ?? 0;
  return at + (code > 0xffff ? 2 : 1);
}

/** The end of the escape starting at `at` (a backslash). */
function escapeEnd(source: string, at: number): number {
  const next = source[at + 1];
  if ((next === 'p' || next === 'P' || next === 'u') && source[at + 2] === '{') {
    const close = source.indexOf('}', at + 3);
    return close === -1 ? source.length : close + 1;
  }
  if (next === 'u') return Math.min(source.length, at + 6);
  if (next === 'x') return Math.min(source.length, at + 4);
  if (next === 'c') return Math.min(source.length, at + 3);
  if (next === 'k' && source[at + 2] === '<') {
    const close = source.indexOf('>', at + 3);
    return close === -1 ? source.length : close + 1;
  }
  if (next === undefined) return source.length;
  const code = source.codePointAt(at + 1) ?? 0;
  return at + 1 + (code > 0xffff ? 2 : 1);
}

/** The end of the character class starting at `at` (a `[`), just past its closing `]`. */
function classEnd(source: string, at: number): number {
  let i = at + 1;
  while (i < source.length) {
    const c = source[i];
    if (c === '\\') i = escapeEnd(source, i);
    else if (c === ']') return i + 1;
    else i += 1;
  }
  return source.length;
}
