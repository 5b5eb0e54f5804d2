import type { Json } from '../../case';
import { fail, pass, unsupported } from '../../result';
import schema from '../../../schemas/scorers/exact_match_consistency.schema.json';
import { canonicalJson } from '../support/canonicalJson';
import { pyRowListsEqual, type RowDict } from '../support/pythonEquality';
import { evalRows, executionRows, runError } from '../support/sqlRows';
import { defineScorer, preparedAcrossTrials, type TrialInput } from '../scorer';

type PairScore = 0 | 100;
type How = 'compared' | 'filled';
/** What a directly compared pair of SQL trials was decided on. */
type Basis = 'errors' | 'eval_results' | 'execution_results';
type Cell = { score: PairScore; how: How; basis?: Basis };

/**
 * EvalBench's `exact_match_consistency`: trials of one case compared pairwise (adjacent pairs first,
 * the rest filled by transitivity where it decides), all-or-nothing over the pairs. Trials that were
 * executed (NL2SQL: the case carries `sql`) compare their SQL results as EvalBench does; other
 * trials compare their outputs as canonical JSON.
 */
export const exactMatchConsistency = defineScorer('exact_match_consistency', {
  origin: 'EvalBench',
  scale: { kind: 'bounded', max: 100 },
  schema,
  acrossTrials: true,
  create() {
    return preparedAcrossTrials({
      scoreTrials(trials) {
        const n = trials.length;
        // Trials with nothing recorded agree on nothing: not decided (EvalBench would have generated them).
        if (trials.every((t) => t.output === undefined && t.error === undefined && t.case.sql === undefined)) {
          return unsupported(
            'no trial of the case has a recorded output to compare (EvalLens scores recorded outputs)',
          );
        }
        const sqlMode = trials.some((t) => t.case.sql !== undefined);
        const matrix = sqlMode ? pairMatrix(n, sqlComparer(trials)) : pairMatrix(n, outputComparer(trials));
        const pairs: Json[] = [];
        let inconsistent = 0;
        for (let i = 0; i < n; i++) {
          for (let j = i + 1; j < n; j++) {
            const cell = matrix[i]?.[j];
            if (cell === undefined) continue;
            if (cell.score === 0) inconsistent++;
            const pair: { [key: string]: Json } = { trials: [i + 1, j + 1], score: cell.score, decided: cell.how };
            if (cell.basis !== undefined) pair['basis'] = cell.basis;
            pairs.push(pair);
          }
        }
        const total = (n * (n - 1)) / 2;
        const details: { [key: string]: Json } = { pairs, inconsistent_pairs: inconsistent };
        if (sqlMode) details['sql_trials'] = trials.map(sqlTrialDetails);
        const what = sqlMode ? ' on their SQL results' : '';
        return inconsistent === 0
          ? pass(`all ${n} trials agree${what} (${total} pair${total === 1 ? '' : 's'} consistent)`, 100, details)
          : fail(
              `${inconsistent} of ${total} trial pair${total === 1 ? '' : 's'} disagree${what}; consistency is all or nothing`,
              0,
              details,
            );
      },
    });
  },
});

type Comparer = (i: number, j: number) => { score: PairScore; basis?: Basis };

function outputComparer(trials: readonly TrialInput[]): Comparer {
  const texts = trials.map((t) => (t.output === undefined ? undefined : canonicalJson(t.output)));
  return (i, j) => {
    const a = trials[i];
    const b = trials[j];
    if (a?.error !== undefined || b?.error !== undefined) return { score: a?.error === b?.error ? 100 : 0 };
    return { score: texts[i] !== undefined && texts[i] === texts[j] ? 100 : 0 };
  };
}

/** One trial as EvalBench's comparator sees it; `null` results are Python's None (the trial was not executed). */
interface SqlTrial {
  readonly error: string | undefined;
  readonly execution: readonly RowDict[] | null;
  readonly evaluation: readonly RowDict[] | null;
}

/**
 * EvalBench's trial error is `generated_error or sql_generator_error or prompt_generator_error`: the
 * execution's error (the generated query's or its eval queries'), else the error the trial recorded.
 */
function sqlTrial(t: TrialInput): SqlTrial {
  const sql = t.case.sql;
  const executionError = sql === undefined ? undefined : runError(sql.generated);
  const error = nonEmpty(executionError) ?? nonEmpty(t.error);
  if (sql === undefined) return { error, execution: null, evaluation: null };
  return { error, execution: executionRows(sql.generated), evaluation: evalRows(sql.generated) };
}

function nonEmpty(text: string | undefined): string | undefined {
  return text === undefined || text === '' ? undefined : text;
}

/**
 * EvalBench's pair rule: either trial erred → 100 only for the same error text; else, when the first
 * trial of the pair has an eval result (rows), the eval results are compared; else the execution
 * results. Results compare with Python's `==` on lists of dicts (row order counts).
 */
function sqlComparer(trials: readonly TrialInput[]): Comparer {
  const seen = trials.map(sqlTrial);
  const equal = (x: readonly RowDict[] | null, y: readonly RowDict[] | null) =>
    x === null || y === null ? x === y : pyRowListsEqual(x, y);
  return (i, j) => {
    const a = seen[i];
    const b = seen[j];
    if (a === undefined || b === undefined) return { score: 0 };
    if (a.error !== undefined || b.error !== undefined)
      return { score: a.error === b.error ? 100 : 0, basis: 'errors' };
    if (a.evaluation !== null && a.evaluation.length > 0)
      return { score: equal(a.evaluation, b.evaluation) ? 100 : 0, basis: 'eval_results' };
    return { score: equal(a.execution, b.execution) ? 100 : 0, basis: 'execution_results' };
  };
}

function sqlTrialDetails(t: TrialInput): Json {
  const s = sqlTrial(t);
  return {
    trial: t.trial,
    executed: s.execution !== null,
    error: s.error ?? null,
    rows: s.execution === null ? null : s.execution.length,
    eval_rows: s.evaluation === null ? null : s.evaluation.length,
  };
}

function pairMatrix(n: number, compare: Comparer): (Cell | undefined)[][] {
  const matrix = Array.from({ length: n }, () => new Array<Cell | undefined>(n).fill(undefined));
  const set = (i: number, j: number, cell: Cell) => {
    const row = matrix[i];
    if (row !== undefined) row[j] = cell;
  };
  const direct = (i: number, j: number) => {
    const c = compare(i, j);
    set(
      i,
      j,
      c.basis === undefined ? { score: c.score, how: 'compared' } : { score: c.score, how: 'compared', basis: c.basis },
    );
  };
  for (let i = 0; i + 1 < n; i++) direct(i, i + 1);
  for (let gap = 2; gap < n; gap++) {
    for (let i = 0; i + gap < n; i++) {
      const j = i + gap;
      let filled: PairScore | undefined;
      for (let k = i + 1; k < j && filled === undefined; k++) {
        const left = matrix[i]?.[k]?.score;
        const right = matrix[k]?.[j]?.score;
        if (left === 100 && right === 100) filled = 100;
        else if ((left === 100 && right === 0) || (left === 0 && right === 100)) filled = 0;
      }
      if (filled === undefined) direct(i, j);
      else set(i, j, { score: filled, how: 'filled' });
    }
  }
  return matrix;
}
