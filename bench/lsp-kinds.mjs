// What each server reports on the benchmark's config, by kind, and which of the seeded mistakes each
// one catches: a mistake counts as caught when a diagnostic starts on one of its entry's lines (the
// missing dataset file: on the `dataset:` line, or anywhere with EvalLens's `missing-file` code).

/**
 * A diagnostic's kind: EvalLens's `code` (a word), or else its message with names, numbers and values
 * masked (yaml-language-server's codes are numbers that say less than its messages).
 */
export function kindOf(diagnostic) {
  if (typeof diagnostic.code === 'string' && diagnostic.code !== '') return diagnostic.code;
  return diagnostic.message
    .split('\n')[0]
    .replace(/"[^"]*"|'[^']*'|`[^`]*`/g, '…')
    .replace(/Valid values: .*/, 'Valid values: …')
    .replace(/^(Property|Missing property) \S+/, '$1 …')
    .replace(/\d+(\.\d+)?/g, 'N')
    .slice(0, 80);
}

/** Kind → count, most frequent first. */
export function countKinds(diagnostics) {
  const counts = new Map();
  for (const d of diagnostics) counts.set(kindOf(d), (counts.get(kindOf(d)) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]);
}

const oneLine = (text, max = 110) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/** For each seeded mistake, the diagnostics of one server that are about it (shortened messages). */
export function caughtBy(seeded, diagnostics) {
  return seeded.map((mistake) => {
    const about = diagnostics.filter((d) => {
      const line = d.range.start.line;
      if (line >= mistake.firstLine && line <= mistake.lastLine) return true;
      return mistake.kind === 'missing dataset file' && d.code === 'missing-file';
    });
    return { ...mistake, messages: about.map((d) => oneLine(d.message)) };
  });
}

/** Diagnostics that are about none of the seeded mistakes (false alarms, if any). */
export function elsewhere(seeded, diagnostics) {
  return diagnostics.filter(
    (d) =>
      !seeded.some((m) => d.range.start.line >= m.firstLine && d.range.start.line <= m.lastLine) &&
      d.code !== 'missing-file',
  );
}
