import { randomBytes } from 'node:crypto';
import type { SqlPlace } from './runGuardedPlan';
import type { SqlStatement } from './sqlStatements';

/**
 * Why SQL run on PostgreSQL can never commit, at the server's word rather than EvalLens's reading of
 * the text (postgresEngine.ts applies each layer):
 *
 * 1. One statement per message: every statement goes alone through the extended protocol
 *    (postgresProtocol.ts), which the server refuses for more than one statement. Where EvalLens's
 *    splitter and the server disagree on where a statement ends (`standard_conforming_strings = off`
 *    escapes, a `BEGIN ATOMIC` it misreads), the piece fails; it never runs two statements.
 * 2. Because the server vouches that a piece is one statement, its leading keywords are what the
 *    server runs: transaction control in SQL under test is refused before it runs (planRules.ts).
 * 3. A commit guard: when the transaction opens, a temporary table with a random name gets a row
 *    and a deferred constraint trigger on it whose function (the built-in
 *    suppress_redundant_updates_trigger, which no role can replace) fails when it fires, at COMMIT
 *    or PREPARE TRANSACTION. So a COMMIT that got past 1 and 2 fails, and the server rolls back.
 *    Deleting the row does not help (the event is queued); the table cannot be dropped or altered
 *    while the event is pending; only its random name would let SQL drop the trigger.
 * 4. After every statement, the command tag and the transaction status of the server's
 *    ReadyForQuery: a transaction-control tag (`COMMIT`, `ROLLBACK` — `ROLLBACK AND CHAIN` stays in a
 *    transaction —, `BEGIN`, `SAVEPOINT`, `RELEASE`, …) in SQL under test, or a status other than "in
 *    a transaction", stops the case with the reason, and the connection is closed, never reused.
 * 5. The role: a superuser (or a member of pg_execute_server_program, pg_write_server_files,
 *    pg_read_server_files, or of a superuser role; or a CREATEROLE role, which can grant itself
 *    those) can run programs and write files on the server
 *    (`COPY … TO PROGRAM`), which no rollback undoes. Such a role is refused unless the database
 *    config says `allow_superuser: true`. `COPY` is refused in SQL under test and setup whatever the
 *    role (it reads and writes files on the server, or needs a stream EvalLens does not give).
 */

/** Tags (as node-postgres gives a CommandComplete's first word) of statements that control transactions. */
const TRANSACTION_TAGS = new Set(['BEGIN', 'START', 'COMMIT', 'ROLLBACK', 'SAVEPOINT', 'RELEASE', 'PREPARE']);

/** The SQL that opens a run's commit guard (layer 3), with a name of its own for each run. */
export function commitGuardSql(): string {
  const name = `evallens_commit_guard_${randomBytes(8).toString('hex')}`;
  return [
    `CREATE TEMPORARY TABLE ${name} (x int)`,
    `CREATE CONSTRAINT TRIGGER ${name} AFTER INSERT ON ${name} DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pg_catalog.suppress_redundant_updates_trigger()`,
    `INSERT INTO ${name} VALUES (1)`,
  ].join('; ');
}

/**
 * The roles the run's role is (or is a member of) that reach past the transaction: a superuser, a
 * role that runs programs or reads/writes server files, or one that may create roles (CREATEROLE
 * can grant itself pg_execute_server_program, then run `COPY … TO PROGRAM` from a DO block).
 * Rows: name, superuser, createrole.
 */
export const ROLE_RIGHTS_SQL = `SELECT r.rolname::text AS name, r.rolsuper AS superuser, r.rolcreaterole AS createrole
FROM pg_catalog.pg_roles r
WHERE pg_catalog.pg_has_role(current_user, r.oid, 'MEMBER')
  AND (r.rolsuper OR r.rolcreaterole OR r.rolname IN ('pg_execute_server_program', 'pg_write_server_files', 'pg_read_server_files'))
ORDER BY r.rolsuper DESC, 1`;

export interface RoleRight {
  readonly name: string;
  readonly superuser: boolean;
  readonly createrole: boolean;
}

/** Why a role with these rights (ROLE_RIGHTS_SQL's rows, at least one) may not run SQL under test. */
export function superuserRefusal(user: string, database: string, rights: readonly RoleRight[]): string {
  // A superuser is a member of every role: saying so is enough.
  const own = rights.find((right) => right.name === user && right.superuser);
  const what = (own === undefined ? rights : [own]).map((right) => {
    const kind = right.superuser ? 'a superuser' : right.createrole ? 'may create roles (CREATEROLE)' : undefined;
    if (right.name === user)
      return kind === undefined ? `is ${right.name}` : kind.startsWith('may') ? kind : `is ${kind}`;
    return kind === undefined
      ? `is a member of ${right.name}`
      : `is a member of ${right.name}, which ${kind.startsWith('may') ? kind : `is ${kind}`}`;
  });
  return `the PostgreSQL user "${user}" (database "${database}") ${what.join(', ')}: SQL under test could run programs and write files on the server (COPY … TO PROGRAM), which no rollback undoes. Connect as a role without these rights (a read-only role is best; see docs/databases.md), or set \`allow_superuser: true\` in the database config to accept the risk`;
}

/** Why SQL under test (or setup) may not hold this statement on PostgreSQL, from its leading keywords. */
export function postgresStatementRefusal(statement: SqlStatement, place: SqlPlace): string | undefined {
  if (statement.keywords[0] === 'COPY') {
    return `COPY is not allowed in ${place === 'setup' ? 'setup or cleanup SQL' : 'SQL under test'} on PostgreSQL: it reads or writes files, or runs programs, on the database server`;
  }
  return undefined;
}

/**
 * Why the run must stop after a statement ran (layer 4), or undefined: its command tag is
 * transaction control that SQL under test may not hold (setup may hold savepoint statements, which its
 * own transaction control was rewritten into), or the server no longer reports a transaction.
 */
export function transactionChange(
  tag: string | null,
  status: string | null,
  statement: SqlStatement,
  place: SqlPlace,
): string | undefined {
  if (tag !== null && TRANSACTION_TAGS.has(tag) && !(place === 'setup' && isSavepointStatement(statement))) {
    return `the server ran ${tag}, which controls the transaction EvalLens rolls back; the case stopped here and its connection was closed`;
  }
  if (status !== 'T') return transactionEnded(status);
  return undefined;
}

/** Why the run stopped when the server reports no open transaction (after a statement, or a failed COMMIT). */
export function transactionEnded(status: string | null): string {
  const what =
    status === 'I' || status === null
      ? 'the server reports no transaction after this statement: the SQL ended the transaction EvalLens opened'
      : 'EvalLens could not roll back to its savepoint after this statement (the SQL released it, or ended the transaction EvalLens opened)';
  return `${what}; the case stopped here and its connection was closed`;
}

/** `SAVEPOINT x`, `RELEASE [SAVEPOINT] x`, `ROLLBACK [WORK | TRANSACTION] TO [SAVEPOINT] x`. */
function isSavepointStatement(statement: SqlStatement): boolean {
  const [first, ...rest] = statement.keywords;
  if (first === 'SAVEPOINT' || first === 'RELEASE') return true;
  return first === 'ROLLBACK' && rest.includes('TO');
}
