import { refusedMessage, type GuardedPlan, type GuardedSql } from './planRules';
import type { QueryPlan } from './sqlResult';

/**
 * What SQL the MySQL engine runs, and why the rest is refused. MySQL (and MariaDB) commit the open
 * transaction at once, before and after, for DDL and a few other statements (its "implicit commit":
 * CREATE, ALTER, DROP, RENAME, TRUNCATE, GRANT, LOCK TABLES, LOAD DATA, CALL of a procedure that
 * commits, …), so a rolled-back transaction cannot contain them: such SQL under test would change the
 * database for good. The engine therefore runs only statements that stay inside a transaction —
 * SELECT, WITH, INSERT, UPDATE, DELETE, REPLACE, VALUES, TABLE, SHOW, DESCRIBE, EXPLAIN, DO, and
 * CREATE/DROP TEMPORARY TABLE (no implicit commit, gone with the connection) — and refuses the rest
 * with the reason, in setup, query, eval queries and cleanup alike:
 *
 * - transaction control (BEGIN, START TRANSACTION, COMMIT, ROLLBACK, SAVEPOINT, RELEASE, XA): the
 *   PostgreSQL engine's refusal, in the same words;
 * - SET: `SET autocommit = 1` commits, and SET changes the session EvalLens isolates;
 * - `SELECT … INTO OUTFILE / DUMPFILE`: writes a file on the server;
 * - `/*! … *\/` comments: MySQL runs their text as SQL, which this reader does not look into.
 *
 * The reader knows MySQL's quoting: `'…'` and `"…"` strings with backslash escapes and doubled
 * quotes, `` `…` `` identifiers, `#` and `-- ` comments to the end of the line, `/* *\/` comments.
 */
export interface MysqlStatement {
  /** The first two words, upper-cased (a symbol such as `(` when the statement starts with one). */
  readonly keywords: readonly string[];
  /** Every word of the statement outside quotes and comments, upper-cased. */
  readonly words: ReadonlySet<string>;
  /** The statement holds a `/*! … *\/` comment, whose text MySQL runs. */
  readonly executableComment: boolean;
}

export function splitMysqlStatements(sql: string): MysqlStatement[] {
  const statements: MysqlStatement[] = [];
  let keywords: string[] = [];
  let words = new Set<string>();
  let executableComment = false;
  let hasContent = false;
  const finish = () => {
    if (hasContent) statements.push({ keywords, words, executableComment });
    keywords = [];
    words = new Set();
    executableComment = false;
    hasContent = false;
  };
  let i = 0;
  while (i < sql.length) {
    const c = sql[i] ?? '';
    const next = sql[i + 1] ?? '';
    if (c === ';') {
      finish();
      i++;
    } else if (/\s/.test(c)) {
      i++;
    } else if (c === '#' || (c === '-' && next === '-' && /[\s]/.test(sql[i + 2] ?? '\n'))) {
      const eol = sql.indexOf('\n', i);
      i = eol < 0 ? sql.length : eol + 1;
    } else if (c === '/' && next === '*') {
      if (sql[i + 2] === '!' || (sql[i + 2] === 'M' && sql[i + 3] === '!')) {
        executableComment = true;
        hasContent = true;
      }
      const close = sql.indexOf('*/', i + 2);
      i = close < 0 ? sql.length : close + 2;
    } else if (c === "'" || c === '"' || c === '`') {
      hasContent = true;
      i = skipQuoted(sql, i, c, c !== '`');
    } else if (/[A-Za-z_\u0080-\uffff]/.test(c)) {
      hasContent = true;
      let j = i + 1;
      while (j < sql.length && /[A-Za-z0-9_$\u0080-\uffff]/.test(sql[j] ?? '')) j++;
      const word = sql.slice(i, j).toUpperCase();
      if (keywords.length < 2) keywords.push(word);
      words.add(word);
      i = j;
    } else {
      hasContent = true;
      if (keywords.length === 0) keywords.push(c);
      i++;
    }
  }
  finish();
  return statements;
}

const RUNS = new Set(['SELECT', 'WITH', 'INSERT', 'UPDATE', 'DELETE', 'REPLACE', 'VALUES', 'TABLE', 'SHOW', 'DESCRIBE', 'DESC', 'EXPLAIN', 'DO', '(']);
const TRANSACTION_CONTROL = new Set(['BEGIN', 'START', 'COMMIT', 'ROLLBACK', 'SAVEPOINT', 'RELEASE', 'XA']);

/** Why MySQL SQL may not run in EvalLens's transaction, or undefined when it may. */
export function mysqlRefusal(sql: string): string | undefined {
  for (const statement of splitMysqlStatements(sql)) {
    const [first = '', second = ''] = statement.keywords;
    if (statement.executableComment) return 'a /*! … */ comment is not allowed in SQL under test on MySQL: MySQL runs its text as SQL, which EvalLens cannot check';
    if (TRANSACTION_CONTROL.has(first)) return refusedMessage(first === 'START' ? `${first} ${second}`.trim() : first);
    if (first === 'SET') return 'SET is not allowed in SQL under test on MySQL: `SET autocommit` would commit, and SET changes the session EvalLens runs the case in';
    if (statement.words.has('OUTFILE') || statement.words.has('DUMPFILE')) return 'INTO OUTFILE / DUMPFILE is not allowed in SQL under test: it writes a file on the database server';
    if ((first === 'CREATE' || first === 'DROP') && second === 'TEMPORARY') continue;
    if (!RUNS.has(first)) {
      return ['CREATE', 'ALTER', 'DROP', 'RENAME', 'TRUNCATE'].includes(first)
        ? `${first} is not run on MySQL: MySQL commits DDL at once (an implicit commit), so it would change the database for good; EvalLens runs MySQL cases in a transaction it rolls back, so DDL is refused (run DDL cases on PostgreSQL or SQLite)`
        : `${first} is not run on MySQL: it is not a query or DML statement, and MySQL may commit it at once (an implicit commit); EvalLens runs MySQL cases in a transaction it rolls back, so it is refused`;
    }
  }
  return undefined;
}

/** A plan with each piece of SQL that may not run on MySQL marked with its reason. */
export function guardMysqlPlan(plan: QueryPlan): GuardedPlan {
  const guard = (sql: string): GuardedSql => {
    const refused = mysqlRefusal(sql);
    return refused === undefined ? { sql } : { sql, refused };
  };
  return { setup: plan.setup.map(guard), query: guard(plan.query), evalQueries: plan.evalQueries.map(guard), cleanup: plan.cleanup.map(guard) };
}

/** The index after a quoted string or identifier; `backslash`: a backslash escapes the next character. */
function skipQuoted(sql: string, start: number, quote: string, backslash: boolean): number {
  let i = start + 1;
  while (i < sql.length) {
    const c = sql[i];
    if (backslash && c === '\\') i += 2;
    else if (c === quote && sql[i + 1] === quote) i += 2;
    else if (c === quote) return i + 1;
    else i++;
  }
  return sql.length;
}
