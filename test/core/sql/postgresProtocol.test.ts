import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client } from 'pg';
import { postgresSettingsFromUrl } from '../../../core/sql/postgresEngine';
import { executeOneStatement, transactionStatus } from '../../../core/sql/postgresProtocol';
import { PG_MISSING, PG_URL } from './engines';

/**
 * What the no-commit rule needs from node-postgres (postgresProtocol.ts): if an upgrade of `pg` stops
 * sending `queryMode: 'extended'` as Parse/Bind/Execute, or stops tracking ReadyForQuery's status or
 * the command tag, this fails.
 */
describe('node-postgres as the no-commit rule uses it', () => {
  it('sends one statement by the extended protocol (two are refused), with the command tag and the ReadyForQuery status', async (t) => {
    if (PG_URL === undefined) return t.skip(PG_MISSING);
    const client = new Client(postgresSettingsFromUrl(PG_URL));
    await client.connect();
    try {
      const types = { getTypeParser: () => (text: string) => text } as never;
      await assert.rejects(
        executeOneStatement(client, 'SELECT 1; SELECT 2', types),
        /cannot insert multiple commands into a prepared statement/,
      );
      assert.equal(transactionStatus(client), 'I');
      assert.equal((await executeOneStatement(client, 'BEGIN', types)).command, 'BEGIN');
      assert.equal(transactionStatus(client), 'T');
      const rows = await executeOneStatement(client, "SELECT 1 AS a, 'x' AS b", types);
      assert.deepEqual([rows.command, rows.fields.map((f) => f.name), rows.rows], ['SELECT', ['a', 'b'], [['1', 'x']]]);
      await assert.rejects(executeOneStatement(client, 'SELECT nope', types));
      await executeOneStatement(client, 'SELECT 1', types).catch(() => undefined);
      assert.equal(transactionStatus(client), 'E');
      assert.equal((await executeOneStatement(client, 'ROLLBACK AND CHAIN', types)).command, 'ROLLBACK');
      assert.equal(transactionStatus(client), 'T', 'ROLLBACK AND CHAIN opens a new transaction: only the tag tells');
      assert.equal((await executeOneStatement(client, 'COMMIT', types)).command, 'COMMIT');
      assert.equal(transactionStatus(client), 'I');
    } finally {
      await client.end();
    }
  });
});
