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
import { type ViewState, caseOfRowKey, caseRowKey, resultKey } from './viewState';

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
  readonly indexOf: { get(key: string): number | undefined };
}

const FAILING = new Set(['fail', 'error', 'timeout']);

interface Memo {
  readonly rows: readonly number[];
  readonly toggled: ReadonlySet<string>;
  readonly value: Grouped;
}
let memo: Memo | undefined;

/**
 * One pass over the sorted positions with plain arrays: a case's positions are collected under its
 * first-seen order, then split by scorer with a short scan (a case has few scorers). No per-result
 * key is made here: `indexOf` finds a result key's row on demand (the selection asks for one key a
 * frame), which keeps grouping 100,000 results to a few tens of milliseconds.
 */
export function groupedRows(
  state: Pick<ViewState, 'results' | 'cases' | 'filters' | 'sort' | 'toggledCases'>,
): Grouped {
  const positions = visibleRows(state);
  if (memo !== undefined && memo.rows === positions && memo.toggled === state.toggledCases) return memo.value;
  const items = state.results.items;
  const caseSlot = new Map<string, number>();
  const byCase: ScorerResult[][] = [];
  for (const position of positions) {
    const result = items[position];
    if (result === undefined) continue;
    const slot = caseSlot.get(result.caseId);
    if (slot === undefined) {
      caseSlot.set(result.caseId, byCase.length);
      byCase.push([result]);
    } else byCase[slot]?.push(result);
  }
  const rows: GroupRow[] = [];
  const caseRowAt = new Map<string, number>();
  for (const results of byCase) {
    const first = results[0];
    if (first === undefined) continue;
    const caseId = first.caseId;
    const scorers = splitByScorer(results);
    let failingScorers = 0;
    let notPassing = false;
    for (const trials of scorers) {
      if (trials.some((r) => FAILING.has(r.status))) failingScorers++;
      if (!notPassing && trials.some((r) => r.status !== 'pass' && r.status !== 'measured')) notPassing = true;
    }
    const open = notPassing !== state.toggledCases.has(caseId);
    caseRowAt.set(caseId, rows.length);
    rows.push({
      kind: 'case',
      key: caseRowKey(caseId),
      caseId,
      open,
      first,
      results: results.length,
      scorers: scorers.length,
      failingScorers,
    });
    if (!open) continue;
    for (const trials of scorers) {
      const shown = trials[0];
      if (shown === undefined) continue;
      let passedTrials = 0;
      for (const r of trials) if (r.status === 'pass') passedTrials++;
      const row: ScorerRow = {
        kind: 'scorer',
        key: resultKey(shown),
        caseId,
        scorer: shown.scorer,
        shown,
        trials: trials.length,
        passedTrials,
      };
      trialsOfRow.set(row, trials);
      rows.push(row);
    }
  }
  const value: Grouped = { rows, indexOf: { get: (key) => rowIndexOf(rows, caseRowAt, key) } };
  memo = { rows: positions, toggled: state.toggledCases, value };
  return value;
}

/** A case's results by scorer, scorers in the order of their first result. */
function splitByScorer(results: readonly ScorerResult[]): ScorerResult[][] {
  const names: string[] = [];
  const groups: ScorerResult[][] = [];
  for (const r of results) {
    const at = names.indexOf(r.scorer);
    if (at === -1) {
      names.push(r.scorer);
      groups.push([r]);
    } else groups[at]?.push(r);
  }
  return groups;
}

/** The row of a case row's key, or of a result key (case × scorer × trial) under an open case. */
function rowIndexOf(
  rows: readonly GroupRow[],
  caseRowAt: ReadonlyMap<string, number>,
  key: string,
): number | undefined {
  const caseId = caseOfRowKey(key);
  if (caseId !== undefined) return caseRowAt.get(caseId);
  const trialAt = key.lastIndexOf(KEY_SEPARATOR);
  const scorerAt = trialAt <= 0 ? -1 : key.lastIndexOf(KEY_SEPARATOR, trialAt - 1);
  if (scorerAt === -1) return undefined;
  const at = caseRowAt.get(key.slice(0, scorerAt));
  if (at === undefined) return undefined;
  const scorer = key.slice(scorerAt + 1, trialAt);
  const trial = Number(key.slice(trialAt + 1));
  for (let i = at + 1; i < rows.length; i++) {
    const row = rows[i];
    if (row === undefined || row.kind !== 'scorer') return undefined;
    if (row.scorer === scorer) return trialsOfRow.get(row)?.some((r) => r.trial === trial) === true ? i : undefined;
  }
  return undefined;
}

const KEY_SEPARATOR = '\u001f';
/** The trials (that pass the filters) a scorer row sums up. */
const trialsOfRow = new WeakMap<ScorerRow, readonly ScorerResult[]>();

/** The row a selection key is on: its own row, else (a trial of a closed case) the case's row. */
export function rowOfKey(grouped: Grouped, key: string | undefined, caseId: string | undefined): number | undefined {
  if (key === undefined) return undefined;
  return grouped.indexOf.get(key) ?? (caseId === undefined ? undefined : grouped.indexOf.get(caseRowKey(caseId)));
}
