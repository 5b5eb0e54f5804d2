/** Levenshtein distance over UTF-16 units, for suggesting names (short keys; speed is not a concern). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The known names closest to `name`, best first: those within a third of the name's length in edits;
 * when none is that close, those that contain the name or are contained in it.
 */
export function closestNames(name: string, known: readonly string[], limit = 3): string[] {
  const lower = name.toLowerCase();
  const scored = known
    .map((k) => {
      const within = Math.max(2, Math.ceil(k.length / 3));
      // The distance is at least the difference in length, so a name much longer or shorter is never
      // near: skip the quadratic count (a pasted 400 KB key took seconds).
      const d =
        Math.abs(lower.length - k.length) > within ? Number.POSITIVE_INFINITY : distance(lower, k.toLowerCase());
      return { k, d, within };
    })
    .sort((x, y) => x.d - y.d || x.k.localeCompare(y.k));
  const near = scored.filter(({ d, within }) => d <= within);
  const pick = near.length > 0 ? near : scored.filter(({ k }) => k.includes(lower) || lower.includes(k));
  return pick.slice(0, limit).map(({ k }) => k);
}

/** "did you mean "a" or "b"?" — or nothing when there is no close name. */
export function didYouMean(suggestions: readonly string[]): string {
  if (suggestions.length === 0) return '';
  const quoted = suggestions.map((s) => `"${s}"`);
  const last = quoted.pop();
  return `; did you mean ${quoted.length > 0 ? `${quoted.join(', ')} or ${last}` : last}?`;
}
