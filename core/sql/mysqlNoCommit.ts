import type { ServerSettings } from './databaseConfig';

/**
 * Why SQL run on MySQL or MariaDB can never commit, beyond refusing what MySQL commits at once
 * (mysqlStatements.ts), at the server's word (mysqlEngine.ts applies each):
 *
 * - One statement per query: the connection never sets CLIENT_MULTI_STATEMENTS, so the server
 *   refuses a text with two statements. A piece EvalLens's splitter misread fails; it never runs a
 *   hidden `COMMIT` or DDL after the statement EvalLens checked.
 * - The transaction status after each statement: MySQL's OK packet carries SERVER_STATUS_IN_TRANS.
 *   EvalLens opens its transaction with START TRANSACTION (autocommit off); a statement after which
 *   the flag is gone ended it — an implicit commit or a rollback — so the case stops with the reason
 *   and the connection is dropped (never reused). After rows, whose closing flags mysql2 does not
 *   give, a `DO 0` asks for them: it starts no transaction of its own.
 * - The account: SUPER (or ALL PRIVILEGES on *.*) can change the server's settings and bypass
 *   read_only, FILE reads and writes files on the server (`SELECT … INTO OUTFILE`, `LOAD DATA`,
 *   `LOAD_FILE`). Such an account is refused unless the database config says `allow_superuser: true`.
 */

/** SERVER_STATUS_IN_TRANS: a transaction is open. */
const IN_TRANSACTION = 1;

/** Why the run stops after a statement, from the server's status flags, or undefined while the transaction is open. */
export function mysqlTransactionEnded(serverStatus: number | undefined): string | undefined {
  if (serverStatus === undefined || (serverStatus & IN_TRANSACTION) !== 0) return undefined;
  return 'the server reports no open transaction after this statement: it ended the transaction EvalLens opened (MySQL commits DDL and a few other statements at once); the case stopped here and its connection was closed';
}

/** Global rights that reach past a rolled-back transaction. */
const RISKY = /\b(ALL PRIVILEGES|SUPER|FILE)\b/;

/** Why an account with these grants (SHOW GRANTS's lines) may not run SQL under test, or undefined. */
export function mysqlRightsRefusal(settings: ServerSettings, grants: readonly string[]): string | undefined {
  const global = grants.filter((line) => / ON \*\.\* /.test(line));
  const rights = [
    ...new Set(
      global.flatMap((line) =>
        [...line.slice(0, line.indexOf(' ON *.* ')).matchAll(new RegExp(RISKY, 'g'))].map((m) => m[1] ?? ''),
      ),
    ),
  ];
  if (rights.length === 0) return undefined;
  return `the MySQL user "${settings.user}" (database "${settings.database}") has ${rights.join(', ')} on *.*: SQL under test could write files on the server or change its settings, which no rollback undoes. Connect as a user without these rights (a read-only user is best; see docs/databases.md), or set \`allow_superuser: true\` in the database config to accept the risk`;
}
