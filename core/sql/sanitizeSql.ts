import { splitStatements, type SqlDialect } from './sqlStatements';

/**
 * What decides EvalBench's clean-up of generated SQL: the run config's top-level `dialect` and
 * `prompt_generator` (EvalBench's `sqlexecwork.py` passes `experiment_config.get("dialect")` to
 * `sanitize_sql`, and skips it for `NOOPGenerator` unless the dialect is `googlesql`).
 */
export interface SqlCleanUp {
  readonly dialect?: string;
  readonly promptGenerator?: string;
}

/**
 * Generated SQL as EvalBench prepares it before running it (EvalBench's `util/sanitizer.py`
 * `sanitize_sql`, applied to the generated SQL only, never to golden SQL). With `NOOPGenerator` and a
 * dialect other than `googlesql` the SQL runs as recorded. Otherwise the steps, in this order, each on
 * the whole text:
 *
 * 1. every "```sql" is removed, then every remaining "```" (so "```sql … ```" fences, and bare "```"
 *    fences, anywhere in the text; the match is case-sensitive, as EvalBench's: "```SQL" loses only
 *    its backticks and keeps the word);
 * 2. every `sql: "` is removed;
 * 3. every escaped newline — the two characters backslash and `n` — becomes a space;
 * 4. every run of two spaces is removed (left to right: three spaces leave one, four leave none);
 * 5. every `google_sql` is removed;
 * 6. every backslash is removed — but for `googlesql`, only the backslash of an escaped backtick or
 *    double quote;
 * 7. whitespace is trimmed from both ends;
 * 8. when the config names a dialect other than `googlesql`, every backtick is removed. A config
 *    without `dialect` keeps them: EvalBench passes no dialect then (BIRD's MySQL-style quoted names
 *    such as `Enrollment (K-12)` survive).
 *
 * Steps 4 and 6 can change SQL that meant something else (`'a  b'` becomes `'ab'`): EvalBench scores
 * that text, and so does EvalLens, so the two agree.
 */
export function sanitizeGeneratedSql(sql: string, cleanUp: SqlCleanUp = {}): string {
  const googleSql = cleanUp.dialect === 'googlesql';
  if (cleanUp.promptGenerator === 'NOOPGenerator' && !googleSql) return sql;
  const common = sql
    .replaceAll('```sql', '')
    .replaceAll('```', '')
    .replaceAll('sql: "', '')
    .replaceAll('\\n', ' ')
    .replaceAll('  ', '')
    .replaceAll('google_sql', '');
  const unescaped = googleSql ? common.replaceAll('\\`', '`').replaceAll('\\"', '"') : common.replaceAll('\\', '');
  const trimmed = unescaped.trim();
  return cleanUp.dialect !== undefined && cleanUp.dialect !== '' && !googleSql ? trimmed.replaceAll('`', '') : trimmed;
}

/**
 * The first statement of `sql`, as `sqlparse.split(sql)[0]` gives it for EvalBench's DQL items: the
 * text up to the first `;` outside strings, quoted names, comments and bodies (see sqlStatements.ts),
 * comments before it kept, without the `;`. Statements with nothing but comments or whitespace are
 * skipped. Undefined when the text holds no statement.
 */
export function firstStatement(sql: string, dialect: SqlDialect): string | undefined {
  // No semicolon and nothing that could open a comment: the whole text is the one statement (or none).
  if (!sql.includes(';') && !sql.includes('--') && !sql.includes('/*') && !(dialect === 'mysql' && sql.includes('#'))) {
    const text = sql.trim();
    return text === '' ? undefined : text;
  }
  const [first] = splitStatements(sql, dialect);
  return first === undefined ? undefined : sql.slice(first.start, first.end).trim();
}
