/**
 * Folds what the host sends into the state: a report (in chunks) or a live run's events (in batches).
 * Each call copies the result and case lists once (a plain array copy; their key indexes are shared,
 * see keyedList.ts), so 100,000 results in many batches stay cheap.
 */
import type { ScorerResult } from '../../core/result';
import type { Report, ReportCase } from '../../core/report/report';
import type { RunEvent } from '../../core/runner/events';
import { type LiveAggregates, toDisplay } from '../../protocol/webview';
import { importedSummaryLine } from './importedSummary';
import { type CaseEntry, type RunInfo, type ViewState, initialState } from './viewState';

/** What one fold changes, applied to the state once at the end (one copy of each list per call). */
class Draft {
  private readonly results: ScorerResult[] = [];
  private readonly cases = new Map<string, CaseEntry>();

  constructor(private readonly base: ViewState) {}

  upsert(result: ScorerResult): void {
    this.results.push(result);
  }

  setCase(entry: CaseEntry): void {
    this.cases.set(entry.id, entry);
  }

  getCase(id: string): CaseEntry | undefined {
    return this.cases.get(id) ?? this.base.cases.get(id);
  }

  finish(state: ViewState): ViewState {
    return {
      ...state,
      results: this.results.length === 0 ? state.results : state.results.upsert(this.results),
      cases: this.cases.size === 0 ? state.cases : state.cases.upsert(this.cases.values()),
    };
  }
}

function caseEntry(c: ReportCase): CaseEntry {
  const entry: CaseEntry = {
    id: c.id,
    index: c.index,
    status: c.status,
    durationMs: c.durationMs,
    location: c.location,
  };
  return c.trials === undefined ? entry : { ...entry, trials: c.trials };
}

/**
 * The state with everything but the person's choices reset. The selection is kept as a key: after a
 * reload the same run comes back and the key finds its result again; a new run of the same config
 * keeps the person on the same case and scorer; a key that finds nothing selects nothing.
 */
export function freshView(state: ViewState): ViewState {
  const fresh: ViewState = {
    ...initialState(),
    filters: state.filters,
    sort: state.sort,
    detailOpen: state.detailOpen,
    toggledCases: state.toggledCases,
    configLabels: state.configLabels,
  };
  return state.selected === undefined ? fresh : { ...fresh, selected: state.selected };
}

/** A report replaces what is shown. The same run again (a live run's own report) keeps the selection. */
export function showReport(state: ViewState, report: Report, complete: boolean, detailsApart = false): ViewState {
  const sameRun = state.run !== undefined && state.run.runId === report.runId;
  const { cases: _cases, results: _results, scorers, job, ...head } = report;
  const run: RunInfo = {
    kind: 'report',
    runId: head.runId,
    configFile: head.configFile,
    startedAt: head.startedAt,
    finishedAt: head.finishedAt,
    durationMs: head.durationMs,
    cancelled: head.cancelled,
    numTrials: head.numTrials,
    scorers,
    summary: head.summary,
    aggregates: scorers,
    ...(job.test === undefined ? {} : { job: job.test }),
    ...(head.imported === undefined ? {} : { importedSummary: importedSummaryLine(head.imported) }),
    ...(detailsApart ? { detailsApart: true as const } : {}),
    complete,
  };
  const { caseDetails, ...kept } = state;
  // Details asked for before stay only while the results still come without them.
  const base: ViewState = sameRun
    ? {
        ...kept,
        ...(detailsApart && caseDetails !== undefined ? { caseDetails } : {}),
        results: initialState().results,
        cases: initialState().cases,
      }
    : freshView(state);
  return appendReport({ ...base, run }, report.cases, report.results, complete);
}

export function appendReport(
  state: ViewState,
  cases: readonly ReportCase[],
  results: readonly ScorerResult[],
  complete: boolean,
): ViewState {
  const draft = new Draft(state);
  for (const c of cases) draft.setCase(caseEntry(c));
  for (const r of results) draft.upsert(r);
  const next = draft.finish(state);
  return next.run === undefined ? next : { ...next, run: { ...next.run, complete } };
}

/** A run/start seen without a view, or events after a clear: a run whose head is not known yet. */
const UNKNOWN_RUN: RunInfo = {
  kind: 'live',
  runId: '',
  configFile: '',
  startedAt: '',
  cancelled: false,
  numTrials: 1,
  scorers: [],
  complete: false,
};

export function foldEvents(
  state: ViewState,
  events: readonly RunEvent[],
  aggregates: LiveAggregates | undefined,
): ViewState {
  let current = state;
  let draft = new Draft(current);
  for (const event of events) {
    switch (event.type) {
      case 'run/start': {
        current = draft.finish(current);
        const run: RunInfo = {
          kind: 'live',
          runId: event.runId,
          configFile: event.configFile,
          startedAt: event.startedAt,
          cancelled: false,
          numTrials: event.numTrials,
          scorers: event.scorers,
          complete: false,
        };
        current = { ...freshView(current), run };
        draft = new Draft(current);
        break;
      }
      case 'case/start':
        draft.setCase({
          id: event.caseId,
          index: event.index,
          status: 'running',
          location: { file: event.range.file, ...toDisplay(event.range.start) },
        });
        break;
      case 'result':
        draft.upsert(event.result);
        break;
      case 'case/end': {
        const location = draft.getCase(event.caseId)?.location ?? {
          file: event.range.file,
          ...toDisplay(event.range.start),
        };
        const entry: CaseEntry = {
          id: event.caseId,
          index: event.index,
          status: event.status,
          durationMs: event.durationMs,
          location,
        };
        draft.setCase(event.trials === undefined ? entry : { ...entry, trials: event.trials });
        for (const r of event.results) draft.upsert(r);
        break;
      }
      case 'run/end': {
        const run = current.run ?? UNKNOWN_RUN;
        current = {
          ...current,
          run: {
            ...run,
            finishedAt: event.finishedAt,
            durationMs: event.durationMs,
            cancelled: event.cancelled,
            summary: event.summary,
            complete: true,
          },
        };
        break;
      }
    }
  }
  current = draft.finish(current);
  if (aggregates === undefined) return current;
  const run = current.run ?? UNKNOWN_RUN;
  const { job: _job, ...withoutJob } = run;
  return {
    ...current,
    run: {
      ...withoutJob,
      aggregates: aggregates.scorers,
      ...(aggregates.job === undefined ? {} : { job: aggregates.job }),
    },
  };
}
