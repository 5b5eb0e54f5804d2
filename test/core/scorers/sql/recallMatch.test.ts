import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { recallFigures, recallMatch } from '../../../../core/scorers/builtin/sql/recallMatch';
import { rowDicts } from '../../../../core/scorers/support/sqlRows';
import type { QueryOutcome, SqlValue } from '../../../../core/sql/sqlResult';
import { schemaErrors, score } from '../../../support/scoring';
import { execution, failed, rows } from './executions';

const recall = (golden: QueryOutcome, generated: QueryOutcome, options = {}) =>
  score(recallMatch, options, { sql: execution(golden, generated) });
const x = (...values: SqlValue[]) => rows(['x'], ...values.map((v) => [v]));

describe('recall_match (EvalBench)', () => {
  it('scores 100 when the golden and generated rows are equal lists', async () => {
    const v = await recall(x(1, 2), x(1, 2));
    assert.equal(v.status, 'pass');
    assert.equal(v.score, 100);
    assert.match(v.reason, /equal lists \(2 rows\)/);
  });

  it('divides "recall" by the generated rows and "precision" by the golden rows (EvalBench\'s swapped naming)', async () => {
    // golden {1, 2}, generated {1}: 1 distinct row in both.
    const r = await recall(x(1, 2), x(1));
    assert.equal(r.score, 100, 'recall = 1 match / 1 generated row');
    assert.equal(r.status, 'pass');
    const p = await recall(x(1, 2), x(1), { score_type: 'precision' });
    assert.equal(p.score, 50, 'precision = 1 match / 2 golden rows');
    assert.equal(p.status, 'fail');
    assert.equal(
      p.reason,
      "1 distinct row in both; precision = 1 / 2 golden rows = 50 (EvalBench's precision divides by the golden rows, duplicates included)",
    );
  });

  it('keeps duplicates in the denominator: a repeated generated row halves the recall (50.0)', async () => {
    const v = await recall(x(1), x(1, 1));
    assert.equal(v.score, 50);
    assert.equal(
      v.reason,
      "1 distinct row in both; recall = 1 / 2 generated rows = 50 (EvalBench's recall divides by the generated rows, duplicates included)",
    );
    assert.deepEqual(
      [v.details?.['orig_generated_size'], v.details?.['dedup_generated_size'], v.details?.['matches']],
      [2, 1, 1],
    );
    assert.equal((await recall(x(1), x(1, 1), { score_type: 'precision' })).score, 100);
  });

  it("divides before multiplying, so the doubles are EvalBench's (1/3 × 100, not 100/3)", async () => {
    const v = await recall(x(1), x(1, 2, 3));
    assert.equal(v.score, 33.33333333333333);
    assert.notEqual(v.score, 100 / 3);
    assert.match(v.reason, /= 33\.33 /);
  });

  it('ignores row order (sets), yet two lists in different orders are not "equal lists"', async () => {
    const v = await recall(x(1, 2), x(2, 1));
    assert.equal(v.score, 100);
    assert.equal(v.details?.['equal_lists'], false);
  });

  it('matches rows by column names and values: equal values under other names do not match', async () => {
    assert.equal((await recall(rows(['a'], [1]), rows(['b'], [1]))).score, 0);
    assert.equal((await recall(rows(['a', 'b'], [1, 2]), rows(['b', 'a'], [2, 1]))).score, 100);
  });

  it('compares values with Python ==: 1, 1.0 and True are one value', async () => {
    assert.equal((await recall(x(1, 0), x(true, false))).score, 100);
    assert.equal((await recall(x(1), x('1'))).score, 0);
  });

  it('drops None rows but keeps rows of NULL cells', () => {
    const withNone = { columns: ['x'], rows: [[1], null as unknown as SqlValue[]] };
    const golden = rowDicts(withNone);
    assert.equal(golden.length, 1);
    assert.equal(recallFigures(golden, rowDicts({ columns: ['x'], rows: [[1]] })).equal_lists, true);
    const nulls = recallFigures(
      rowDicts({ columns: ['x'], rows: [[null]] }),
      rowDicts({ columns: ['x'], rows: [[null], [1]] }),
    );
    assert.deepEqual([nulls.matches, nulls.recall, nulls.precision], [1, 0.5, 1]);
  });

  it('scores two empty results 100 and one empty result 0', async () => {
    assert.equal((await recall(x(), x())).score, 100);
    assert.equal((await recall(x(), x(1))).score, 0);
    assert.equal((await recall(x(1), x())).score, 0, 'recall over no generated rows is 0');
  });

  it('does not check errors: a failed query counts as no rows, so two failures score 100', async () => {
    const both = await recall(failed('e1'), failed('e2'));
    assert.equal(both.score, 100);
    assert.match(both.reason, /both queries failed and count as no rows/);
    assert.deepEqual([both.details?.['golden_error'], both.details?.['generated_error']], ['e1', 'e2']);
    const one = await recall(x(1), failed('e'));
    assert.equal(one.score, 0);
    assert.match(one.reason, /the generated query failed and counts as no rows/);
  });

  it('shows at most truncate_execution_outputs rows per side', async () => {
    const v = await recall(x(1, 2, 3), x(1, 2, 3), { truncate_execution_outputs: 1 });
    assert.deepEqual((v.details?.['golden'] as { rows: unknown[] }).rows, [[1]]);
  });

  it('accepts only recall or precision as score_type, recall by default', () => {
    assert.notDeepEqual(schemaErrors(recallMatch, { score_type: 'f1' }), []);
  });

  it('is unsupported when the case was not executed', async () => {
    assert.equal((await score(recallMatch, {}, { output: 'SELECT 1' })).status, 'unsupported');
  });
});
