import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sqlExactMatch } from '../../../../core/scorers/builtin/sql/exactMatch';
import type { SqlValue } from '../../../../core/sql/sqlResult';
import { score } from '../../../support/scoring';
import { execution, failed, rows, run } from './executions';
import { thresholdOffScale } from '../../../../core/config/thresholdScale';

const exact = (golden: Parameters<typeof execution>[0], generated: Parameters<typeof execution>[1], options = {}) =>
  score(sqlExactMatch, options, { sql: execution(golden, generated) });

describe('exact_match (EvalBench, SQL execution results)', () => {
  it('is the EvalBench definition of the exact_match key, on a 0–100 scale', () => {
    assert.equal(sqlExactMatch.key, 'exact_match');
    assert.equal(sqlExactMatch.origin, 'EvalBench');
    assert.deepEqual(sqlExactMatch.scale, { kind: 'bounded', max: 100 });
  });

  it('scores 100 and passes when the generated rows equal the golden rows', async () => {
    const v = await exact(rows(['id', 'name'], [1, 'a'], [2, 'b']), rows(['id', 'name'], [1, 'a'], [2, 'b']));
    assert.equal(v.status, 'pass');
    assert.equal(v.score, 100);
    assert.match(v.reason, /2 rows/);
    assert.equal(v.details?.['compared'], 'execution_results');
  });

  it('counts row order: the same rows in another order score 0', async () => {
    const v = await exact(rows(['id'], [1], [2]), rows(['id'], [2], [1]));
    assert.equal(v.status, 'fail');
    assert.equal(v.score, 0);
    assert.equal(
      v.reason,
      'the results differ: row 1 differs; both 2 rows; the same rows in another order (row order counts)',
    );
    assert.equal(v.details?.['first_differing_row'], 1);
  });

  it('counts column names: rows are dicts, so equal values under other names score 0', async () => {
    const v = await exact(rows(['total'], [10]), rows(['sum'], [10]));
    assert.equal(v.score, 0);
    assert.match(v.reason, /the column names differ/);
  });

  it('ignores column order: a dict has no key order, so SELECT a, b equals SELECT b, a', async () => {
    const v = await exact(rows(['a', 'b'], [1, 2]), rows(['b', 'a'], [2, 1]));
    assert.equal(v.score, 100);
  });

  it('compares values with Python ==: 1 == 1.0 == True, but 1 != "1"', async () => {
    assert.equal((await exact(rows(['x'], [1], [0]), rows(['x'], [true], [false]))).score, 100);
    assert.equal((await exact(rows(['x'], [1.0]), rows(['x'], [1]))).score, 100);
    assert.equal((await exact(rows(['x'], [1]), rows(['x'], ['1']))).score, 0);
  });

  it('treats NULL as equal to NULL and NaN as equal to nothing', async () => {
    assert.equal((await exact(rows(['x', 'y'], [null, 1]), rows(['x', 'y'], [null, 1]))).score, 100);
    assert.equal((await exact(rows(['x'], [Number.NaN]), rows(['x'], [Number.NaN]))).score, 0);
    assert.equal((await exact(rows(['x'], [null]), rows(['x'], [0]))).score, 0);
  });

  it('scores two empty results 100 whatever their columns (no rows, no dicts to differ)', async () => {
    assert.equal((await exact(rows(['a']), rows(['b', 'c']))).score, 100);
  });

  it('gives counts and positions when the row counts differ', async () => {
    const v = await exact(rows(['x'], [1], [2], [3]), rows(['x'], [1], [2]));
    assert.equal(v.reason, 'the results differ: golden 3 rows, generated 2; the first 2 rows agree');
    const w = await exact(rows(['x'], [1], [2], [3]), rows(['x'], [1], [5]));
    assert.equal(w.reason, 'the results differ: row 2 differs; golden 3 rows, generated 2');
  });

  it('reads a repeated column name as one key holding the last value, as a Python dict does', async () => {
    // SELECT a, a: {"a": <second value>}
    assert.equal((await exact(rows(['a', 'a'], [1, 2]), rows(['a'], [2]))).score, 100);
    assert.equal((await exact(rows(['a', 'a'], [1, 2]), rows(['a'], [1]))).score, 0);
  });

  it('scores 0 when either query failed, even with equal rows elsewhere', async () => {
    const golden = await exact(failed('no such table: t'), rows(['x'], [1]));
    assert.equal(golden.status, 'fail');
    assert.equal(golden.score, 0);
    assert.match(golden.reason, /^the golden query failed/);
    assert.equal(golden.details?.['golden_error'], 'no such table: t');
    assert.match((await exact(rows(['x'], [1]), failed('syntax error'))).reason, /^the generated query failed/);
    assert.match((await exact(failed('a'), failed('a'))).reason, /^both queries failed/);
  });

  it("counts a failing eval query as its run's error (one transaction in EvalBench)", async () => {
    const v = await exact(run(rows([]), [rows(['n'], [1])]), run(rows([]), [failed('no such table: t')]));
    assert.equal(v.score, 0);
    assert.equal(v.details?.['generated_error'], 'no such table: t');
  });

  it("DML/DDL: compares the eval queries' results, not the execution results, when the golden eval result has rows", async () => {
    const golden = run(rows(['changes'], [3]), [rows(['n'], [7])]);
    const same = await exact(golden, run(rows(['changes'], [4]), [rows(['n'], [7])]));
    assert.equal(same.score, 100);
    assert.equal(same.details?.['compared'], 'eval_results');
    assert.match(same.reason, /execution results are not compared/);
    const other = await exact(golden, run(rows(['changes'], [3]), [rows(['n'], [8])]));
    assert.equal(other.score, 0);
    assert.match(other.reason, /^the eval queries' results differ .*: row 1 differs; both 1 row$/);
  });

  it('concatenates the rows of several eval queries into one eval result', async () => {
    const golden = run(rows([]), [rows(['n'], [1]), rows(['m'], [2])]);
    assert.equal((await exact(golden, run(rows([]), [rows(['n'], [1]), rows(['m'], [2])]))).score, 100);
    assert.equal((await exact(golden, run(rows([]), [rows(['m'], [2]), rows(['n'], [1])]))).score, 0);
  });

  it('DML: an empty golden eval result is falsy in Python, so the execution results are compared instead', async () => {
    const v = await exact(run(rows([]), [rows(['n'])]), run(rows([]), [rows(['n'], [99])]));
    assert.equal(v.score, 100);
    assert.equal(v.details?.['compared'], 'execution_results');
  });

  it('is unsupported when the case was not executed', async () => {
    const v = await score(sqlExactMatch, {}, { output: 'SELECT 1' });
    assert.equal(v.status, 'unsupported');
    assert.match(v.reason, /not executed/);
  });

  it('shows at most truncate_execution_outputs rows (default 250) but compares them all', async () => {
    const many = (last: number): SqlValue[][] => Array.from({ length: 300 }, (_, i) => [i === 299 ? last : i]);
    const v = await exact(rows(['x'], ...many(299)), rows(['x'], ...many(-1)));
    assert.equal(v.score, 0);
    assert.equal(v.reason, 'the results differ: row 300 differs; both 300 rows');
    const golden = v.details?.['golden'] as { rows: unknown[]; row_count: number; truncated: boolean };
    assert.deepEqual([golden.rows.length, golden.row_count, golden.truncated], [250, 300, true]);
    const w = await exact(rows(['x'], ...many(299)), rows(['x'], ...many(299)), { truncate_execution_outputs: 2 });
    assert.equal(w.score, 100);
    const shown = w.details?.['generated'] as { rows: unknown[]; columns: string[] };
    assert.deepEqual(shown.rows, [[0], [1]]);
    assert.deepEqual(shown.columns, ['x']);
  });

  it('keeps cell values and column names out of reasons', async () => {
    const cases = [
      [rows(['secret_col'], ['hunter2']), rows(['secret_col'], ['hunter3'])],
      [rows(['secret_col'], ['hunter2']), rows(['other_secret'], ['hunter2'])],
      [rows(['secret_col'], ['hunter2']), failed('no column hunter2')],
    ] as const;
    for (const [g, h] of cases) assert.doesNotMatch((await exact(g, h)).reason, /hunter|secret/);
  });

  it('refuses a threshold off the 0–100 scale', () => {
    assert.match(thresholdOffScale(sqlExactMatch, 150) ?? '', /between 0 and 100/);
  });
});
