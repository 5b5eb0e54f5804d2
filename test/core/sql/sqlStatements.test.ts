import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { firstStatement } from '../../../core/sql/sanitizeSql';
import { findTransactionControl, splitStatements, type SqlDialect } from '../../../core/sql/sqlStatements';

const texts = (sql: string, dialect: SqlDialect) =>
  splitStatements(sql, dialect).map((s) => sql.slice(s.start, s.end).trim());

describe('SQL statement splitting', () => {
  it('splits on semicolons and drops empty statements', () => {
    assert.deepEqual(texts('SELECT 1; ;  SELECT 2;\n-- only a comment\n;', 'sqlite'), ['SELECT 1', 'SELECT 2']);
    assert.deepEqual(splitStatements('  select x from t where y', 'postgres')[0]?.keywords, [
      'SELECT',
      'X',
      'FROM',
      'T',
    ]);
  });

  it('does not split inside strings, identifiers and comments', () => {
    const sql = `SELECT 'a;b', "c;d", 'it''s;' /* x; y */ FROM t -- z; w\n; SELECT 2`;
    assert.deepEqual(texts(sql, 'postgres'), [sql.slice(0, sql.indexOf('\n; SELECT 2') + 1).trim(), 'SELECT 2']);
    assert.deepEqual(texts('SELECT `a;b`, [c;d] FROM t; SELECT 2', 'sqlite'), [
      'SELECT `a;b`, [c;d] FROM t',
      'SELECT 2',
    ]);
  });

  it("knows PostgreSQL's dollar quotes, E'' strings and nested comments", () => {
    assert.equal(texts('DO $body$ BEGIN PERFORM 1; COMMIT; END $body$; SELECT 2', 'postgres').length, 2);
    assert.equal(
      texts('CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql; SELECT 2', 'postgres').length,
      2,
    );
    assert.equal(texts("SELECT E'a\\';b'; SELECT 2", 'postgres').length, 2);
    assert.equal(texts('SELECT 1 /* a /* b; */ c; */; SELECT 2', 'postgres').length, 2);
    assert.equal(texts('SELECT $1; SELECT 2', 'postgres').length, 2, '$1 is a parameter, not a dollar quote');
  });

  it("knows MySQL's quoting: backslash escapes in '' and \"\" strings, backtick names, # comments, routine bodies", () => {
    assert.deepEqual(texts("SELECT 'a\\';b', \"c;d\", `e;f` FROM t # g; h\n; SELECT 2", 'mysql').length, 2);
    const routine = 'CREATE PROCEDURE p() BEGIN DELETE FROM a; DELETE FROM b; END';
    assert.deepEqual(texts(`${routine}; SELECT 2`, 'mysql'), [routine, 'SELECT 2']);
    assert.equal(findTransactionControl("SELECT 'x'; # COMMIT;\nSTART TRANSACTION", 'mysql'), 'START TRANSACTION');
  });

  it('keeps a trigger body and a BEGIN ATOMIC body in one statement', () => {
    const trigger =
      'CREATE TRIGGER t AFTER INSERT ON a BEGIN UPDATE b SET n = CASE WHEN n > 0 THEN n ELSE 0 END; DELETE FROM c; END';
    assert.deepEqual(texts(`${trigger}; SELECT 2`, 'sqlite'), [trigger, 'SELECT 2']);
    const atomic = 'CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; SELECT 2; END';
    assert.deepEqual(texts(`${atomic}; SELECT 3`, 'postgres'), [atomic, 'SELECT 3']);
    assert.deepEqual(
      texts('CREATE RULE r AS ON INSERT TO a DO ALSO (DELETE FROM b; DELETE FROM c); SELECT 2', 'postgres').length,
      2,
    );
  });
});

