import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { EvalCase, Json } from '../../../core/case';
import { sqlExactMatch } from '../../../core/scorers/builtin/sql/exactMatch';
import { nl2sqlPreparer } from '../../../core/sql/nl2sqlPreparer';
import { firstStatement, sanitizeGeneratedSql } from '../../../core/sql/sanitizeSql';
import { score } from '../../support/scoring';
import { ENGINE_KINDS, errorOf, onEngine, openFixture, rowsOf, type Fixture } from './engines';

describe("generated SQL as EvalBench's sanitize_sql prepares it", () => {
  it('removes ```sql and ``` fences anywhere, and trims', () => {
    assert.equal(sanitizeGeneratedSql('```sql\nSELECT 1\n```'), 'SELECT 1');
    assert.equal(sanitizeGeneratedSql('Here it is:\n```\nSELECT 1;\n```\n'), 'Here it is:\n\nSELECT 1;');
    assert.equal(
      sanitizeGeneratedSql('  ```SQL\nSELECT 1```'),
      'SQL\nSELECT 1',
      '```SQL is not ```sql: only the backticks go, as in EvalBench',
    );
  });

  it('also removes what EvalBench removes: sql: ", escaped newlines, double spaces, google_sql, backslashes, and backticks when the config names a dialect', () => {
    assert.equal(sanitizeGeneratedSql('sql: "SELECT a,\\nb FROM `t`"', { dialect: 'sqlite' }), 'SELECT a, b FROM t"');
    assert.equal(
      sanitizeGeneratedSql("SELECT  'a    b' FROM google_sql.t WHERE x = 'it\\'s'"),
      "SELECT'ab' FROM .t WHERE x = 'it's'",
    );
  });

  it("keeps backticks when the run config names no `dialect` (EvalBench's sanitize_sql gets None), unescapes them for googlesql, and leaves the SQL as recorded with NOOPGenerator", () => {
    assert.equal(
      sanitizeGeneratedSql('SELECT MAX(`Enrollment (K-12)`) FROM frpm'),
      'SELECT MAX(`Enrollment (K-12)`) FROM frpm',
    );
    assert.equal(
      sanitizeGeneratedSql('SELECT MAX(`Enrollment (K-12)`) FROM frpm', { dialect: 'postgres' }),
      'SELECT MAX(Enrollment (K-12)) FROM frpm',
    );
    assert.equal(
      sanitizeGeneratedSql('SELECT \\`a\\` FROM t WHERE b = \\"x\\"', { dialect: 'googlesql' }),
      'SELECT `a` FROM t WHERE b = "x"',
    );
    assert.equal(
      sanitizeGeneratedSql('```sql\nSELECT  1\n```', { dialect: 'postgres', promptGenerator: 'NOOPGenerator' }),
      '```sql\nSELECT  1\n```',
    );
    assert.equal(
      sanitizeGeneratedSql('```sql\nSELECT 1\n```', { dialect: 'googlesql', promptGenerator: 'NOOPGenerator' }),
      'SELECT 1',
      'NOOPGenerator with googlesql still cleans up',
    );
  });

  it('takes the first statement as sqlparse.split()[0] does: semicolons in strings and comments do not split', () => {
    assert.equal(firstStatement("SELECT ';' AS a; SELECT 2", 'sqlite'), "SELECT ';' AS a");
    assert.equal(
      firstStatement('-- why; because\nSELECT 1 /* ; */; DROP TABLE t;', 'postgres'),
      '-- why; because\nSELECT 1 /* ; */',
    );
    assert.equal(firstStatement('SELECT $$a;b$$; SELECT 2', 'postgres'), 'SELECT $$a;b$$');
    assert.equal(firstStatement(' ; ', 'sqlite'), undefined);
  });

  it("gives docs/nl2sql.md's worked example: fences gone, first statement only", () => {
    const answer =
      "```sql\nSELECT name FROM customers WHERE id = 1; -- the customer\nSELECT 'and here is a second query';\n```\n";
    assert.equal(firstStatement(sanitizeGeneratedSql(answer), 'sqlite'), 'SELECT name FROM customers WHERE id = 1');
  });
});

function nl2sqlCase(output: string, expected: { [key: string]: Json }): EvalCase {
  return { id: 'c', input: 'q', output, expected };
}

