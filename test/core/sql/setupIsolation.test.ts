import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import initSqlJs from 'sql.js';
import { openPostgres } from '../../../core/sql/postgresEngine';
import { setupInOuterTransaction } from '../../../core/sql/setupTransactions';
import type { SqlEngine } from '../../../core/sql/sqlResult';
import { openSqlite } from '../../../core/sql/sqliteEngine';
import {
  createPostgresDatabase,
  ENGINE_KINDS,
  errorOf,
  fixtureSql,
  LIMIT,
  PG_MISSING,
  PG_URL,
  plan,
  rowsOf,
  withClient,
  type EngineKind,
} from './engines';

describe('setup SQL with its own transaction control', () => {
  it('becomes savepoints inside the outer transaction; COMMIT or ROLLBACK with none open does nothing', () => {
    assert.deepEqual(setupInOuterTransaction('BEGIN TRANSACTION; CREATE TABLE t (x INT); COMMIT;', 'sqlite'), {
      sql: 'SAVEPOINT evallens_setup_1; CREATE TABLE t (x INT); RELEASE SAVEPOINT evallens_setup_1;',
    });
    assert.deepEqual(
      setupInOuterTransaction(
        "START TRANSACTION ISOLATION LEVEL SERIALIZABLE; DELETE FROM t; ROLLBACK; INSERT INTO t VALUES ('COMMIT'); END",
        'postgres',
      ),
      {
        sql: "SAVEPOINT evallens_setup_1; DELETE FROM t; ROLLBACK TO SAVEPOINT evallens_setup_1; RELEASE SAVEPOINT evallens_setup_1; INSERT INTO t VALUES ('COMMIT'); ",
      },
    );
    assert.deepEqual(setupInOuterTransaction('COMMIT; DROP TABLE t', 'postgres'), { sql: ' DROP TABLE t' });
    assert.deepEqual(
      setupInOuterTransaction('END; DELETE FROM t; COMMIT', 'mysql'),
      { sql: ' DELETE FROM t; ' },
      'no empty statement is left: MySQL refuses one',
    );
    assert.deepEqual(setupInOuterTransaction('SAVEPOINT a; DELETE FROM t; ROLLBACK TO a; RELEASE a', 'sqlite'), {
      sql: 'SAVEPOINT a; DELETE FROM t; ROLLBACK TO a; RELEASE a',
    });
    assert.deepEqual(
      setupInOuterTransaction('CREATE TRIGGER tr AFTER INSERT ON t BEGIN DELETE FROM u; END; BEGIN; END', 'sqlite'),
      {
        sql: 'CREATE TRIGGER tr AFTER INSERT ON t BEGIN DELETE FROM u; END; SAVEPOINT evallens_setup_1; RELEASE SAVEPOINT evallens_setup_1',
      },
    );
    assert.match(
      setupInOuterTransaction("PREPARE TRANSACTION 'x'", 'postgres').refused ?? '',
      /^PREPARE TRANSACTION is not allowed in setup or cleanup SQL/,
    );
    assert.match(
      setupInOuterTransaction("COMMIT PREPARED 'x'", 'postgres').refused ?? '',
      /^COMMIT PREPARED is not allowed/,
    );
  });
});

/** A database in a place the test can read again from outside the engine: a file, or a PostgreSQL database. */
interface Place {
  readonly engine: SqlEngine;
  /** The customers as a fresh connection (a fresh read of the file) sees them. */
  customersFromOutside(): Promise<unknown>;
  close(): Promise<void>;
}

