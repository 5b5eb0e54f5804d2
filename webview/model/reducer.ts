/**
 * The one function that changes the view: state + action → state. Pure (no DOM, no messages): the
 * caller posts what the new state asks for (see `caseRequestFor`) and renders it.
 */
import type { ResultStatus } from '../../core/result';
import type { Action, PersistedView, UiAction } from './actions';
import { appendReport, foldEvents, freshView, showReport } from './fold';
import { groupedRows, rowOfKey } from './groups';
import {
  type CaseDataState,
  type CaseDetailsState,
  SORT_COLUMNS,
  type ViewState,
  caseOfRowKey,
  selectedResult,
} from './viewState';

export function reduce(state: ViewState, action: Action): ViewState {
  return withCaseData(step(state, action));
}

function step(state: ViewState, action: Action): ViewState {
  switch (action.type) {
    case 'report/show':
      return showReport(state, action.report, action.complete, action.detailsApart === true);
    case 'report/append':
      return appendReport(state, action.cases, action.results, action.complete);
    case 'run/events':
      return foldEvents(state, action.events, action.aggregates);
    case 'case/data':
      return settleCaseData(state, action.configFile, action.caseId, {
        status: 'loaded',
        configFile: action.configFile,
        caseId: action.caseId,
        data: action.data,
      });
    case 'case/unavailable':
      return settleCaseData(state, action.configFile, action.caseId, {
        status: 'unavailable',
        configFile: action.configFile,
        caseId: action.caseId,
        reason: action.reason,
      });
    case 'details/data':
      return settleDetails(state, action.runId, action.caseId, {
        status: 'loaded',
        runId: action.runId,
        caseId: action.caseId,
        results: action.results,
      });
    case 'details/unavailable':
      return settleDetails(state, action.runId, action.caseId, {
        status: 'unavailable',
        runId: action.runId,
        caseId: action.caseId,
        reason: action.reason,
      });
    case 'config/label':
      return state.configLabels.get(action.configFile) === action.label
        ? state
        : { ...state, configLabels: new Map([...state.configLabels, [action.configFile, action.label]]) };
    case 'view/clear': {
      const fresh = freshView(state);
      return action.notice === undefined ? fresh : { ...fresh, notice: action.notice };
    }
    case 'compare/choices':
    case 'compare/loading':
    case 'compare/show':
    case 'compare/append':
    case 'compare/failed':
      // Compare mode has its own state (model/compare.ts); the run shown stays as it is.
      return state;
    default:
      return ui(state, action);
  }
}

function ui(state: ViewState, action: UiAction): ViewState {
  switch (action.type) {
    case 'ui/toggleStatus':
      return { ...state, filters: { ...state.filters, statuses: toggled(state.filters.statuses, action.status) } };
    case 'ui/toggleScorer':
      return { ...state, filters: { ...state.filters, scorers: toggled(state.filters.scorers, action.scorer) } };
    case 'ui/clearFilters':
      return { ...state, filters: { statuses: [], scorers: [], search: state.filters.search } };
    case 'ui/search':
      return action.text === state.filters.search
        ? state
        : { ...state, filters: { ...state.filters, search: action.text } };
    case 'ui/sort': {
      const direction = state.sort.column === action.column && state.sort.direction === 'asc' ? 'desc' : 'asc';
      return { ...state, sort: { column: action.column, direction } };
    }
    case 'ui/select':
      return selectable(state, action.key) ? { ...state, selected: action.key } : state;
    case 'ui/toggleCase':
      return toggleCase(state, action.caseId, action.open);
    case 'ui/move':
      return move(state, action.by);
    case 'ui/openDetail':
      return state.selected === undefined ? state : { ...state, detailOpen: true };
    case 'ui/closeDetail':
      return { ...state, detailOpen: false };
    case 'ui/restore':
      return restore(state, action.view);
  }
}

function toggled<T>(list: readonly T[], item: T): readonly T[] {
  return list.includes(item) ? list.filter((x) => x !== item) : [...list, item];
}

function selectable(state: ViewState, key: string): boolean {
  const caseId = caseOfRowKey(key);
  return caseId === undefined
    ? state.results.has(key)
    : state.cases.has(caseId) || state.results.items.some((r) => r.caseId === caseId);
}

function toggleCase(state: ViewState, caseId: string, open: boolean | undefined): ViewState {
  const row = groupedRows(state).rows.find((r) => r.kind === 'case' && r.caseId === caseId);
  if (row === undefined || row.kind !== 'case' || row.open === open) return state;
  const toggledCases = new Set(state.toggledCases);
  if (!toggledCases.delete(caseId)) toggledCases.add(caseId);
  // Closing a case with one of its trials selected selects the case's row, so the selection stays in view.
  const selected =
    !row.open ||
    state.selected === undefined ||
    caseOfRowKey(state.selected) !== undefined ||
    selectedResult(state)?.caseId !== caseId
      ? state.selected
      : row.key;
  return selected === undefined ? { ...state, toggledCases } : { ...state, toggledCases, selected };
}