for (const kind of ENGINE_KINDS) {
  describe(`${kind}: NL2SQL cases run as EvalBench runs them`, () => {
    let fixture: Fixture | undefined;
    before(async () => {
      fixture = await openFixture(kind);
    });
    after(async () => fixture?.close());
    const test = (name: string, body: Parameters<typeof onEngine>[1]) =>
      it(
        name,
        onEngine(() => fixture, body),
      );
    const prepare = async (engine: Parameters<Parameters<typeof onEngine>[1]>[0], evalCase: EvalCase) => {
      const prepared = await nl2sqlPreparer(engine, { timeoutMs: 10_000 }).prepare(
        evalCase,
        new AbortController().signal,
      );
      assert.ok(prepared.sql !== undefined);
      return prepared;
    };

    test('fenced generated SQL runs once the fences are removed, and scores as the golden query', async (engine) => {
      const prepared = await prepare(
        engine,
        nl2sqlCase('```sql\nSELECT count(*) FROM customers;\n```', {
          golden_sql: ['SELECT count(*) FROM customers;'],
          query_type: 'dql',
        }),
      );
      assert.equal(prepared.sql?.sanitizedSql, 'SELECT count(*) FROM customers;');
      assert.equal(
        prepared.sql?.generatedSql,
        '```sql\nSELECT count(*) FROM customers;\n```',
        'the scorers that read SQL text see it as recorded, as in EvalBench',
      );
      assert.deepEqual(rowsOf(prepared.sql?.generated.query), [[6]]);
      assert.equal((await score(sqlExactMatch, {}, prepared)).status, 'pass');
    });

    test('a DQL item runs the first statement only, of the generated and of the golden SQL', async (engine) => {
      const prepared = await prepare(
        engine,
        nl2sqlCase("SELECT name FROM customers WHERE id = 1; SELECT 'not me'", {
          golden_sql: ["SELECT name FROM customers WHERE city = 'London' AND id < 2; DELETE FROM customers"],
          query_type: 'dql',
        }),
      );
      assert.deepEqual(rowsOf(prepared.sql?.generated.query), [['Ada']]);
      assert.deepEqual(rowsOf(prepared.sql?.golden.query), [['Ada']]);
      assert.equal((await score(sqlExactMatch, {}, prepared)).status, 'pass');
    });

    test('a DML item runs every statement', async (engine) => {
      const prepared = await prepare(
        engine,
        nl2sqlCase('DELETE FROM orders WHERE id = 1; DELETE FROM orders WHERE id = 2', {
          golden_sql: ['DELETE FROM orders WHERE id IN (1, 2)'],
          eval_query: ['SELECT count(*) FROM orders'],
          query_type: 'dml',
        }),
      );
      assert.deepEqual(rowsOf(prepared.sql?.generated.evalQueries?.[0]), [[10]]);
      assert.equal((await score(sqlExactMatch, {}, prepared)).status, 'pass');
    });

    test('a DDL item compares the schema the queries leave (tables, columns, types), not the eval query', async (engine) => {
      const ddl = (generated: string) =>
        prepare(
          engine,
          nl2sqlCase(generated, {
            golden_sql: ['ALTER TABLE customers ADD COLUMN email TEXT'],
            eval_query: ['SELECT 1'],
            query_type: 'ddl',
          }),
        );
      const same = await ddl('ALTER TABLE customers ADD COLUMN email TEXT;');
      const schema = rowsOf(same.sql?.golden.evalQueries?.[0]);
      assert.ok(
        schema.some((row) => row[0] === 'customers' && row[1] === 'email' && row[2] === 'TEXT'),
        JSON.stringify(schema),
      );
      assert.equal((await score(sqlExactMatch, {}, same)).status, 'pass');
      for (const other of [
        'ALTER TABLE customers ADD COLUMN mail TEXT',
        'ALTER TABLE customers ADD COLUMN email INTEGER',
        'CREATE TABLE email (x TEXT)',
      ]) {
        const verdict = await score(sqlExactMatch, {}, await ddl(other));
        assert.equal(verdict.status, 'fail', other);
        assert.equal(verdict.details?.['compared'], 'eval_results');
      }
      const broken = await ddl('ALTER TABLE nowhere ADD COLUMN email TEXT');
      errorOf(broken.sql?.generated.query);
      assert.equal((await score(sqlExactMatch, {}, broken)).status, 'fail');
    });
  });
}
