/**
 * The results view: holds the state, runs every change through `reduce`, renders at most once per
 * animation frame, and turns keys and clicks into actions. Talks to the host only through `post`.
 */
import type { WebviewToHost } from '../../protocol/webview';
import type { Action, PersistedView } from '../model/actions';
import { type CompareAction, type CompareState, initialCompare, reduceCompare } from '../model/compare';
import { census, resultsOfCase } from '../model/derived';
import { visibleRows } from '../model/query';
import { caseRequestFor, detailsRequestFor, persistedView, persistedViewChanged, reduce } from '../model/reducer';
import { detailsNote, withDetails } from '../model/caseView';
import { caseCountsLine, jobLine, runTitle, scorerDistributions, scorerLines } from '../model/summary';
import { groupedRows, rowOfKey } from '../model/groups';
import { type ViewState, caseOfRowKey, caseRowKey, initialState, selectedResult } from '../model/viewState';
import { CompareView } from './compareView';
import { renderDetail } from './detailPane';
import { el } from './dom';
import { renderSummary } from './summaryBand';
import { ResultsTable } from './table';
import { Toolbar } from './toolbar';

/** How often a report still arriving in chunks is redrawn. */
const LOADING_REDRAW_MS = 400;

export interface AppHost {
  post(message: WebviewToHost): void;
  persist(view: PersistedView): void;
}

export class ResultsApp {
  private state: ViewState = initialState();
  private rendered: ViewState | undefined;
  private frame: number | undefined;
  private redrawTimer: ReturnType<typeof setTimeout> | undefined;
  private lastRenderAt = 0;
  private readonly summary = el('section', { className: 'summary', attrs: { 'aria-label': 'Summary' } });
  private readonly toolbar: Toolbar;
  private readonly table: ResultsTable;
  private readonly detail = el('aside', {
    className: 'detail',
    attrs: { 'aria-label': 'Result detail', tabindex: '-1' },
  });
  private readonly empty = el('p', { className: 'empty muted', attrs: { role: 'status' } });
  /** The run view's parts, hidden in compare mode. */
  private readonly runView: HTMLElement;
  private readonly compareView: CompareView;
  private compare: CompareState = initialCompare();
  private mode: 'run' | 'compare' = 'run';

