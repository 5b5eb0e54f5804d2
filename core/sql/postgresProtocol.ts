import type { ClientBase, CustomTypesConfig, QueryArrayConfig, QueryArrayResult } from 'pg';

/**
 * The two things of node-postgres the no-commit rule leans on, in one place so that a change of the
 * package shows up in one test (test/core/sql/postgresProtocol.test.ts):
 *
 * - `queryMode: 'extended'`: the statement goes as Parse / Bind / Execute, and the server refuses a
 *   Parse that holds more than one statement ("cannot insert multiple commands into a prepared
 *   statement"). So a piece of SQL that EvalLens's splitter read as one statement but the server
 *   reads as several (`COMMIT; BEGIN` hidden from the splitter by a quoting it misread) fails
 *   instead of running. pg sends a query with no values by the simple protocol, which runs any
 *   number of statements; the option is not in @types/pg, hence the cast here.
 * - `getTransactionStatus()` (public, typed): the status of the server's last ReadyForQuery — `T` in
 *   a transaction, `E` in a failed one, `I` idle (no transaction: the one EvalLens opened has ended).
 */
export type TransactionStatus = 'I' | 'T' | 'E' | null;

/** One statement through the extended protocol, rows as arrays; the result's `command` is the server's command tag. */
export async function executeOneStatement(
  client: ClientBase,
  sql: string,
  types: CustomTypesConfig,
  readTimeoutMs?: number,
): Promise<QueryArrayResult> {
  const config: QueryArrayConfig & { queryMode: 'extended'; query_timeout?: number } = {
    text: sql,
    rowMode: 'array',
    types,
    queryMode: 'extended',
  };
  if (readTimeoutMs !== undefined) config.query_timeout = readTimeoutMs;
  const result: unknown = await client.query(config);
  // The extended protocol answers one result; an array would mean several statements ran.
  if (Array.isArray(result))
    throw new Error('the PostgreSQL driver ran several statements for one extended-protocol query');
  return result as QueryArrayResult;
}

/** The transaction status the server reported in its last ReadyForQuery. */
export function transactionStatus(client: ClientBase): TransactionStatus {
  return client.getTransactionStatus();
}
