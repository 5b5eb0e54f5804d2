import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setMatch } from '../../../../core/scorers/builtin/sql/setMatch';
import type { QueryOutcome, SqlValue } from '../../../../core/sql/sqlResult';
import { score } from '../../../support/scoring';
import { documentCell, execution, failed, rows } from './executions';

const set = (golden: QueryOutcome, generated: QueryOutcome, options = {}) =>
  score(setMatch, options, { sql: execution(golden, generated) });
const x = (...values: SqlValue[]) => rows(['x'], ...values.map((v) => [v]));

describe('set_match (EvalBench, BIRD execution accuracy)', () => {
  it('scores 100 for the same set of rows, in any order and with duplicates removed', async () => {
    const v = await set(x(1, 1, 2), x(2, 1));
    assert.equal(v.status, 'pass');
    assert.equal(v.score, 100);
    assert.match(v.reason, /the same 2 distinct rows/);
    assert.equal(v.details?.['mode'], 'flat');
  });

  it('ignores column names', async () => {
    assert.equal((await set(rows(['total'], [10]), rows(['sum'], [10]))).score, 100);
  });

  it('counts column order: SELECT a, b does not match SELECT b, a (value tuples in column order)', async () => {
    const v = await set(rows(['a', 'b'], [1, 2]), rows(['b', 'a'], [2, 1]));
    assert.equal(v.score, 0);
    assert.match(
      v.reason,
      /^the sets of rows differ: golden 1 distinct row, generated 1, 0 in both \(rows compare as value tuples in column order/,
    );
  });

  it('fails on a missing or an extra distinct row', async () => {
    const v = await set(x(1, 2, 3), x(1, 2, 4));
    assert.equal(v.score, 0);
    assert.match(v.reason, /^the sets of rows differ: golden 3 distinct rows, generated 3, 2 in both/);
    assert.equal((await set(x(1), x(1, 2))).score, 0);
  });

  it('compares values with Python ==: 1 matches 1.0 and True, not "1"', async () => {
    assert.equal((await set(x(1, 0), x(true, false))).score, 100);
    assert.equal((await set(x(1), x('1'))).score, 0);
  });

  it('scores two empty results 100 and one empty result 0', async () => {
    assert.equal((await set(x(), rows(['y']))).score, 100);
    assert.equal((await set(x(), x(1))).score, 0);
  });

  it('scores 0 when either query failed', async () => {
    const v = await set(x(1), failed('syntax error'));
    assert.equal(v.status, 'fail');
    assert.equal(v.score, 0);
    assert.equal(v.details?.['generated_error'], 'syntax error');
    assert.equal((await set(failed('x'), failed('x'))).score, 0);
  });

  it('compares document-shaped rows as multisets: duplicates count, names count, column order does not', async () => {
    const doc = (v: unknown) => documentCell(v);
    const golden = rows(['id', 'tags'], [1, doc(['a', 'b'])], [1, doc(['a', 'b'])]);
    const v = await set(golden, rows(['id', 'tags'], [1, doc(['a', 'b'])]));
    assert.equal(v.score, 0, 'one copy against two');
    assert.equal(v.details?.['mode'], 'document');
    assert.match(v.reason, /multisets of documents/);
    assert.equal((await set(golden, rows(['tags', 'id'], [doc(['a', 'b']), 1], [doc(['a', 'b']), 1]))).score, 100);
    assert.equal(
      (await set(golden, rows(['id', 'tags'], [1, doc(['b', 'a'])], [1, doc(['a', 'b'])]))).score,
      0,
      'order inside a list counts',
    );
    assert.equal(
      (await set(rows(['d'], [doc({ k: 1, j: 2 })]), rows(['d'], [doc({ j: 2, k: 1.0 })]))).score,
      100,
      'key order inside an object does not',
    );
    assert.equal((await set(rows(['id'], [doc({ k: 1 })]), rows(['other'], [doc({ k: 1 })]))).score, 0, 'names count');
  });

  it('is unsupported when the case was not executed', async () => {
    assert.equal((await score(setMatch, {}, {})).status, 'unsupported');
  });
});