/** Moves through the grouped table's rows: case rows and the scorer rows of open cases. */
function move(state: ViewState, by: number | 'first' | 'last'): ViewState {
  const grouped = groupedRows(state);
  const rows = grouped.rows;
  if (rows.length === 0) return state;
  const at = rowOfKey(grouped, state.selected, selectedResult(state)?.caseId) ?? -1;
  let target: number;
  if (by === 'first') target = 0;
  else if (by === 'last') target = rows.length - 1;
  else if (at === -1) target = by >= 0 ? 0 : rows.length - 1;
  else target = Math.min(rows.length - 1, Math.max(0, at + by));
  const row = rows[target];
  return row === undefined ? state : { ...state, selected: row.key };
}

const KNOWN_STATUSES: readonly ResultStatus[] = [
  'pass',
  'fail',
  'error',
  'inconclusive',
  'unsupported',
  'timeout',
  'skipped',
  'measured',
];

/** Restores what the person chose, ignoring anything a stale saved state holds that no longer fits. */
function restore(state: ViewState, view: PersistedView): ViewState {
  const statuses = view.filters.statuses.filter((s) => KNOWN_STATUSES.includes(s));
  const sort = SORT_COLUMNS.includes(view.sort.column) ? view.sort : state.sort;
  const next: ViewState = {
    ...state,
    filters: { statuses, scorers: view.filters.scorers, search: view.filters.search },
    sort,
    detailOpen: view.detailOpen,
  };
  return view.selected === undefined ? next : { ...next, selected: view.selected };
}

/** What to keep across a hide/show of the panel. */
export function persistedView(state: ViewState): PersistedView {
  const run = state.run;
  const view: PersistedView = {
    filters: state.filters,
    sort: state.sort,
    detailOpen: state.detailOpen,
    ...(run === undefined
      ? {}
      : { source: { runId: run.runId, configFile: run.configFile, kind: run.kind, complete: run.complete } }),
  };
  return state.selected === undefined ? view : { ...view, selected: state.selected };
}

/** Whether what `persistedView` keeps differs between the two states (so it is saved again). */
export function persistedViewChanged(before: ViewState, after: ViewState): boolean {
  const a = before.run;
  const b = after.run;
  const sourceChanged =
    a?.runId !== b?.runId || a?.configFile !== b?.configFile || a?.kind !== b?.kind || a?.complete !== b?.complete;
  return (
    sourceChanged ||
    before.filters !== after.filters ||
    before.sort !== after.sort ||
    before.selected !== after.selected ||
    before.detailOpen !== after.detailOpen
  );
}

function settleCaseData(state: ViewState, configFile: string, caseId: string, settled: CaseDataState): ViewState {
  const wanted = state.caseData;
  return wanted !== undefined && wanted.configFile === configFile && wanted.caseId === caseId
    ? { ...state, caseData: settled }
    : state;
}

function settleDetails(state: ViewState, runId: string, caseId: string, settled: CaseDetailsState): ViewState {
  const wanted = state.caseDetails;
  return wanted !== undefined && wanted.runId === runId && wanted.caseId === caseId
    ? { ...state, caseDetails: settled }
    : state;
}

/**
 * With the detail open on a case whose data is not here, the data becomes `loading` (the caller then
 * asks the host); so do its results' details, for a report whose results came without them.
 */
function withCaseData(state: ViewState): ViewState {
  if (!state.detailOpen || state.run === undefined) return state;
  const result = selectedResult(state);
  if (result === undefined) return state;
  const { configFile, runId, detailsApart } = state.run;
  let next = state;
  const have = state.caseData;
  if (have === undefined || have.configFile !== configFile || have.caseId !== result.caseId)
    next = { ...next, caseData: { status: 'loading', configFile, caseId: result.caseId } };
  const details = state.caseDetails;
  if (detailsApart === true && (details === undefined || details.runId !== runId || details.caseId !== result.caseId))
    next = { ...next, caseDetails: { status: 'loading', runId, caseId: result.caseId } };
  return next;
}

/** The `details/request` to post after a change, when the change started loading a case's details. */
export function detailsRequestFor(
  before: ViewState,
  after: ViewState,
): { readonly runId: string; readonly caseId: string } | undefined {
  const next = after.caseDetails;
  if (next?.status !== 'loading') return undefined;
  const prev = before.caseDetails;
  if (prev?.status === 'loading' && prev.runId === next.runId && prev.caseId === next.caseId) return undefined;
  return { runId: next.runId, caseId: next.caseId };
}

/** The `case/request` to post after a change, when the change started loading a case. */
export function caseRequestFor(
  before: ViewState,
  after: ViewState,
): { readonly configFile: string; readonly caseId: string } | undefined {
  const next = after.caseData;
  if (next?.status !== 'loading') return undefined;
  const prev = before.caseData;
  if (prev?.status === 'loading' && prev.configFile === next.configFile && prev.caseId === next.caseId)
    return undefined;
  return { configFile: next.configFile, caseId: next.caseId };
}
