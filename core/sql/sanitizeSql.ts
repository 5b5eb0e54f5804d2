import { splitStatements, type SqlDialect } from './sqlStatements';

/**
 * Generated SQL as EvalBench prepares it before running it (EvalBench's `util/sanitizer.py`
 * `sanitize_sql`, applied to the generated SQL only, never to golden SQL). The steps, in this order,
 * each on the whole text:
 *
 * 1. every "```sql" is removed, then every remaining "```" (so "```sql … ```" fences, and bare "```"
 *    fences, anywhere in the text; the match is case-sensitive, as EvalBench's: "```SQL" loses only
 *    its backticks and keeps the word);
 * 2. every `sql: "` is removed;
 * 3. every escaped newline — the two characters backslash and `n` — becomes a space;
 * 4. every run of two spaces is removed (left to right: three spaces leave one, four leave none);
 * 5. every `google_sql` is removed;
 * 6. every backslash is removed;
 * 7. whitespace is trimmed from both ends;
 * 8. every backtick is removed (EvalBench does this when the run names a dialect other than
 *    GoogleSQL; EvalLens always knows the case's dialect, SQLite or PostgreSQL).
 *
 * Steps 4 and 6 can change SQL that meant something else (`'a  b'` becomes `'ab'`): EvalBench scores
 * that text, and so does EvalLens, so the two agree.
 */
export function sanitizeGeneratedSql(sql: string): string {
  return sql
    .replaceAll('```sql', '')
    .replaceAll('```', '')
    .replaceAll('sql: "', '')
    .replaceAll('\\n', ' ')
    .replaceAll('  ', '')
    .replaceAll('google_sql', '')
    .replaceAll('\\', '')
    .trim()
    .replaceAll('`', '');
}

/**
 * The first statement of `sql`, as `sqlparse.split(sql)[0]` gives it for EvalBench's DQL items: the
 * text up to the first `;` outside strings, quoted names, comments and bodies (see sqlStatements.ts),
 * comments before it kept, without the `;`. Statements with nothing but comments or whitespace are
 * skipped. Undefined when the text holds no statement.
 */
export function firstStatement(sql: string, dialect: SqlDialect): string | undefined {
  const [first] = splitStatements(sql, dialect);
  return first === undefined ? undefined : sql.slice(first.start, first.end).trim();
}