async function openPlace(kind: EngineKind): Promise<Place | undefined> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'evallens-setup-'));
    const file = join(dir, 'shop.db');
    writeFileSync(file, await sqliteBytes(fixtureSql('sqlite')));
    const bytes = readFileSync(file);
    const engine = await openSqlite({ file });
    return {
      engine,
      async customersFromOutside() {
        assert.ok(readFileSync(file).equals(bytes), 'the database file is unchanged');
        const fresh = await openSqlite({ file });
        try {
          return rowsOf((await fresh.run(plan('SELECT id, name FROM customers ORDER BY id'), LIMIT)).query);
        } finally {
          await fresh.close();
        }
      },
      close: async () => {
        await engine.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  if (PG_URL === undefined) return undefined;
  const database = await createPostgresDatabase(fixtureSql('postgres'));
  const engine = await openPostgres(database.settings, { allowSuperuser: true });
  return {
    engine,
    customersFromOutside: () =>
      withClient(
        database.settings,
        async (c) => (await c.query({ text: 'SELECT id, name FROM customers ORDER BY id', rowMode: 'array' })).rows,
      ),
    close: async () => {
      await engine.close();
      await database.drop();
    },
  };
}

/** The bytes of an SQLite database built from `sql` (sql.js in this thread; only the test builds files). */
async function sqliteBytes(sql: string): Promise<Uint8Array> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  try {
    db.exec(sql);
    return db.export();
  } finally {
    db.close();
  }
}

const CUSTOMERS = [
  [1, 'Ada'],
  [2, 'Grace'],
  [3, 'Linus'],
  [4, 'Margaret'],
  [5, 'Alan'],
  [6, 'Barbara'],
];

for (const kind of ENGINE_KINDS) {
  describe(`${kind}: setup transaction control runs inside EvalLens's isolation`, () => {
    let place: Place | undefined;
    before(async () => {
      place = await openPlace(kind);
    });
    after(async () => place?.close());
    const test = (name: string, body: (place: Place) => Promise<void>) =>
      it(name, async (t) => {
        if (place === undefined) return t.skip(PG_MISSING);
        await body(place);
      });

    test('BEGIN TRANSACTION … COMMIT in setup runs its statements, and the run leaves nothing behind', async ({
      engine,
      customersFromOutside,
    }) => {
      const setup =
        'BEGIN TRANSACTION; CREATE TABLE customers_new (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO customers_new SELECT id, name FROM customers; DROP TABLE customers; ALTER TABLE customers_new RENAME TO customers; COMMIT;';
      const run = await engine.run(
        plan('SELECT count(*) FROM customers', {
          setup: [setup, 'BEGIN; DELETE FROM customers WHERE id > 2; ROLLBACK'],
          evalQueries: ['SELECT count(*) FROM customers_new'],
        }),
        LIMIT,
      );
      assert.equal(run.setupErrors, undefined);
      assert.deepEqual(
        rowsOf(run.query),
        [[6]],
        'the rebuilt table holds every row; the rolled-back DELETE removed none',
      );
      assert.match(errorOf(run.evalQueries?.[0]), /customers_new/, 'the rename ran');
      assert.deepEqual(await customersFromOutside(), CUSTOMERS);
    });

    test('an attacker COMMIT; DROP TABLE in setup or in generated SQL changes nothing', async ({
      engine,
      customersFromOutside,
    }) => {
      const inSetup = await engine.run(
        plan('SELECT count(*) FROM orders', {
          setup: ['COMMIT; DROP TABLE customers', 'END; DELETE FROM orders; COMMIT'],
          evalQueries: ['SELECT count(*) FROM customers'],
        }),
        LIMIT,
      );
      assert.deepEqual(rowsOf(inSetup.query), [[0]]);
      assert.match(errorOf(inSetup.evalQueries?.[0]), /customers/, 'the table was dropped inside the run only');
      const generated = await engine.run(
        plan('COMMIT; DROP TABLE customers', { evalQueries: ['SELECT count(*) FROM customers'] }),
        LIMIT,
      );
      assert.match(errorOf(generated.query), /^COMMIT is not allowed in SQL under test/);
      assert.deepEqual(rowsOf(generated.evalQueries?.[0]), [[6]]);
      const prepared = await engine.run(
        plan('SELECT count(*) FROM customers', { setup: ["DELETE FROM customers; PREPARE TRANSACTION 'evil'"] }),
        LIMIT,
      );
      assert.deepEqual(rowsOf(prepared.query), [[6]], 'a refused setup statement does not run; the case goes on');
      assert.match(
        prepared.setupErrors?.[0] ?? '',
        /^setup_sql #1 failed and was rolled back; .*PREPARE TRANSACTION is not allowed/,
      );
      assert.deepEqual(await customersFromOutside(), CUSTOMERS);
    });
  });
}
