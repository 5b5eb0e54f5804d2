/**
 * A glob as Python's `fnmatch` reads it (case-sensitive, as on POSIX): `*` any text, `?` one
 * character, `[abc]` / `[a-z]` one of a set, `[!abc]` one not in it; a `[` without its `]` is itself.
 * A set with a range that runs backwards (`[z-a]`) makes the whole glob plain text. Characters are
 * code points.
 *
 * Matching never backtracks more than one star: a glob is compiled to tokens and matched by the
 * two-pointer wildcard algorithm, so the work is at most (glob length × id length) steps, whatever
 * the glob (a regular expression of `a*a*a*…b` takes exponential time on a long `aaaa…`).
 */
export interface GlobMatcher {
  test(text: string): boolean;
}

type Token =
  | { readonly kind: 'star' }
  | { readonly kind: 'one' }
  | { readonly kind: 'char'; readonly code: number }
  | { readonly kind: 'set'; readonly negated: boolean; readonly ranges: readonly (readonly [number, number])[] };

export function compileGlob(glob: string): GlobMatcher {
  const tokens = tokenize(glob) ?? Array.from(glob, (ch): Token => ({ kind: 'char', code: ch.codePointAt(0) ?? 0 }));
  return {
    test: (text) =>
      matchTokens(
        tokens,
        Array.from(text, (ch) => ch.codePointAt(0) ?? 0),
      ),
  };
}

/** The glob's tokens, or undefined when a set has a backwards range (the glob is then plain text). */
function tokenize(glob: string): Token[] | undefined {
  const chars = Array.from(glob);
  const tokens: Token[] = [];
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i] as string;
    if (char === '*') {
      // Consecutive stars match what one star matches.
      if (tokens[tokens.length - 1]?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (char === '?') tokens.push({ kind: 'one' });
    else if (char === '[') {
      let end = i + 1;
      if (chars[end] === '!') end += 1;
      if (chars[end] === ']') end += 1;
      while (end < chars.length && chars[end] !== ']') end += 1;
      if (end >= chars.length) {
        tokens.push({ kind: 'char', code: 0x5b });
        continue;
      }
      let body = chars.slice(i + 1, end);
      const negated = body[0] === '!';
      if (negated) body = body.slice(1);
      const ranges = setRanges(body.map((ch) => ch.codePointAt(0) ?? 0));
      if (ranges === undefined) return undefined;
      tokens.push({ kind: 'set', negated, ranges });
      i = end;
    } else tokens.push({ kind: 'char', code: char.codePointAt(0) ?? 0 });
  }
  return tokens;
}

/** `a-z` is a range when a character stands on both sides of the `-`; any other `-` is itself. */
function setRanges(codes: readonly number[]): [number, number][] | undefined {
  const ranges: [number, number][] = [];
  for (let j = 0; j < codes.length; j++) {
    const low = codes[j] as number;
    const high = codes[j + 2];
    if (codes[j + 1] === 0x2d && high !== undefined) {
      if (high < low) return undefined;
      ranges.push([low, high]);
      j += 2;
    } else ranges.push([low, low]);
  }
  return ranges;
}

function matchesOne(token: Token, code: number): boolean {
  switch (token.kind) {
    case 'one':
      return true;
    case 'char':
      return token.code === code;
    case 'set':
      return token.ranges.some(([low, high]) => code >= low && code <= high) !== token.negated;
    case 'star':
      return false;
  }
}

/**
 * The classic wildcard match: advance both pointers while they agree; at a star remember where it
 * was and let it swallow nothing; on a mismatch go back to the last star and let it swallow one more
 * character. Only the last star is ever revisited, which is sound because a later star can absorb
 * whatever an earlier one would have.
 */
function matchTokens(tokens: readonly Token[], text: readonly number[]): boolean {
  let t = 0;
  let p = 0;
  let starAt = -1;
  let resumeAt = 0;
  while (t < text.length) {
    const token = tokens[p];
    if (token !== undefined && token.kind === 'star') {
      starAt = p++;
      resumeAt = t;
    } else if (token !== undefined && matchesOne(token, text[t] as number)) {
      p++;
      t++;
    } else if (starAt >= 0) {
      p = starAt + 1;
      t = ++resumeAt;
    } else return false;
  }
  while (tokens[p]?.kind === 'star') p++;
  return p === tokens.length;
}
