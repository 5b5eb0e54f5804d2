import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ScorerVerdict } from '../../../../core/result';
import { exactMatchConsistency } from '../../../../core/scorers/builtin/exactMatchConsistency';
import type { TrialInput } from '../../../../core/scorers/scorer';
import type { QueryOutcome, QueryRun, SqlExecution } from '../../../../core/sql/sqlResult';
import { execution, failed, rows, run } from './executions';
import { createEngineContext } from '../../../../core/engineContext';

interface Trial {
  generated?: QueryRun | QueryOutcome;
  error?: string;
}

async function consistency(trials: Trial[]): Promise<ScorerVerdict> {
  const made = exactMatchConsistency.create(
    {},
    { engine: createEngineContext(), configDir: '/', timeoutMs: 30_000, env: {} },
  );
  assert.ok(made.ok && made.acrossTrials);
  const inputs: TrialInput[] = trials.map((t, i) => {
    const sql: SqlExecution | undefined =
      t.generated === undefined ? undefined : execution(rows(['x'], [1]), t.generated);
    return {
      case: sql === undefined ? { id: 'c' } : { id: 'c', sql },
      output: 'SELECT 1',
      expected: undefined,
      trial: i + 1,
      ...(t.error === undefined ? {} : { error: t.error }),
    };
  });
  return made.acrossTrials.scoreTrials(inputs, new AbortController().signal);
}

type Pair = { trials: number[]; score: number; decided: string; basis?: string };
const pairs = (v: ScorerVerdict) => (v.details?.['pairs'] ?? []) as Pair[];

describe('exact_match_consistency over SQL results', () => {
  it('scores 100 when every trial returned the same rows, comparing execution results', async () => {
    const v = await consistency([
      { generated: rows(['x'], [1], [2]) },
      { generated: rows(['x'], [1], [2]) },
      { generated: rows(['x'], [1], [2]) },
    ]);
    assert.deepEqual([v.status, v.score], ['pass', 100]);
    assert.equal(v.reason, 'all 3 trials agree on their SQL results (3 pairs consistent)');
    assert.deepEqual(pairs(v)[0], { trials: [1, 2], score: 100, decided: 'compared', basis: 'execution_results' });
    assert.deepEqual(pairs(v)[1], { trials: [1, 3], score: 100, decided: 'filled' });
  });

  it('compares rows with Python ==: row order counts, 1 == 1.0 == True, column order does not', async () => {
    assert.equal(
      (await consistency([{ generated: rows(['x'], [1], [2]) }, { generated: rows(['x'], [2], [1]) }])).score,
      0,
    );
    assert.equal((await consistency([{ generated: rows(['x'], [1]) }, { generated: rows(['x'], [true]) }])).score, 100);
    assert.equal(
      (await consistency([{ generated: rows(['a', 'b'], [1, 2]) }, { generated: rows(['b', 'a'], [2, 1]) }])).score,
      100,
    );
    assert.equal((await consistency([{ generated: rows(['a'], [1]) }, { generated: rows(['b'], [1]) }])).score, 0);
  });

  it('counts the same error text as consistent and different errors, or an error against rows, as not', async () => {
    const same = await consistency([
      { generated: failed('no such column: y') },
      { generated: failed('no such column: y') },
    ]);
    assert.equal(same.score, 100);
    assert.equal(pairs(same)[0]?.basis, 'errors');
    assert.equal((await consistency([{ generated: failed('a') }, { generated: failed('b') }])).score, 0);
    assert.equal((await consistency([{ generated: failed('a') }, { generated: rows(['x'], [1]) }])).score, 0);
  });

  it('takes the execution error first, then the error the trial recorded', async () => {
    assert.equal(
      (
        await consistency([
          { generated: rows(['x'], [1]), error: 'generator timed out' },
          { generated: rows(['x'], [1]) },
        ])
      ).score,
      0,
    );
    assert.equal(
      (await consistency([{ generated: failed('boom'), error: 'other' }, { generated: failed('boom') }])).score,
      100,
    );
  });

  it('compares eval results when the first trial of the pair has eval rows, and ignores the execution results then', async () => {
    const v = await consistency([
      { generated: run(rows(['changes'], [1]), [rows(['n'], [5])]) },
      { generated: run(rows(['changes'], [2]), [rows(['n'], [5])]) },
    ]);
    assert.equal(v.score, 100);
    assert.equal(pairs(v)[0]?.basis, 'eval_results');
    assert.equal(
      (
        await consistency([
          { generated: run(rows([]), [rows(['n'], [5])]) },
          { generated: run(rows([]), [rows(['n'], [6])]) },
        ])
      ).score,
      0,
    );
  });

  it("falls back to execution results when the first trial's eval result is empty (EvalBench looks at trial 1 only)", async () => {
    const v = await consistency([
      { generated: run(rows([]), [rows(['n'])]) },
      { generated: run(rows([]), [rows(['n'], [6])]) },
    ]);
    assert.equal(v.score, 100);
    assert.equal(pairs(v)[0]?.basis, 'execution_results');
  });

  it("counts a failing eval query as the trial's error", async () => {
    assert.equal(
      (
        await consistency([
          { generated: run(rows([]), [failed('gone')]) },
          { generated: run(rows([]), [failed('gone')]) },
        ])
      ).score,
      100,
    );
    assert.equal(
      (
        await consistency([
          { generated: run(rows([]), [failed('gone')]) },
          { generated: run(rows([]), [rows(['n'], [1])]) },
        ])
      ).score,
      0,
    );
  });

  it('treats a trial that was not executed as None: equal only to another such trial', async () => {
    assert.equal((await consistency([{ generated: rows(['x'], [1]) }, {}])).score, 0);
    assert.equal((await consistency([{ generated: rows(['x'], [1]) }, {}, {}])).details?.['inconsistent_pairs'], 2);
  });

  it('fills pairs by transitivity as for other outputs, and lists each trial in details', async () => {
    const v = await consistency([
      { generated: rows(['x'], [1]) },
      { generated: rows(['x'], [1]) },
      { generated: rows(['x'], [2]) },
    ]);
    assert.equal(v.reason, '2 of 3 trial pairs disagree on their SQL results; consistency is all or nothing');
    assert.deepEqual(
      pairs(v).find((p) => p.trials[0] === 1 && p.trials[1] === 3),
      { trials: [1, 3], score: 0, decided: 'filled' },
    );
    assert.deepEqual(v.details?.['sql_trials'], [
      { trial: 1, executed: true, error: null, rows: 1, eval_rows: 0 },
      { trial: 2, executed: true, error: null, rows: 1, eval_rows: 0 },
      { trial: 3, executed: true, error: null, rows: 1, eval_rows: 0 },
    ]);
  });

  it('compares outputs as canonical JSON when no trial was executed', async () => {
    const v = await consistency([{}, {}]);
    assert.equal(v.reason, 'all 2 trials agree (1 pair consistent)');
    assert.equal(v.details?.['sql_trials'], undefined);
  });
});
