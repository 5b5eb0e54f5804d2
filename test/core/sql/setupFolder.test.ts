import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cleanValue, setupSteps, splitAtSemicolons } from '../../../core/sql/setupFolder';
import { openSqlite } from '../../../core/sql/sqliteEngine';
import type { SqlEngine } from '../../../core/sql/sqlResult';

/** The fixture setup folder, in EvalBench's layout: setup/db_blog/{sqlite/*.sql, data/*.csv}. */
const FOLDER = join(__dirname, '../../fixtures/evalbench/datasets/bat_setup/setup/db_blog');

async function rowsOf(engine: SqlEngine, sql: string): Promise<unknown[][]> {
  const run = await engine.run({ setup: [], query: sql, evalQueries: [], cleanup: [] }, { timeoutMs: 10_000 });
  assert.ok(run.query.ok, run.query.ok ? '' : run.query.error);
  return run.query.result.rows.map((row) => [...row]);
}

describe('building an SQLite database from an EvalBench setup folder', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'evallens-setup-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('runs pre_setup, setup, the headerless CSV rows cleaned as EvalBench cleans them, post_setup', async () => {
    const engine = await openSqlite({ setup: setupSteps(FOLDER, 'sqlite') });
    try {
      assert.deepEqual(
        await rowsOf(
          engine,
          'SELECT user_id, first_name, social_media_links, typeof(role_id), active FROM tbl_users ORDER BY user_id',
        ),
        [
          [1, 'John', '{"twitter": "https://twitter.com/johndoe"}', 'integer', 1],
          [2, 'Jane', '{"linkedin": "https://www.linkedin.com/in/janesmith/"}', 'integer', 1],
          [3, 'Alice', null, 'integer', 0],
        ],
      );
      // An empty cell and NULL are NULL; a quoted cell keeps its comma; rows of tbl_posts (inserted before
      // tbl_users) are kept although pre_setup turned foreign keys on: EvalBench inserts on a new connection.
      assert.deepEqual(
        await rowsOf(engine, 'SELECT post_id, title, tags, parent_post_id FROM tbl_posts ORDER BY post_id'),
        [
          [1, 'Introduction to SQL', '["database", "sql"]', null],
          [2, 'Digital Marketing, Strategies', '["marketing"]', null],
          [3, 'Web Development', null, 1],
        ],
      );
    } finally {
      await engine.close();
    }
  });

  it('names the file, line and column of a CSV row whose cell count differs from the first row', async () => {
    const folder = join(scratch, 'bad-row');
    cpSync(FOLDER, folder, { recursive: true });
    writeFileSync(
      join(folder, 'data', 'tbl_users.csv'),
      "1,'John',NULL,'2024-02-27',1,true\n2,'Jane, Smith',NULL,'2024-02-27',2,true\n",
    );
    await assert.rejects(openSqlite({ setup: setupSteps(folder, 'sqlite') }), (e: Error) => {
      assert.equal(
        e.message,
        `${join(folder, 'data', 'tbl_users.csv')}:2:1: expected 6 cells (as in the file's first row), saw 7`,
      );
      return true;
    });
  });

  it('names where a CSV row with an unclosed quote starts', async () => {
    const folder = join(scratch, 'bad-quote');
    cpSync(FOLDER, folder, { recursive: true });
    writeFileSync(
      join(folder, 'data', 'tbl_users.csv'),
      "1,'John',NULL,'2024-02-27',1,true\n2,\"'Jane,NULL,'2024-02-27',2,true\n3,'Al',NULL,'2024-02-27',1,true\n",
    );
    await assert.rejects(openSqlite({ setup: setupSteps(folder, 'sqlite') }), (e: Error) => {
      assert.ok(
        e.message.startsWith(
          `${join(folder, 'data', 'tbl_users.csv')}:2:1: the CSV row that starts here cannot be read: Quote Not Closed`,
        ),
        e.message,
      );
      return true;
    });
  });

  it('names the file, line and column of a failing setup statement, and stops there as EvalBench does', async () => {
    const folder = join(scratch, 'bad-sql');
    cpSync(FOLDER, folder, { recursive: true });
    writeFileSync(
      join(folder, 'sqlite', 'setup.sql'),
      'CREATE TABLE tbl_users (user_id INTEGER);\n\n  CREATE TABLE tbl_posts (post_id INTEGER,);\n',
    );
    await assert.rejects(openSqlite({ setup: setupSteps(folder, 'sqlite') }), (e: Error) => {
      assert.match(
        e.message,
        new RegExp(`^${join(folder, 'sqlite', 'setup.sql').replaceAll('/', '\\/')}:3:3: .*syntax error`),
      );
      return true;
    });
  });

  it('names the row of a value the table refuses', async () => {
    const folder = join(scratch, 'bad-value');
    cpSync(FOLDER, folder, { recursive: true });
    writeFileSync(
      join(folder, 'data', 'tbl_users.csv'),
      "1,'John',NULL,'2024-02-27',1,true\n1,'Again',NULL,'2024-02-27',1,true\n",
    );
    await assert.rejects(
      openSqlite({ setup: setupSteps(folder, 'sqlite') }),
      /tbl_users\.csv:2:1: UNIQUE constraint failed: tbl_users\.user_id \(inserting a row into tbl_users\)$/,
    );
  });

  it('cuts SQL at every semicolon as EvalBench does, with where each statement starts', () => {
    assert.deepEqual(
      splitAtSemicolons('PRAGMA foreign_keys = ON;\n\n  CREATE TABLE t (a);;\nINSERT INTO t VALUES (1)\n'),
      [
        { sql: 'PRAGMA foreign_keys = ON', line: 0, column: 0 },
        { sql: 'CREATE TABLE t (a)', line: 2, column: 2 },
        { sql: 'INSERT INTO t VALUES (1)', line: 3, column: 0 },
      ],
    );
  });

  it("cleans cells as EvalBench's _clean_insert_value does for SQLite", () => {
    assert.deepEqual(['', ' NULL ', 'none', "'x'", "'true'", 'FALSE', "'null'", ' 42 ', "'"].map(cleanValue), [
      null,
      null,
      null,
      'x',
      1,
      0,
      'null',
      '42',
      '',
    ]);
  });
});