describe('transaction control in SQL under test', () => {
  it('finds it at the start of any statement, in any case', () => {
    const found = (sql: string, dialect: SqlDialect = 'postgres') => findTransactionControl(sql, dialect);
    assert.equal(found('COMMIT'), 'COMMIT');
    assert.equal(found('delete from t; commit;'), 'COMMIT');
    assert.equal(found('BEGIN; DELETE FROM t; END'), 'BEGIN');
    assert.equal(found('start transaction'), 'START TRANSACTION');
    assert.equal(found('/* hi */ rollback to savepoint s'), 'ROLLBACK');
    assert.equal(found("PREPARE TRANSACTION 'x'"), 'PREPARE TRANSACTION');
    assert.equal(found('END TRANSACTION', 'sqlite'), 'END');
    assert.equal(found('SAVEPOINT a', 'sqlite'), 'SAVEPOINT');
    assert.equal(found('RELEASE a', 'sqlite'), 'RELEASE');
    assert.equal(found('ABORT'), 'ABORT');
  });

  it('is not fooled by the words elsewhere', () => {
    const none = (sql: string, dialect: SqlDialect = 'postgres') =>
      assert.equal(findTransactionControl(sql, dialect), undefined, sql);
    none('SELECT \'COMMIT\'; SELECT "rollback" FROM t');
    none('SELECT 1 -- COMMIT');
    none('PREPARE p AS SELECT 1');
    none('DO $$ BEGIN COMMIT; END $$');
    none('CREATE TRIGGER t AFTER INSERT ON a BEGIN DELETE FROM b; END', 'sqlite');
    none('SELECT begin, "end" FROM spans');
  });

  it('still finds it after a column named begin', () => {
    assert.equal(findTransactionControl('SELECT begin FROM spans; COMMIT', 'postgres'), 'COMMIT');
    assert.equal(findTransactionControl('CREATE TABLE spans (begin INT, "end" INT); COMMIT', 'sqlite'), 'COMMIT');
    assert.equal(findTransactionControl('CREATE VIEW v AS SELECT begin FROM spans; COMMIT', 'postgres'), 'COMMIT');
  });
});

describe('the shortcuts that skip splitting', () => {
  // firstStatement and findTransactionControl skip the splitter for text that cannot hold what they
  // look for; their answers must be the splitter's.
  const samples = [
    '',
    '   \n\t ',
    'SELECT 1',
    '  SELECT a - b / 2 FROM t  \n',
    "SELECT 'x -- y' FROM t",
    'SELECT 1 -- note',
    '-- only a comment',
    '/* c */ SELECT 1',
    'SELECT 1; SELECT 2',
    '; ; SELECT 3',
    'SELECT [end] FROM "begin"',
    'SELECT spend, weekend FROM trends',
    "SELECT 'unterminated",
    'SELECT # not a comment outside MySQL',
    '# a MySQL comment\nSELECT 4',
    'begin',
    'Commit',
    'SELECT 1;\nend',
  ];
  const dialects: SqlDialect[] = ['sqlite', 'postgres', 'mysql'];

  it('firstStatement gives what the splitter gives', () => {
    for (const dialect of dialects)
      for (const sql of samples) {
        const [first] = splitStatements(sql, dialect);
        const expected = first === undefined ? undefined : sql.slice(first.start, first.end).trim();
        assert.equal(firstStatement(sql, dialect), expected, `${dialect}: ${JSON.stringify(sql)}`);
      }
  });

  it('findTransactionControl finds control words in any case, and none in text without them', () => {
    assert.equal(findTransactionControl('Commit', 'sqlite'), 'COMMIT');
    assert.equal(findTransactionControl('SELECT 1;\nend', 'sqlite'), 'END');
    assert.equal(findTransactionControl('begin', 'postgres'), 'BEGIN');
    assert.equal(findTransactionControl('SELECT spend, weekend FROM trends', 'sqlite'), undefined);
    assert.equal(findTransactionControl('SELECT a FROM t WHERE b > 2', 'mysql'), undefined);
  });
});
