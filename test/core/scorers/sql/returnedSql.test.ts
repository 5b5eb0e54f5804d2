import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { returnedSql, returnsSql } from '../../../../core/scorers/builtin/sql/returnedSql';
import { score } from '../../../support/scoring';
import { execution, rows } from './executions';

const returned = (output: string) => score(returnedSql, {}, { output });

describe('returned_sql (EvalBench)', () => {
  it('scores 100 for SQL and 0 for an empty text', async () => {
    const v = await returned('SELECT 1');
    assert.equal(v.status, 'pass');
    assert.equal(v.score, 100);
    const empty = await returned('');
    assert.equal(empty.status, 'fail');
    assert.equal(empty.score, 0);
    assert.equal(empty.reason, 'the generated SQL is empty');
  });

  it('scores 0 for -- and # comment lines and blank lines only', async () => {
    const v = await returned('-- no idea\n\n   # really\n  ');
    assert.equal(v.score, 0);
    assert.equal(v.reason, 'all 4 lines are blank or comments (-- and # lines and /* */ blocks count as comments)');
  });

  it('removes /* */ blocks, across lines, before looking at the lines', async () => {
    assert.equal((await returned('/* SELECT 1\n   FROM t */')).score, 0);
    assert.equal((await returned('/* note */ SELECT 1')).score, 100);
    assert.equal((await returned('/* a */ -- b\n/* c\n d */')).score, 0);
    assert.equal(returnsSql('/* a */ x /* b */').firstSqlLine, 1);
  });

  it('keeps an unclosed /* (it is not a comment), which then counts as SQL', async () => {
    assert.equal((await returned('/* SELECT 1')).score, 100);
  });

  it('counts prose as SQL: it checks only that something besides comments came back', async () => {
    const v = await returned("I'm sorry, I cannot write that query.");
    assert.equal(v.score, 100);
    assert.equal(v.reason, 'line 1 (after removing /* */ comments) is neither blank nor a -- or # comment');
  });

  it('trims lines before checking their start, and splits lines as Python does (\\v, \\f, U+2028 too)', async () => {
    assert.equal((await returned('   -- x\n\t  SELECT 1')).score, 100);
    assert.equal((await returned('-- comment\vSELECT 1')).score, 100);
    assert.equal((await returned('-- comment\u2028SELECT 1')).score, 100);
    assert.equal((await returned('\u00a0-- comment\u00a0')).score, 0, 'U+00A0 is white space to Python');
  });

  it('reads the executed SQL when the case ran, before the output', async () => {
    const v = await score(
      returnedSql,
      {},
      { output: 'SELECT 1', sql: execution(rows([]), rows([]), { generatedSql: '-- nothing' }) },
    );
    assert.equal(v.score, 0);
    assert.equal(v.details?.['query_from'], 'execution');
  });

  it('reads the output (after output_path) when the case was not executed', async () => {
    const v = await score(returnedSql, { output_path: 'sql' }, { output: { sql: 'SELECT 2' } });
    assert.equal(v.score, 100);
    assert.equal(v.details?.['query_from'], 'output');
  });

  it('does not decide a case with no generated SQL recorded (EvalLens does not run the generator), and fails an output that is not text', async () => {
    const none = await score(returnedSql, {}, {});
    assert.equal(none.status, 'unsupported');
    assert.match(none.reason, /no recorded generated SQL .*add `generated_sql` to the item, or a `target:`/);
    const empty = await score(returnedSql, {}, { output: '' });
    assert.deepEqual([empty.status, empty.score], ['fail', 0], "a recorded empty answer is EvalBench's 0");
    const number = await score(returnedSql, {}, { output: 42 });
    assert.deepEqual([number.status, number.score], ['fail', 0]);
    assert.match(number.reason, /a number, not SQL text/);
  });

  it('keeps the text out of reasons', async () => {
    for (const text of ['hunter2', '-- hunter2', '/* hunter2 */'])
      assert.doesNotMatch((await returned(text)).reason, /hunter/);
  });
});
