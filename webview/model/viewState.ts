/**
 * The results view's state: what run is shown, its results and cases, and what the person chose
 * (filters, sort, selection, detail). Plain data; `reduce` (reducer.ts) is the only way it changes.
 */
import type { ResultStatus, ScorerResult } from '../../core/result';
import type { JobTest, ReportLocation, ScorerAggregate } from '../../core/report/report';
import type { CaseStatus, RunSummary, ScorerInfo } from '../../core/runner/events';
import type { TrialStats } from '../../core/runner/trials';
import type { CaseData, ResultDetails } from '../../protocol/webview';
import { KeyedList } from './keyedList';
import { matches, STATUS_ORDER } from './query';

export interface CaseEntry {
  readonly id: string;
  /** 0-based position in the dataset. */
  readonly index: number;
  /** `running` between its `case/start` and `case/end` in a live run. */
  readonly status: CaseStatus | 'running';
  readonly durationMs?: number;
  readonly location?: ReportLocation;
  readonly trials?: TrialStats;
}

export interface RunInfo {
  /** A finished run read from a report, or a run in progress fed by events. */
  readonly kind: 'report' | 'live';
  readonly runId: string;
  readonly configFile: string;
  readonly startedAt: string;
  readonly finishedAt?: string;
  readonly durationMs?: number;
  readonly cancelled: boolean;
  readonly numTrials: number;
  readonly scorers: readonly ScorerInfo[];
  /** Case counts by status; a live run has them from `run/end`. */
  readonly summary?: RunSummary;
  /** Per-scorer aggregates (the report's, or the host's live ones). */
  readonly aggregates?: readonly ScorerAggregate[];
  readonly job?: JobTest;
  /** A report whose chunks all arrived, or a live run that ended. */
  readonly complete: boolean;
  /** A report read from EvalBench's results: its own summary line (see importedSummary.ts). */
  readonly importedSummary?: string;
  /** The report's results came without their `details`: the detail pane asks the host for the shown case's. */
  readonly detailsApart?: true;
}

export interface Filters {
  /** Statuses to show; empty shows all. */
  readonly statuses: readonly ResultStatus[];
  /** Scorer names to show; empty shows all. */
  readonly scorers: readonly string[];
  /** Case-insensitive text looked for in the case id, scorer, status and reason. */
  readonly search: string;
}

export const SORT_COLUMNS = ['case', 'scorer', 'trial', 'status', 'score', 'reason', 'duration'] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];

export interface Sort {
  readonly column: SortColumn;
  readonly direction: 'asc' | 'desc';
}

/** The data of the case the detail pane shows, as far as it has come from the host. */
export type CaseDataState =
  | { readonly status: 'loading'; readonly configFile: string; readonly caseId: string }
  | { readonly status: 'loaded'; readonly configFile: string; readonly caseId: string; readonly data: CaseData }
  | { readonly status: 'unavailable'; readonly configFile: string; readonly caseId: string; readonly reason: string };

/** The details of the shown case's results, for a report whose results came without them (`RunInfo.detailsApart`). */
export type CaseDetailsState =
  | { readonly status: 'loading'; readonly runId: string; readonly caseId: string }
  | {
      readonly status: 'loaded';
      readonly runId: string;
      readonly caseId: string;
      readonly results: readonly ResultDetails[];
    }
  | { readonly status: 'unavailable'; readonly runId: string; readonly caseId: string; readonly reason: string };

export interface ViewState {
  readonly run?: RunInfo;
  /** Every result, in arrival order (for a report, the report's order), by resultKey: a result seen twice replaces the first. */
  readonly results: KeyedList<ScorerResult>;
  /** The cases, by id, in the order they were first seen. */
  readonly cases: KeyedList<CaseEntry>;
  readonly filters: Filters;
  readonly sort: Sort;
  /** The key of the selected result, or of a case's row (`caseRowKey`) in the grouped table. */
  readonly selected?: string;
  /** Configs by how the person names them (workspace-relative), from the host. */
  readonly configLabels: ReadonlyMap<string, string>;
  /** Cases the person opened or closed, against the default (open when a result did not pass). */
  readonly toggledCases: ReadonlySet<string>;
  readonly detailOpen: boolean;
  readonly caseData?: CaseDataState;
  readonly caseDetails?: CaseDetailsState;
  /** Why nothing is shown, from the host (`view/clear` with a notice); shown while no run is. */
  readonly notice?: string;
}

export const NO_FILTERS: Filters = { statuses: [], scorers: [], search: '' };
/** Worst first: failures and errors open the view, ties in dataset order. */
export const DEFAULT_SORT: Sort = { column: 'status', direction: 'asc' };
const NO_CASES_TOGGLED: ReadonlySet<string> = new Set();

export function initialState(): ViewState {
  return {
    results: KeyedList.empty<ScorerResult>(resultKey),
    cases: KeyedList.empty<CaseEntry>(caseKey),
    filters: NO_FILTERS,
    sort: DEFAULT_SORT,
    detailOpen: false,
    toggledCases: NO_CASES_TOGGLED,
    configLabels: new Map(),
  };
}

/** A result's identity: case × scorer × trial. The unit separator cannot occur in a JSON-read id by accident. */
export function resultKey(result: Pick<ScorerResult, 'caseId' | 'scorer' | 'trial'>): string {
  return `${result.caseId}\u001f${result.scorer}\u001f${result.trial}`;
}

export function caseKey(entry: CaseEntry): string {
  return entry.id;
}

/** The selection key of a case's row in the grouped table; the record separator cannot occur in a JSON-read id by accident. */
export function caseRowKey(caseId: string): string {
  return `${CASE_ROW}${caseId}`;
}

/** The case a case row's key selects; undefined for a result's key. */
export function caseOfRowKey(key: string): string | undefined {
  return key.startsWith(CASE_ROW) ? key.slice(CASE_ROW.length) : undefined;
}

const CASE_ROW = '\u001ecase\u001f';

/** The selected result, if it is still there; for a case's row, the case's worst result that the filters show (else its worst). */
export function selectedResult(state: Pick<ViewState, 'selected' | 'results' | 'filters'>): ScorerResult | undefined {
  if (state.selected === undefined) return undefined;
  const caseId = caseOfRowKey(state.selected);
  return caseId === undefined
    ? state.results.get(state.selected)
    : worstOfCase(state.results.items, caseId, state.filters);
}

function worstOfCase(results: readonly ScorerResult[], caseId: string, filters: Filters): ScorerResult | undefined {
  const needle = filters.search.trim().toLowerCase();
  let worst: { readonly result: ScorerResult; readonly rank: number } | undefined;
  let worstShown: typeof worst;
  for (const result of results) {
    if (result.caseId !== caseId) continue;
    const rank = STATUS_ORDER.indexOf(result.status);
    if (worst === undefined || rank < worst.rank) worst = { result, rank };
    if ((worstShown === undefined || rank < worstShown.rank) && matches(result, filters, needle))
      worstShown = { result, rank };
  }
  return (worstShown ?? worst)?.result;
}
