/**
 * The rows the table shows: the positions (in `state.results`) that pass the filters and the search,
 * in the chosen order. Pure; memoized on the inputs' identities, since the reducer replaces an array
 * or object exactly when it changes, and a view of 100,000 results asks for the rows on every frame.
 */
import type { ResultStatus, ScorerResult } from '../../core/result';
import type { KeyedList } from './keyedList';
import type { CaseEntry, Filters, Sort, ViewState } from './viewState';

/** Worst first: the order "status ascending" shows. */
export const STATUS_ORDER: readonly ResultStatus[] = [
  'error',
  'timeout',
  'fail',
  'inconclusive',
  'unsupported',
  'skipped',
  'measured',
  'pass',
];
const STATUS_RANK = new Map<ResultStatus, number>(STATUS_ORDER.map((status, rank) => [status, rank]));

interface Memo {
  readonly results: KeyedList<ScorerResult>;
  readonly cases: KeyedList<CaseEntry>;
  readonly filters: Filters;
  readonly sort: Sort;
  readonly rows: readonly number[];
}

let memo: Memo | undefined;

export function visibleRows(state: Pick<ViewState, 'results' | 'cases' | 'filters' | 'sort'>): readonly number[] {
  const m = memo;
  if (
    m !== undefined &&
    m.results === state.results &&
    m.cases === state.cases &&
    m.filters === state.filters &&
    m.sort === state.sort
  )
    return m.rows;
  const rows = sortRows(filterRows(state.results.items, state.filters), state.results.items, state.cases, state.sort);
  memo = { results: state.results, cases: state.cases, filters: state.filters, sort: state.sort, rows };
  return rows;
}

export function matches(result: ScorerResult, filters: Filters, needle: string): boolean {
  if (filters.statuses.length > 0 && !filters.statuses.includes(result.status)) return false;
  if (filters.scorers.length > 0 && !filters.scorers.includes(result.scorer)) return false;
  if (needle === '') return true;
  return (
    result.caseId.toLowerCase().includes(needle) ||
    result.scorer.toLowerCase().includes(needle) ||
    result.status.includes(needle) ||
    result.reason.toLowerCase().includes(needle)
  );
}

function filterRows(results: readonly ScorerResult[], filters: Filters): number[] {
  const needle = filters.search.trim().toLowerCase();
  const rows: number[] = [];
  for (let i = 0; i < results.length; i++) {
    const result = results[i];
    if (result !== undefined && matches(result, filters, needle)) rows.push(i);
  }
  return rows;
}

/** Compares two results, given with their positions (for the case index looked up once per position). */
type Compare = (a: ScorerResult, b: ScorerResult, pa: number, pb: number) => number;

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Missing numbers sort after every number, whichever the direction. */
function byNumber(a: number | undefined, b: number | undefined, sign: number): number {
  if (a === undefined || Number.isNaN(a)) return b === undefined || Number.isNaN(b) ? 0 : 1;
  if (b === undefined || Number.isNaN(b)) return -1;
  return sign * (a - b);
}

function comparator(sort: Sort, caseIndexAt: Float64Array): Compare {
  const sign = sort.direction === 'asc' ? 1 : -1;
  switch (sort.column) {
    case 'case':
      return (a, b, pa, pb) => sign * ((caseIndexAt[pa] ?? 0) - (caseIndexAt[pb] ?? 0) || byText(a.caseId, b.caseId));
    case 'scorer':
      return (a, b) => sign * byText(a.scorer, b.scorer);
    case 'trial':
      return (a, b) => sign * (a.trial - b.trial);
    case 'status':
      // Ties in dataset order, whichever the direction: the failing cases read top to bottom as in the file.
      return (a, b, pa, pb) =>
        sign * ((STATUS_RANK.get(a.status) ?? 0) - (STATUS_RANK.get(b.status) ?? 0)) ||
        (caseIndexAt[pa] ?? 0) - (caseIndexAt[pb] ?? 0);
    case 'score':
      return (a, b) => byNumber(a.score, b.score, sign);
    case 'reason':
      return (a, b) => sign * byText(a.reason, b.reason);
    case 'duration':
      return (a, b) => byNumber(a.durationMs, b.durationMs, sign);
  }
}

/** Ties keep arrival order, so a sort is stable and repeatable. */
function sortRows(rows: number[], results: readonly ScorerResult[], cases: KeyedList<CaseEntry>, sort: Sort): number[] {
  // Each result's case index, looked up once rather than twice per comparison.
  const caseIndexAt = new Float64Array(results.length);
  for (const at of rows) caseIndexAt[at] = cases.get(results[at]?.caseId ?? '')?.index ?? Number.MAX_SAFE_INTEGER;
  const compare = comparator(sort, caseIndexAt);
  return rows.sort((a, b) => {
    const ra = results[a];
    const rb = results[b];
    if (ra === undefined || rb === undefined) return a - b;
    return compare(ra, rb, a, b) || a - b;
  });
}