  constructor(
    root: HTMLElement,
    private readonly host: AppHost,
  ) {
    this.toolbar = new Toolbar({
      toggleStatus: (status) => this.dispatch({ type: 'ui/toggleStatus', status }),
      toggleScorer: (scorer) => this.dispatch({ type: 'ui/toggleScorer', scorer }),
      clearFilters: () => this.dispatch({ type: 'ui/clearFilters' }),
      search: (text) => this.dispatch({ type: 'ui/search', text }),
    });
    this.table = new ResultsTable({
      select: (key) => this.dispatch({ type: 'ui/select', key }),
      open: (key) => {
        this.dispatch({ type: 'ui/select', key });
        this.dispatch({ type: 'ui/openDetail' });
      },
      reveal: (caseId) => this.reveal(caseId),
      toggleCase: (caseId) => this.dispatch({ type: 'ui/toggleCase', caseId }),
      sort: (column) => this.dispatch({ type: 'ui/sort', column }),
    });
    const main = el('div', { className: 'main' }, this.table.element, this.detail);
    this.runView = el('div', { className: 'run-view' }, this.summary, this.toolbar.element, this.empty, main);
    this.compareView = new CompareView(
      (action) => this.dispatch(action),
      (message) => host.post(message),
    );
    this.compareView.element.hidden = true;
    root.replaceChildren(this.runView, this.compareView.element);
    this.table.element.addEventListener('keydown', (event) => this.onTableKey(event));
    this.detail.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') this.closeDetail();
    });
    document.addEventListener('keydown', (event) => this.onDocumentKey(event));
    this.render();
  }

  dispatch(action: Action | CompareAction): void {
    if (isCompareAction(action)) {
      this.dispatchCompare(action);
      return;
    }
    // A run to show (a report, a live run, or nothing) leaves compare mode.
    if (action.type === 'report/show' || action.type === 'run/events' || action.type === 'view/clear')
      this.setMode('run');
    const before = this.state;
    const after = reduce(before, action);
    if (after === before) return;
    this.state = after;
    const request = caseRequestFor(before, after);
    if (request !== undefined) this.host.post({ type: 'case/request', ...request });
    const detailsRequest = detailsRequestFor(before, after);
    if (detailsRequest !== undefined) this.host.post({ type: 'details/request', ...detailsRequest });
    // A restore saves nothing: what it restored is saved already, with the run the host is about to send again.
    if (action.type !== 'ui/restore' && persistedViewChanged(before, after)) this.host.persist(persistedView(after));
    this.scheduleRender(action.type === 'report/append' && !action.complete);
  }

  /**
   * Renders at the next frame; a chunk of a report still arriving waits until LOADING_REDRAW_MS after
   * the last render. Redrawing 100,000 results for each of twenty chunks cost more than the chunks
   * themselves; the first chunk (the summary and first rows) and the last still show at once, and
   * anything the person does is drawn at the next frame.
   */
  private scheduleRender(loading = false): void {
    if (this.frame !== undefined) return;
    const wait = loading ? this.lastRenderAt + LOADING_REDRAW_MS - performance.now() : 0;
    if (wait > 0) {
      this.redrawTimer ??= setTimeout(() => {
        this.redrawTimer = undefined;
        this.scheduleRender();
      }, wait);
      return;
    }
    if (this.redrawTimer !== undefined) clearTimeout(this.redrawTimer);
    this.redrawTimer = undefined;
    this.frame = requestAnimationFrame(() => {
      this.frame = undefined;
      this.render();
      this.lastRenderAt = performance.now();
    });
  }

  private dispatchCompare(action: CompareAction): void {
    const after = reduceCompare(this.compare, action);
    // Any message of the host's about a comparison means compare mode.
    if (!action.type.startsWith('compareUi/')) this.setMode('compare');
    if (after === this.compare) return;
    this.compare = after;
    this.scheduleRender();
  }

  private setMode(mode: 'run' | 'compare'): void {
    if (this.mode === mode) return;
    this.mode = mode;
    this.runView.hidden = mode !== 'run';
    this.compareView.element.hidden = mode !== 'compare';
    this.scheduleRender();
  }

  private reveal(caseId: string): void {
    const run = this.state.run;
    if (run === undefined) return;
    const location = this.state.cases.get(caseId)?.location;
    this.host.post({
      type: 'case/reveal',
      target: { configFile: run.configFile, caseId, ...(location === undefined ? {} : { location }) },
    });
  }

  private closeDetail(): void {
    this.dispatch({ type: 'ui/closeDetail' });
    this.table.element.focus();
  }

  private onDocumentKey(event: KeyboardEvent): void {
    const target = event.target;
    const typing = target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement;
    const searchBox = this.mode === 'compare' ? this.compareView.searchBox : this.toolbar.searchBox;
    if (event.key === '/' && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      searchBox.focus();
      searchBox.select();
    } else if (event.key === 'Escape' && target === this.toolbar.searchBox) {
      this.table.element.focus();
    }
  }

  private onTableKey(event: KeyboardEvent): void {
    const page = this.table.pageSize();
    const moves: { readonly [key: string]: number | 'first' | 'last' } = {
      ArrowDown: 1,
      ArrowUp: -1,
      PageDown: page,
      PageUp: -page,
      Home: 'first',
      End: 'last',
    };
    const by = moves[event.key];
    if (by !== undefined) {
      event.preventDefault();
      this.dispatch({ type: 'ui/move', by });
      this.scrollToSelection();
    } else if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
      // As in a tree: → opens a case's row, ← closes it (from one of its scorers, goes to the case first).
      event.preventDefault();
      this.openOrClose(event.key === 'ArrowRight');
    } else if (event.key === 'Enter') {
      event.preventDefault();
      this.dispatch({ type: 'ui/openDetail' });
    } else if (event.key === 'Escape') {
      this.closeDetail();
    }
  }

  private openOrClose(open: boolean): void {
    const selected = this.state.selected;
    if (selected === undefined) return;
    const caseId = caseOfRowKey(selected);
    if (caseId !== undefined) this.dispatch({ type: 'ui/toggleCase', caseId, open });
    else if (!open) {
      const result = selectedResult(this.state);
      if (result !== undefined) this.dispatch({ type: 'ui/select', key: caseRowKey(result.caseId) });
    }
    this.scrollToSelection();
  }

  private scrollToSelection(): void {
    const row = rowOfKey(groupedRows(this.state), this.state.selected, selectedResult(this.state)?.caseId);
    if (row !== undefined) this.table.scrollToRow(row);
  }

  private render(): void {
    if (this.mode === 'compare') {
      this.compareView.render(this.compare);
      return;
    }
    const state = this.state;
    const before = this.rendered;
    this.rendered = state;
    const rows = visibleRows(state);
    const grouped = groupedRows(state);
    const run = state.run;
    const scorers = run?.scorers ?? [];
    const counted = census(state.results.items, scorers);
    this.empty.hidden = run !== undefined;
    this.empty.textContent = state.notice ?? 'No run to show yet. Run an eval or open a report.json.';
    if (
      before === undefined ||
      before.run !== state.run ||
      before.configLabels !== state.configLabels ||
      before.results !== state.results ||
      before.cases !== state.cases
    ) {
      renderSummary(this.summary, {
        title: runTitle(run, state.configLabels),
        status:
          run === undefined
            ? ''
            : run.complete
              ? run.cancelled
                ? 'cancelled'
                : 'finished'
              : run.kind === 'live'
                ? 'running…'
                : 'loading…',
        job: jobLine(run),
        counts: caseCountsLine(run, caseStatuses(state)),
        scorers: scorerLines(run?.aggregates ?? []),
        distributions: scorerDistributions(state.results.items, scorers),
      });
    }
    this.toolbar.update({
      filters: state.filters,
      statusCounts: counted.statusCounts,
      scorers: counted.scorers,
      shown: rows.length,
      total: state.results.size,
    });
    this.table.update(state, grouped.rows, rowOfKey(grouped, state.selected, selectedResult(state)?.caseId));
    this.renderDetailPane(state, before);
  }

  private renderDetailPane(state: ViewState, before: ViewState | undefined): void {
    const result = state.detailOpen ? selectedResult(state) : undefined;
    this.detail.hidden = result === undefined;
    if (result === undefined) return;
    const unchanged =
      before !== undefined &&
      before.detailOpen &&
      before.selected === state.selected &&
      before.caseData === state.caseData &&
      before.caseDetails === state.caseDetails &&
      before.results === state.results &&
      before.cases === state.cases;
    if (unchanged) return;
    const caseEntry = state.cases.get(result.caseId);
    const scorerKey = state.run?.scorers.find((s) => s.name === result.scorer)?.key;
    const note = detailsNote(state.run?.detailsApart === true, state.caseDetails);
    renderDetail(
      this.detail,
      {
        result: withDetails(result, state.caseDetails),
        caseResults: resultsOfCase(state.results.items, result.caseId).map((r) => withDetails(r, state.caseDetails)),
        ...(caseEntry === undefined ? {} : { caseEntry }),
        ...(state.caseData === undefined ? {} : { caseData: state.caseData }),
        ...(scorerKey === undefined ? {} : { scorerKey }),
        ...(note === undefined ? {} : { detailsNote: note }),
      },
      { reveal: (caseId) => this.reveal(caseId), close: () => this.closeDetail() },
    );
  }
}

/** The cases' statuses, read only when the counts line needs them (a live run without its summary yet). */
function* caseStatuses(state: ViewState): Iterable<string> {
  for (const c of state.cases.values()) yield c.status;
}

function isCompareAction(action: Action | CompareAction): action is CompareAction {
  return action.type.startsWith('compare/') || action.type.startsWith('compareUi/');
}
