import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { executableSql } from '../../../../core/scorers/builtin/sql/executableSql';
import { score } from '../../../support/scoring';
import { execution, failed, rows, run } from './executions';

describe('executable_sql (EvalBench)', () => {
  it('scores 100 when the generated query ran without error, whatever its rows', async () => {
    const v = await score(executableSql, {}, { sql: execution(rows(['x'], [1]), rows(['y'], [2], [3])) });
    assert.equal(v.status, 'pass');
    assert.equal(v.score, 100);
  });

  it('scores 0 when the generated query failed, with the error in details only', async () => {
    const v = await score(
      executableSql,
      {},
      { sql: execution(rows(['x'], [1]), failed('near "SELEC": syntax error')) },
    );
    assert.equal(v.status, 'fail');
    assert.equal(v.score, 0);
    assert.equal(v.reason, 'the generated query failed');
    assert.equal(v.details?.['generated_error'], 'near "SELEC": syntax error');
  });

  it("scores 0 when an eval query after the generated query failed (EvalBench's generated_error)", async () => {
    const v = await score(
      executableSql,
      {},
      { sql: execution(run(rows([]), [rows(['n'], [1])]), run(rows([]), [failed('no such table: t')])) },
    );
    assert.equal(v.score, 0);
    assert.match(v.reason, /eval query/);
  });

  it('does not look at the golden query', async () => {
    assert.equal(
      (await score(executableSql, {}, { sql: execution(failed('golden broke'), rows(['x'], [1])) })).score,
      100,
    );
  });

  it('is unsupported when the case was not executed', async () => {
    const v = await score(executableSql, {}, { output: 'SELECT 1' });
    assert.equal(v.status, 'unsupported');
  });
});
