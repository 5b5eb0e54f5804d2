/**
 * The compare mode's state: the runs to pick from, the two picked, the comparison the CLI made (its
 * head and its cases, which arrive in chunks) and what the person chose (regressions only, search,
 * the selected case). `reduceCompare` is the only way it changes; `compareRows` gives the rows the
 * table shows, memoized, so a redraw of 100,000 cases filters them once, not per frame.
 */
import type { CaseTransition } from '../../core/compare/compareRuns';
import type { CompareCase, CompareHead, CompareToWebview, RunChoice } from '../../protocol/compareView';

export interface CompareState {
  readonly runs: readonly RunChoice[];
  readonly baseline?: string;
  readonly candidate?: string;
  readonly status: 'choosing' | 'loading' | 'shown' | 'failed';
  /** Why the CLI could not compare (status `failed`). */
  readonly reason?: string;
  readonly head?: CompareHead;
  /** Every case, in the compare report's order (the baseline's cases, then the added ones). */
  readonly cases: readonly CompareCase[];
  /** All the cases' chunks came. */
  readonly complete: boolean;
  readonly regressionsOnly: boolean;
  readonly search: string;
  /** Id of the selected case. */
  readonly selected?: string;
}

export type CompareUiAction =
  | { readonly type: 'compareUi/pick'; readonly side: 'baseline' | 'candidate'; readonly path: string }
  | { readonly type: 'compareUi/regressionsOnly'; readonly on: boolean }
  | { readonly type: 'compareUi/search'; readonly text: string }
  | { readonly type: 'compareUi/select'; readonly id: string }
  | { readonly type: 'compareUi/move'; readonly by: number | 'first' | 'last' };

export type CompareAction = CompareToWebview | CompareUiAction;

export function initialCompare(): CompareState {
  return { runs: [], status: 'choosing', cases: [], complete: false, regressionsOnly: false, search: '' };
}

export function reduceCompare(state: CompareState, action: CompareAction): CompareState {
  switch (action.type) {
    case 'compare/choices': {
      const { baseline, candidate, reason: _reason, head: _head, ...rest } = state;
      const next: CompareState = { ...rest, runs: action.runs, status: 'choosing', cases: [], complete: false };
      return {
        ...next,
        ...(action.baseline === undefined ? {} : { baseline: action.baseline }),
        ...(action.candidate === undefined ? {} : { candidate: action.candidate }),
      };
    }
    case 'compare/loading': {
      const { reason: _reason, head: _head, ...rest } = state;
      return {
        ...rest,
        baseline: action.baseline,
        candidate: action.candidate,
        status: 'loading',
        cases: [],
        complete: false,
      };
    }
    case 'compare/show': {
      const { reason: _reason, ...rest } = state;
      return { ...rest, status: 'shown', head: action.head, cases: [...action.cases], complete: action.complete };
    }
    case 'compare/append':
      return state.head === undefined
        ? state
        : { ...state, cases: state.cases.concat(action.cases), complete: action.complete };
    case 'compare/failed': {
      const { head: _head, ...rest } = state;
      return { ...rest, status: 'failed', reason: action.reason, cases: [], complete: false };
    }
    case 'compareUi/pick':
      return state[action.side] === action.path ? state : { ...state, [action.side]: action.path };
    case 'compareUi/regressionsOnly':
      return state.regressionsOnly === action.on ? state : { ...state, regressionsOnly: action.on };
    case 'compareUi/search':
      return state.search === action.text ? state : { ...state, search: action.text };
    case 'compareUi/select':
      return state.selected === action.id ? state : { ...state, selected: action.id };
    case 'compareUi/move':
      return move(state, action.by);
  }
}

function move(state: CompareState, by: number | 'first' | 'last'): CompareState {
  const rows = compareRows(state);
  if (rows.length === 0) return state;
  const at = state.selected === undefined ? -1 : rows.findIndex((i) => state.cases[i]?.id === state.selected);
  let target: number;
  if (by === 'first') target = 0;
  else if (by === 'last') target = rows.length - 1;
  else if (at === -1) target = by >= 0 ? 0 : rows.length - 1;
  else target = Math.min(rows.length - 1, Math.max(0, at + by));
  const id = state.cases[rows[target] ?? -1]?.id;
  return id === undefined ? state : { ...state, selected: id };
}

/** The order cases are listed in: what needs a look first. */
export const TRANSITION_ORDER: readonly CaseTransition[] = [
  'regressed',
  'fixed',
  'removed',
  'added',
  'unchanged_fail',
  'unchanged_pass',
];

const RANK = new Map(TRANSITION_ORDER.map((t, i) => [t, i]));

/** How a transition reads in the table. */
export const TRANSITION_LABEL: Readonly<Record<CaseTransition, string>> = {
  regressed: '▼ regressed',
  fixed: '▲ fixed',
  removed: 'removed',
  added: 'added',
  unchanged_fail: 'still failing',
  unchanged_pass: 'still passing',
};

export interface CaseSides {
  /** The case's status in the baseline and the candidate, as far as the transition tells it. */
  readonly baseline: string;
  readonly candidate: string;
  /** candidate − baseline of the case's pass (1 passed, 0 not): −1, +1, 0, or "" for a case one run lacks. */
  readonly delta: string;
}

/**
 * Both runs' status of a case and the change of its pass, from its transition (docs/compare.md:
 * passed, or not — failed, errored and skipped count as not passed).
 */
export function caseSides(transition: CaseTransition): CaseSides {
  switch (transition) {
    case 'regressed':
      return { baseline: 'passed', candidate: 'not passed', delta: '−1' };
    case 'fixed':
      return { baseline: 'not passed', candidate: 'passed', delta: '+1' };
    case 'unchanged_pass':
      return { baseline: 'passed', candidate: 'passed', delta: '0' };
    case 'unchanged_fail':
      return { baseline: 'not passed', candidate: 'not passed', delta: '0' };
    case 'added':
      return { baseline: '—', candidate: 'new case', delta: '' };
    case 'removed':
      return { baseline: 'was there', candidate: '—', delta: '' };
  }
}

interface RowsMemo {
  readonly cases: readonly CompareCase[];
  readonly regressionsOnly: boolean;
  readonly search: string;
  readonly rows: readonly number[];
}

let memo: RowsMemo | undefined;

/**
 * The indices (into `cases`) of the cases shown: regressions only when asked, those whose id or
 * transition contains the search text (case-insensitive), worst transition first, then in the
 * report's order. One pass over 100,000 cases, done again only when cases or filters change.
 */
export function compareRows(state: Pick<CompareState, 'cases' | 'regressionsOnly' | 'search'>): readonly number[] {
  if (
    memo !== undefined &&
    memo.cases === state.cases &&
    memo.regressionsOnly === state.regressionsOnly &&
    memo.search === state.search
  )
    return memo.rows;
  const needle = state.search.trim().toLowerCase();
  // One bucket per transition, filled in report order: the worst-first order without a sort.
  const buckets: number[][] = TRANSITION_ORDER.map(() => []);
  state.cases.forEach((c, i) => {
    if (state.regressionsOnly && c.transition !== 'regressed') return;
    if (
      needle !== '' &&
      !c.id.toLowerCase().includes(needle) &&
      !TRANSITION_LABEL[c.transition].includes(needle) &&
      !c.transition.includes(needle)
    )
      return;
    buckets[RANK.get(c.transition) ?? 0]?.push(i);
  });
  const rows = buckets.flat();
  memo = { cases: state.cases, regressionsOnly: state.regressionsOnly, search: state.search, rows };
  return rows;
}
