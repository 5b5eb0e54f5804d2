/**
 * The table's rows, grouped: one row per case, and under an open case one row per scorer, its trials
 * summed up in that row ("2/3 trials pass"). Five agent cases × 15 scorers × 3 trials are 5 case rows
 * and 75 scorer rows, not 225 flat ones. Cases are in the order of their first row in the sorted,
 * filtered results (so "worst first" puts failing cases on top), scorers likewise within a case.
 * A case with a result that did not pass opens by default; a passing one stays closed; the person
 * flips either (`toggled`). Pure; memoized on the identities of its inputs.
 */
import type { ScorerResult } from '../../core/result';
import { visibleRows } from './query';
import { type ViewState, caseRowKey, resultKey } from './viewState';

export { caseOfRowKey, caseRowKey } from './viewState';

export interface CaseRow {
  readonly kind: 'case';
  readonly key: string;
  readonly caseId: string;
  readonly open: boolean;
  /** The case's results that pass the filters, worst first (in the sort order). */
  readonly first: ScorerResult;
  readonly results: number;
  readonly scorers: number;
  /** Scorers with a trial that did not pass (fail, error, timeout). */
  readonly failingScorers: number;
}

export interface ScorerRow {
  readonly kind: 'scorer';
  /** The key of the row's first trial in the sort order (the one the row shows). */
  readonly key: string;
  readonly caseId: string;
  readonly scorer: string;
  readonly shown: ScorerResult;
  readonly trials: number;
  readonly passedTrials: number;
}

export type GroupRow = CaseRow | ScorerRow;

export interface Grouped {
  readonly rows: readonly GroupRow[];
  /** Row index of each selectable key: case rows by their key, scorer rows by every trial's result key. */
  readonly indexOf: ReadonlyMap<string, number>;
}

const FAILING = new Set(['fail', 'error', 'timeout']);

interface Memo {
  readonly rows: readonly number[];
  readonly toggled: ReadonlySet<string>;
  readonly value: Grouped;
}
let memo: Memo | undefined;

export function groupedRows(
  state: Pick<ViewState, 'results' | 'cases' | 'filters' | 'sort' | 'toggledCases'>,
): Grouped {
  const positions = visibleRows(state);
  if (memo !== undefined && memo.rows === positions && memo.toggled === state.toggledCases) return memo.value;
  const byCase = new Map<string, Map<string, ScorerResult[]>>();
  for (const position of positions) {
    const result = state.results.items[position];
    if (result === undefined) continue;
    let scorers = byCase.get(result.caseId);
    if (scorers === undefined) {
      scorers = new Map();
      byCase.set(result.caseId, scorers);
    }
    const trials = scorers.get(result.scorer);
    if (trials === undefined) scorers.set(result.scorer, [result]);
    else trials.push(result);
  }
  const rows: GroupRow[] = [];
  const indexOf = new Map<string, number>();
  for (const [caseId, scorers] of byCase) {
    const all = [...scorers.values()];
    const first = all[0]?.[0];
    if (first === undefined) continue;
    const failingScorers = all.filter((trials) => trials.some((r) => FAILING.has(r.status))).length;
    const notPassing = all.some((trials) => trials.some((r) => r.status !== 'pass' && r.status !== 'measured'));
    const open = notPassing !== state.toggledCases.has(caseId);
    const key = caseRowKey(caseId);
    indexOf.set(key, rows.length);
    rows.push({
      kind: 'case',
      key,
      caseId,
      open,
      first,
      results: all.reduce((n, trials) => n + trials.length, 0),
      scorers: all.length,
      failingScorers,
    });
    for (const [scorer, trials] of scorers) {
      const shown = trials[0];
      if (shown === undefined) continue;
      const index = rows.length;
      if (open) for (const r of trials) indexOf.set(resultKey(r), index);
      if (open)
        rows.push({
          kind: 'scorer',
          key: resultKey(shown),
          caseId,
          scorer,
          shown,
          trials: trials.length,
          passedTrials: trials.filter((r) => r.status === 'pass').length,
        });
    }
  }
  const value = { rows, indexOf };
  memo = { rows: positions, toggled: state.toggledCases, value };
  return value;
}

/** The row a selection key is on: its own row, else (a trial of a closed case) the case's row. */
export function rowOfKey(grouped: Grouped, key: string | undefined, caseId: string | undefined): number | undefined {
  if (key === undefined) return undefined;
  return grouped.indexOf.get(key) ?? (caseId === undefined ? undefined : grouped.indexOf.get(caseRowKey(caseId)));
}
