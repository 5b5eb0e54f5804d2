import schema from '../../../../schemas/scorers/returned_sql.schema.json';
import { pySplitLines, pyStrip } from '../../support/pythonEquality';
import { generatedSqlOf, percentVerdict } from '../../support/sqlRows';
import { defineScorer, prepared } from '../../scorer';

/** Removes `/* … *\/` blocks (the shortest from each opener, as a non-greedy DOTALL regex does); an unclosed opener stays. */
function withoutBlockComments(text: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const open = text.indexOf('/*', from);
    const close = open < 0 ? -1 : text.indexOf('*/', open + 2);
    if (close < 0) return out + text.slice(from);
    out += text.slice(from, open);
    from = close + 2;
  }
}

/**
 * EvalBench's returned_sql rule: an empty text has no SQL; otherwise `/* … *\/` comments are removed
 * and the text has SQL when some line, trimmed, is non-empty and starts with neither `--` nor `#`.
 * Prose counts as SQL.
 */
export function returnsSql(text: string): {
  readonly sql: boolean;
  readonly lines: number;
  readonly firstSqlLine?: number;
} {
  if (text === '') return { sql: false, lines: 0 };
  const lines = pySplitLines(withoutBlockComments(text)).map(pyStrip);
  const at = lines.findIndex((line) => line !== '' && !line.startsWith('--') && !line.startsWith('#'));
  return at < 0 ? { sql: false, lines: lines.length } : { sql: true, lines: lines.length, firstSqlLine: at + 1 };
}

/** EvalBench's `returned_sql`: 100 when the generated text holds something besides comments and blank lines. */
export const returnedSql = defineScorer('returned_sql', {
  origin: 'EvalBench',
  scale: { kind: 'bounded', max: 100 },
  schema,
  create() {
    return prepared({
      score(input) {
        const sql = generatedSqlOf(input);
        if (!sql.ok) return sql.verdict;
        const found = returnsSql(sql.text);
        const details = { query_from: sql.from, lines: found.lines };
        if (sql.text === '') return percentVerdict(0, 'the generated SQL is empty', details);
        if (found.firstSqlLine !== undefined)
          return percentVerdict(
            100,
            `line ${found.firstSqlLine} (after removing /* */ comments) is neither blank nor a -- or # comment`,
            { ...details, first_sql_line: found.firstSqlLine },
          );
        const what =
          found.lines === 0
            ? 'the generated SQL holds only /* */ comments'
            : found.lines === 1
              ? 'its only line is blank or a comment'
              : `all ${found.lines} lines are blank or comments`;
        return percentVerdict(0, `${what} (-- and # lines and /* */ blocks count as comments)`, details);
      },
    });
  },
});
