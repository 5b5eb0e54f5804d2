/**
 * Splits SQL text into statements, the way the database would, closely enough to read each
 * statement's leading keywords. The engines use it to refuse transaction control (`COMMIT`, `BEGIN`,
 * …) in SQL under test, which would end the transaction EvalLens rolls back, and the PostgreSQL and
 * MySQL engines to send statements one at a time. No guarantee rests on this reader being right:
 * the servers refuse a piece that holds two statements, so a misread text fails instead of running
 * (postgresNoCommit.ts, mysqlNoCommit.ts).
 *
 * It knows the quoting of both dialects: `'…'` strings (`''` inside), `"…"` identifiers, `--` and
 * `/* *\/` comments (nested in PostgreSQL); PostgreSQL's `E'…'` strings with backslash escapes and
 * `$tag$…$tag$` dollar quotes; SQLite's `` `…` `` and `[…]` identifiers. A semicolon splits only outside
 * parentheses (PostgreSQL rules: `DO ALSO (a; b)`) and outside the `BEGIN … END` body of a `CREATE`
 * statement (SQLite `CREATE TRIGGER … BEGIN`, PostgreSQL `BEGIN ATOMIC` function bodies), in which
 * `CASE … END` pairs are counted.
 *
 * MySQL (and MariaDB): `'…'` and `"…"` are strings with backslash escapes, `` `…` `` identifiers,
 * `#` line comments, and `--` starts a comment only when a space or control character follows (so
 * `SELECT 1--1; DROP TABLE t` is two statements, as MySQL reads it); a `/*! … *\/` comment is
 * reported (`executableComment`), since MySQL runs its text; a `BEGIN` opens a body in
 * `CREATE TRIGGER`, `PROCEDURE`, `FUNCTION` and `EVENT` statements.
 */
export type SqlDialect = 'sqlite' | 'postgres' | 'mysql';

export interface SqlStatement {
  /** UTF-16 offsets of the statement in the text, without the closing semicolon. */
  readonly start: number;
  readonly end: number;
  /** The first four words outside comments and quotes, upper-cased (fewer when there are fewer). */
  readonly keywords: readonly string[];
  /** Every word of the statement outside comments and quotes, upper-cased. */
  readonly words: ReadonlySet<string>;
  /** MySQL only: the statement holds a `/*! … *\/` (or MariaDB `/*M! … *\/`) comment, whose text MySQL runs as SQL. */
  readonly executableComment: boolean;
}

