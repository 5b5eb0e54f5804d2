import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hybridXaJudge } from '../../../../core/scorers/builtin/sql/hybridXaJudge';
import { hybridXaCell, hybridXaNormalize, pyRound4 } from '../../../../core/scorers/support/hybridXa';
import { rowDicts } from '../../../../core/scorers/support/sqlRows';
import type { QueryOutcome, SqlValue } from '../../../../core/sql/sqlResult';
import { score } from '../../../support/scoring';
import { execution, failed, rows } from './executions';

const judge = (golden: QueryOutcome, generated: QueryOutcome, options = {}) =>
  score(hybridXaJudge, options, { sql: execution(golden, generated) });
const x = (...values: SqlValue[]) => rows(['x'], ...values.map((v) => [v]));

describe('hybrid_xa_judge normalization', () => {
  it("rounds numbers to 4 decimals as Python's round does: the exact binary value, exact ties to even", () => {
    assert.equal(pyRound4(0.123456), 0.1235);
    assert.equal(pyRound4(1.00005), 1.0001, '1.00005 is slightly above the tie in binary');
    assert.equal(pyRound4(2.00005), 2, '2.00005 is slightly below it (x·10⁴ rounded as a double would say 2.0001)');
    assert.equal(pyRound4(1234.56785), 1234.5678);
    assert.equal(pyRound4(0.03125), 0.0312, 'an exact tie goes to the even digit');
    assert.equal(pyRound4(0.09375), 0.0938);
    assert.ok(Object.is(pyRound4(-0.00001), -0));
    assert.equal(pyRound4(2 ** 60), 2 ** 60);
  });

  it('normalizes cells: None/NaN → None, numbers and booleans → floats, text trimmed, lower-cased, one string .0 cut', () => {
    assert.deepEqual(
      [null, Number.NaN, 5, true, false, ' ABC ', '5.0', 'v1.0.0', '5.00', '\u00a0X\u00a0'].map((v) =>
        hybridXaCell(v as SqlValue),
      ),
      [null, null, 5, 1, 0, 'abc', '5', 'v1.0', '5.00', 'x'],
    );
  });

  it("sorts rows by str(tuple), Python's text of the row, not by value", () => {
    const sorted = hybridXaNormalize(rowDicts({ columns: ['n'], rows: [[9], [10], ['b'], [null], ['A']] }));
    // "('a',)" < "('b',)" < '(10.0,)' < '(9.0,)' < '(None,)' by code point (Python agrees).
    assert.deepEqual(sorted, [['a'], ['b'], [10], [9], [null]]);
  });
});

describe('hybrid_xa_judge (EvalBench)', () => {
  it('scores 100 for the same rows in any order, headers ignored', async () => {
    const v = await judge(rows(['id', 'name'], [1, 'a'], [2, 'b']), rows(['x', 'y'], [2, 'B'], [1, ' a ']));
    assert.deepEqual([v.status, v.score], ['pass', 100]);
    assert.match(v.reason, /match after normalization \(golden 2 rows, generated 2/);
  });

  it('matches numbers within 4 decimals and booleans with 1 and 0', async () => {
    assert.equal((await judge(x(1.00004), x(1))).score, 100);
    assert.equal((await judge(x(1.0001), x(1))).score, 0);
    assert.equal((await judge(x(1, 0), x(true, false))).score, 100);
  });

  it('strips .0 from strings only: the string "5.0" does not match the number 5, the string "5" does not either', async () => {
    assert.equal((await judge(x('5.0'), x(5))).score, 0);
    assert.equal((await judge(x('5'), x(5))).score, 0);
    assert.equal((await judge(x('5.0'), x('5'))).score, 100);
  });

  it('keeps duplicates and needs equal row counts and row lengths', async () => {
    const v = await judge(x(1, 1), x(1));
    assert.equal(v.score, 0);
    assert.equal(v.reason, 'the row counts differ (golden 2 rows, generated 1)');
    const w = await judge(rows(['a', 'b'], [1, 2]), x(1));
    assert.equal(
      w.reason,
      'sorted row 1 has 1 column in the generated result and 2 in the golden (golden 1 row, generated 1)',
    );
  });

  it('reports the first differing cell in the sorted rows', async () => {
    const v = await judge(rows(['a', 'b'], [1, 'x'], [2, 'y']), rows(['a', 'b'], [1, 'x'], [2, 'z']));
    assert.equal(v.reason, 'after normalization and sorting, row 2 differs at column 2 (golden 2 rows, generated 2)');
    assert.deepEqual([v.details?.['sorted_row'], v.details?.['column']], [2, 2]);
  });

  it('sorts by text, so -0.0 and 0.0 (equal values) can pair rows differently, as in Python', async () => {
    const golden = rows(['n', 's'], [-0.00001, 'b'], [0, 'a']);
    assert.equal((await judge(golden, rows(['n', 's'], [0, 'b'], [-0.00001, 'a']))).score, 0);
    assert.equal((await judge(golden, rows(['n', 's'], [0, 'a'], [-0.00001, 'b']))).score, 100);
  });

  it('scores two empty results 100 and one empty result 0', async () => {
    assert.equal((await judge(x(), rows(['y']))).score, 100);
    assert.equal(
      (await judge(x(), x(1))).reason,
      'one result is empty and the other is not (golden 0 rows, generated 1)',
    );
  });

  it('scores 0 when either query failed', async () => {
    const v = await judge(failed('no such table'), x(1));
    assert.deepEqual([v.status, v.score], ['fail', 0]);
    assert.match(v.reason, /golden query failed/);
    assert.equal((await judge(x(1), failed('boom'))).score, 0);
  });

  it('shows returned and normalized rows, at most truncate_execution_outputs of each', async () => {
    const v = await judge(x(3, 2, 1), x(1, 2, 3), { truncate_execution_outputs: 2 });
    assert.deepEqual(v.details?.['normalized'], { golden: [[1], [2]], generated: [[1], [2]] });
    assert.deepEqual((v.details?.['golden'] as { rows: unknown[] }).rows, [[3], [2]]);
  });

  it('is unsupported when the case was not executed', async () => {
    assert.equal((await score(hybridXaJudge, {}, {})).status, 'unsupported');
  });
});
