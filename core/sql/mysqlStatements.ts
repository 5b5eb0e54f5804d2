import { refusedMessage, splitStatements } from './sqlStatements';

/**
 * What MySQL (and MariaDB) may run inside the transaction EvalLens rolls back, beyond the rules every
 * engine follows (planRules.ts: transaction control in setup becomes savepoints, and in SQL under
 * test it is refused). MySQL commits the open transaction at once, before and after, for DDL and a
 * few other statements (its "implicit commit": CREATE, ALTER, DROP, RENAME, TRUNCATE, GRANT, LOCK
 * TABLES, LOAD DATA, CALL of a procedure that commits, …), so a rolled-back transaction cannot contain
 * them: they would change the database for good. The MySQL engine therefore runs only statements
 * that stay inside a transaction — SELECT, WITH, INSERT, UPDATE, DELETE, REPLACE, VALUES, TABLE, SHOW,
 * DESCRIBE, EXPLAIN, DO, and CREATE/DROP TEMPORARY TABLE (no implicit commit, gone with the
 * connection) — and refuses the rest with the reason, in setup, query, eval queries and cleanup alike:
 *
 * - XA transactions: they act outside the transaction EvalLens rolls back;
 * - SET: `SET autocommit = 1` commits, and SET changes the session EvalLens isolates;
 * - `SELECT … INTO OUTFILE / DUMPFILE`: writes a file on the server;
 * - `/*! … *\/` comments: MySQL runs their text as SQL, which this reader does not look into.
 *
 * Setup and cleanup may also hold the savepoint statements their transaction control was rewritten
 * into (SAVEPOINT, RELEASE SAVEPOINT, ROLLBACK TO): they never end the outer transaction.
 *
 * Statements are read by sqlStatements.ts with MySQL's quoting (`'…'` and `"…"` strings with
 * backslash escapes, `` `…` `` identifiers, `#` comments, and `-- ` comments only when a space
 * follows the dashes, as MySQL reads them).
 */

const RUNS = new Set([
  'SELECT',
  'WITH',
  'INSERT',
  'UPDATE',
  'DELETE',
  'REPLACE',
  'VALUES',
  'TABLE',
  'SHOW',
  'DESCRIBE',
  'DESC',
  'EXPLAIN',
  'DO',
  '(',
]);
const TRANSACTION_CONTROL = new Set(['BEGIN', 'START', 'COMMIT', 'END', 'ROLLBACK', 'SAVEPOINT', 'RELEASE', 'XA']);
const DDL = new Set(['CREATE', 'ALTER', 'DROP', 'RENAME', 'TRUNCATE']);

/** Why the DDL statement `first` is refused on MySQL. */
function ddlMessage(first: string): string {
  return `${first} is not run on MySQL: MySQL commits DDL at once (an implicit commit), so it would change the database for good; EvalLens runs MySQL cases in a transaction it rolls back, so DDL is refused (run DDL cases on PostgreSQL or SQLite)`;
}

/**
 * Why MySQL SQL may not run in EvalLens's transaction, or undefined when it may. `place`: SQL under
 * test, or setup/cleanup SQL whose transaction control has already become savepoints (planRules.ts).
 */
export function mysqlRefusal(sql: string, place: 'setup' | 'under test' = 'under test'): string | undefined {
  const where = place === 'setup' ? 'setup or cleanup SQL' : 'SQL under test';
  for (const statement of splitStatements(sql, 'mysql')) {
    const [first = '', second = '', third = '', fourth = ''] = statement.keywords;
    if (statement.executableComment)
      return `a /*! … */ comment is not allowed in ${where} on MySQL: MySQL runs its text as SQL, which EvalLens cannot check`;
    if (place === 'setup' && isSavepointStatement(first, [second, third, fourth])) continue;
    if (TRANSACTION_CONTROL.has(first)) {
      const control = first === 'START' || first === 'XA' ? `${first} ${second}`.trim() : first;
      return place === 'setup'
        ? `${control} is not allowed in setup or cleanup SQL on MySQL: it acts outside the transaction EvalLens rolls back`
        : refusedMessage(control);
    }
    if (first === 'SET')
      return `SET is not allowed in ${where} on MySQL: \`SET autocommit\` would commit, and SET changes the session EvalLens runs the case in`;
    if (statement.words.has('OUTFILE') || statement.words.has('DUMPFILE'))
      return `INTO OUTFILE / DUMPFILE is not allowed in ${where}: it writes a file on the database server`;
    if ((first === 'CREATE' || first === 'DROP') && second === 'TEMPORARY' && third === 'TABLE') continue;
    if (!RUNS.has(first)) {
      return DDL.has(first)
        ? ddlMessage(first)
        : `${first} is not run on MySQL: it is not a query or DML statement, and MySQL may commit it at once (an implicit commit); EvalLens runs MySQL cases in a transaction it rolls back, so it is refused`;
    }
  }
  return undefined;
}

/** SAVEPOINT x, RELEASE SAVEPOINT x, ROLLBACK [WORK] TO [SAVEPOINT] x: they stay inside the transaction. */
function isSavepointStatement(first: string, rest: readonly string[]): boolean {
  if (first === 'SAVEPOINT') return true;
  if (first === 'RELEASE') return rest[0] === 'SAVEPOINT';
  return first === 'ROLLBACK' && rest.includes('TO');
}

/**
 * Why a NL2SQL item cannot be scored on MySQL, or undefined when it can: a DDL item (EvalBench's
 * `query_type: ddl`), or golden SQL that holds DDL, would change the database for good, so EvalLens
 * refuses to run it. The case is then an `error` with this reason, not a 0 for "both queries failed".
 */
export function mysqlItemRefusal(queryType: string, goldenSql: string): string | undefined {
  const ddl = splitStatements(goldenSql, 'mysql').find(
    (s) => DDL.has(s.keywords[0] ?? '') && s.keywords[1] !== 'TEMPORARY',
  );
  if (queryType !== 'ddl' && ddl === undefined) return undefined;
  const what = queryType === 'ddl' ? 'a DDL item (query_type ddl)' : 'an item whose golden SQL holds DDL';
  return `${what} cannot be scored on MySQL: ${ddlMessage(ddl?.keywords[0] ?? 'DDL')}`;
}
