import { splitStatements, type SqlDialect } from './sqlStatements';

/**
 * Setup and cleanup SQL that manages its own transactions, run inside the transaction (PostgreSQL)
 * or on the copy (SQLite) that EvalLens rolls back. EvalBench's own datasets do this: BAT's SQLite
 * setup rebuilds a table between `BEGIN TRANSACTION;` and `COMMIT;`.
 *
 * Each transaction-control statement of the text is rewritten, so the statements between them
 * still run, all-or-nothing as their author meant, but nothing can end EvalLens's transaction:
 *
 * | statement                                              | becomes                                    |
 * |--------------------------------------------------------|--------------------------------------------|
 * | `BEGIN …`, `START TRANSACTION …`                       | `SAVEPOINT evallens_setup_<n>`             |
 * | `COMMIT …`, `END …` after one of those                 | `RELEASE SAVEPOINT evallens_setup_<n>`     |
 * | `ROLLBACK`, `ABORT` after one of those                 | `ROLLBACK TO SAVEPOINT …; RELEASE SAVEPOINT …` |
 * | `COMMIT`, `END`, `ROLLBACK`, `ABORT` with none open     | nothing, its `;` included (as in autocommit, where they do nothing) |
 * | `SAVEPOINT x`, `RELEASE x`, `ROLLBACK TO x`             | kept: they never end the outer transaction  |
 * | `PREPARE TRANSACTION`, `COMMIT PREPARED`, `ROLLBACK PREPARED` | refused: they act outside the session |
 *
 * SQL under test (generated and golden queries, eval queries) gets none of this: any transaction
 * control in it stays refused (planRules.ts).
 */
export type RewrittenSetup =
  { readonly sql: string; readonly refused?: undefined } | { readonly sql: string; readonly refused: string };

const SAVEPOINT_PREFIX = 'evallens_setup_';

export function setupInOuterTransaction(sql: string, dialect: SqlDialect): RewrittenSetup {
  const pieces: string[] = [];
  const open: string[] = [];
  let opened = 0;
  let cursor = 0;
  let changed = false;
  for (const statement of splitStatements(sql, dialect)) {
    const [first = '', second = '', third = '', fourth = ''] = statement.keywords;
    const replacement = ((): string | undefined | { refused: string } => {
      if (
        (first === 'PREPARE' && second === 'TRANSACTION') ||
        (['COMMIT', 'ROLLBACK'].includes(first) && second === 'PREPARED')
      ) {
        return {
          refused: `${first} ${second} is not allowed in setup or cleanup SQL: it acts outside the transaction EvalLens rolls back`,
        };
      }
      if (first === 'BEGIN' || (first === 'START' && second === 'TRANSACTION')) {
        const name = `${SAVEPOINT_PREFIX}${++opened}`;
        open.push(name);
        return `SAVEPOINT ${name}`;
      }
      if (first === 'COMMIT' || first === 'END') {
        const name = open.pop();
        return name === undefined ? '' : `RELEASE SAVEPOINT ${name}`;
      }
      if ((first === 'ROLLBACK' || first === 'ABORT') && ![second, third, fourth].includes('TO')) {
        const name = open.pop();
        return name === undefined ? '' : `ROLLBACK TO SAVEPOINT ${name}; RELEASE SAVEPOINT ${name}`;
      }
      return undefined;
    })();
    if (replacement === undefined) continue;
    if (typeof replacement !== 'string') return { sql, refused: replacement.refused };
    const lead = /^\s*/.exec(sql.slice(statement.start, statement.end))?.[0].length ?? 0;
    pieces.push(sql.slice(cursor, statement.start + lead), replacement);
    // A statement that becomes nothing goes with its semicolon: MySQL refuses an empty statement.
    cursor = replacement === '' && sql[statement.end] === ';' ? statement.end + 1 : statement.end;
    changed = true;
  }
  if (!changed) return { sql };
  pieces.push(sql.slice(cursor));
  return { sql: pieces.join('') };
}