/** The statements of `sql` that contain at least one word or symbol (empty ones are dropped). */
export function splitStatements(sql: string, dialect: SqlDialect): SqlStatement[] {
  const statements: SqlStatement[] = [];
  let start = 0;
  let keywords: string[] = [];
  let words = new Set<string>();
  let executableComment = false;
  let hasContent = false;
  let parens = 0;
  let block = 0;
  let wordCount = 0;
  let trigger = false;
  let i = 0;
  const finish = (end: number) => {
    if (hasContent) statements.push({ start, end, keywords, words, executableComment });
    start = end + 1;
    keywords = [];
    words = new Set();
    executableComment = false;
    hasContent = false;
    parens = 0;
    block = 0;
    wordCount = 0;
    trigger = false;
  };
  while (i < sql.length) {
    const c = sql[i] ?? '';
    const next = sql[i + 1] ?? '';
    if (c === ';' && parens === 0 && block === 0) {
      finish(i);
      i++;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (
      (c === '-' && next === '-' && (dialect !== 'mysql' || mysqlCommentAfterDashes(sql, i))) ||
      (dialect === 'mysql' && c === '#')
    ) {
      const eol = sql.indexOf('\n', i);
      i = eol < 0 ? sql.length : eol + 1;
      continue;
    }
    if (c === '/' && next === '*') {
      if (dialect === 'mysql' && (sql[i + 2] === '!' || (sql[i + 2] === 'M' && sql[i + 3] === '!'))) {
        executableComment = true;
        hasContent = true;
      }
      i = skipBlockComment(sql, i, dialect === 'postgres');
      continue;
    }
    hasContent = true;
    if (c === "'" || (dialect === 'mysql' && c === '"')) {
      i = skipQuoted(sql, i, c, dialect === 'mysql');
      continue;
    }
    if (c === '"' || (dialect !== 'postgres' && c === '`')) {
      i = skipQuoted(sql, i, c, false);
      continue;
    }
    if (dialect === 'sqlite' && c === '[') {
      const close = sql.indexOf(']', i + 1);
      i = close < 0 ? sql.length : close + 1;
      continue;
    }
    if (dialect === 'postgres' && c === '$') {
      const tag = /^\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/.exec(sql.slice(i, i + 64));
      if (tag !== null) {
        const close = sql.indexOf(tag[0], i + tag[0].length);
        i = close < 0 ? sql.length : close + tag[0].length;
        continue;
      }
    }
    if (isWordStart(c)) {
      let j = i + 1;
      while (j < sql.length && isWordPart(sql[j] ?? '')) j++;
      const word = sql.slice(i, j).toUpperCase();
      if (dialect === 'postgres' && (word === 'E' || word === 'U&') && sql[j] === "'") {
        i = skipQuoted(sql, j, "'", word === 'E');
        continue;
      }
      if (keywords.length < 4) keywords.push(word);
      words.add(word);
      if (
        wordCount < 3 &&
        (word === 'TRIGGER' || (dialect === 'mysql' && ['PROCEDURE', 'FUNCTION', 'EVENT'].includes(word)))
      )
        trigger = true;
      if (
        word === 'BEGIN' &&
        block === 0 &&
        parens === 0 &&
        keywords[0] === 'CREATE' &&
        opensBlock(sql, j, dialect, trigger)
      )
        block++;
      else if (block > 0 && word === 'CASE') block++;
      else if (block > 0 && word === 'END') block--;
      wordCount++;
      i = j;
      continue;
    }
    if (c === '(') parens++;
    else if (c === ')' && parens > 0) parens--;
    if (keywords.length === 0) keywords.push(c);
    i++;
  }
  finish(sql.length);
  return statements;
}

/** What a statement's leading keywords say about transactions, when they control one. */
const TRANSACTION_CONTROL = new Set(['BEGIN', 'START', 'COMMIT', 'END', 'ROLLBACK', 'ABORT', 'SAVEPOINT', 'RELEASE']);
const ANY_TRANSACTION_WORD = /begin|start|commit|end|rollback|abort|savepoint|release|prepare/i;

/**
 * The first statement of `sql` that controls a transaction (`BEGIN`, `START TRANSACTION`, `COMMIT`,
 * `END`, `ROLLBACK`, `ABORT`, `SAVEPOINT`, `RELEASE`, `PREPARE TRANSACTION`), as its leading
 * keywords (`"COMMIT"`), or undefined when there is none.
 */
export function findTransactionControl(sql: string, dialect: SqlDialect): string | undefined {
  // A keyword is written in one piece: text holding none of them anywhere needs no splitting (the
  // engines ask this of the query and each eval query of every plan).
  if (!ANY_TRANSACTION_WORD.test(sql)) return undefined;
  for (const statement of splitStatements(sql, dialect)) {
    const [first, second] = statement.keywords;
    if (first === undefined) continue;
    if (TRANSACTION_CONTROL.has(first)) return first === 'START' && second !== undefined ? `${first} ${second}` : first;
    if (first === 'PREPARE' && second === 'TRANSACTION') return 'PREPARE TRANSACTION';
  }
  return undefined;
}

/** Why SQL under test may not hold the transaction control `control` (as findTransactionControl names it). */
export function refusedMessage(control: string): string {
  return `${control} is not allowed in SQL under test: EvalLens runs every query in a transaction (or on a copy) that it rolls back, so transaction control is refused`;
}

/** Whether `BEGIN` (ending at `after`) opens a body: in a SQLite trigger, or PostgreSQL's `BEGIN ATOMIC`. */
function opensBlock(sql: string, after: number, dialect: SqlDialect, trigger: boolean): boolean {
  if (dialect !== 'postgres') return trigger;
  return /^\s+ATOMIC\b/i.test(sql.slice(after, after + 64));
}

/** Whether any statement of `sql` starts with one of `words` (upper case). */
export function startsAnyStatement(sql: string, dialect: SqlDialect, words: ReadonlySet<string>): boolean {
  // A keyword is written in one piece, so SQL that does not hold any of the words needs no splitting
  // (the engines ask this of every plan they run, cached or not).
  let anyWord = anyWordPatterns.get(words);
  if (anyWord === undefined) {
    anyWord = new RegExp([...words].map((word) => word.replace(/[^A-Za-z0-9_]/g, '\\$&')).join('|'), 'i');
    anyWordPatterns.set(words, anyWord);
  }
  if (!anyWord.test(sql)) return false;
  return splitStatements(sql, dialect).some((statement) => words.has(statement.keywords[0] ?? ''));
}

const anyWordPatterns = new WeakMap<ReadonlySet<string>, RegExp>();

/** Whether the `--` at `at` starts a MySQL comment: a space or control character (or the end) must follow. */
function mysqlCommentAfterDashes(sql: string, at: number): boolean {
  const after = sql.charCodeAt(at + 2);
  return Number.isNaN(after) || after <= 0x20 || after === 0x7f;
}

function isWordStart(c: string): boolean {
  return /[A-Za-z_\u0080-\uffff]/.test(c);
}

function isWordPart(c: string): boolean {
  return /[A-Za-z0-9_$&\u0080-\uffff]/.test(c);
}

/** Index just past a quoted run that opens at `open` (doubled quotes stay inside; so do `\x` when `backslash`). */
function skipQuoted(sql: string, open: number, quote: string, backslash: boolean): number {
  let i = open + 1;
  while (i < sql.length) {
    const c = sql[i];
    if (backslash && c === '\\') {
      i += 2;
      continue;
    }
    if (c === quote) {
      if (sql[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i++;
  }
  return sql.length;
}

/** Index just past a block comment that opens at `open`; PostgreSQL's nest, SQLite's do not. */
function skipBlockComment(sql: string, open: number, nested: boolean): number {
  let depth = 0;
  let i = open;
  while (i < sql.length) {
    if (sql[i] === '/' && sql[i + 1] === '*') {
      depth = nested ? depth + 1 : 1;
      i += 2;
      continue;
    }
    if (sql[i] === '*' && sql[i + 1] === '/') {
      depth--;
      i += 2;
      if (depth === 0) return i;
      continue;
    }
    i++;
  }
  return sql.length;
}
