/**
 * The compare mode: two runs side by side. At the top the two pickers (any run of the runs folder, or
 * a baseline file) and what is compared; then per scorer both runs' figures with their error bars on
 * one axis, the delta with its interval drawn around zero, the p-values and the verdict; then the
 * cases, worst transition first, with a "regressions only" filter and a search box.
 */
import type { WebviewToHost } from '../../protocol/webview';
import { type CompareAction, compareRows, type CompareState } from '../model/compare';
import { compareScorerLines, notComparedLine, transitionCountsLine } from '../model/compareSummary';
import { button, el } from './dom';
import { errorBarSvg } from './errorBarSvg';
import { CompareTable } from './compareTable';
import type { IntervalBar } from '../model/errorBars';

export class CompareView {
  readonly element: HTMLElement;
  readonly searchBox: HTMLInputElement;
  private readonly baselinePick: HTMLSelectElement;
  private readonly candidatePick: HTMLSelectElement;
  private readonly status = el('div', { className: 'compare-status', attrs: { role: 'status' } });
  private readonly summary = el('section', { className: 'compare-summary', attrs: { 'aria-label': 'Comparison' } });
  private readonly regressionsOnly: HTMLInputElement;
  private readonly count = el('span', { className: 'count', attrs: { 'aria-live': 'polite' } });
  private readonly table: CompareTable;
  private last: CompareState | undefined;
  /** A key moved the selection: bring it into view at the next render, once the table has it. */
  private scrollPending = false;

  constructor(
    private readonly dispatch: (action: CompareAction) => void,
    private readonly post: (message: WebviewToHost) => void,
  ) {
    this.baselinePick = el('select', { className: 'run-pick', attrs: { 'aria-label': 'Baseline run' } });
    this.candidatePick = el('select', { className: 'run-pick', attrs: { 'aria-label': 'Candidate run' } });
    this.baselinePick.addEventListener('change', () =>
      dispatch({ type: 'compareUi/pick', side: 'baseline', path: this.baselinePick.value }),
    );
    this.candidatePick.addEventListener('change', () =>
      dispatch({ type: 'compareUi/pick', side: 'candidate', path: this.candidatePick.value }),
    );
    const compare = button('Compare', () => this.requestCompare(), { className: 'compare-go' });
    const close = button('Back to results', () => post({ type: 'compare/close' }), { className: 'plain' });
    const pickers = el(
      'div',
      { className: 'compare-pickers' },
      el('label', {}, 'Baseline ', this.baselinePick),
      el('label', {}, 'Candidate ', this.candidatePick),
      compare,
      close,
    );
    this.searchBox = el('input', {
      className: 'search',
      attrs: {
        type: 'search',
        placeholder: 'Search case, transition  ( / )',
        'aria-label': 'Search cases',
        spellcheck: 'false',
      },
    });
    this.searchBox.addEventListener('input', () => dispatch({ type: 'compareUi/search', text: this.searchBox.value }));
    this.regressionsOnly = el('input', { attrs: { type: 'checkbox', 'aria-label': 'Regressions only' } });
    this.regressionsOnly.addEventListener('change', () =>
      dispatch({ type: 'compareUi/regressionsOnly', on: this.regressionsOnly.checked }),
    );
    const toolbar = el(
      'div',
      { className: 'compare-toolbar' },
      this.searchBox,
      el('label', { className: 'toggle' }, this.regressionsOnly, ' Regressions only'),
      this.count,
    );
    this.table = new CompareTable({ select: (id) => dispatch({ type: 'compareUi/select', id }) });
    this.table.element.addEventListener('keydown', (event) => this.onKey(event));
    this.element = el(
      'div',
      { className: 'compare' },
      el('h2', { className: 'compare-title' }, 'Compare runs'),
      pickers,
      this.status,
      this.summary,
      toolbar,
      el('div', { className: 'compare-main' }, this.table.element),
    );
  }

  private requestCompare(): void {
    const baseline = this.baselinePick.value;
    const candidate = this.candidatePick.value;
    if (baseline === '' || candidate === '') return;
    this.post({ type: 'compare/request', baseline, candidate });
  }

  private onKey(event: KeyboardEvent): void {
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
    if (by === undefined) return;
    event.preventDefault();
    this.scrollPending = true;
    this.dispatch({ type: 'compareUi/move', by });
  }

  render(state: CompareState): void {
    const last = this.last;
    this.last = state;
    if (last?.runs !== state.runs) {
      for (const pick of [this.baselinePick, this.candidatePick])
        pick.replaceChildren(
          ...state.runs.map((run) =>
            el('option', { attrs: { value: run.path, title: run.detail } }, `${run.label} · ${run.detail}`),
          ),
        );
    }
    if (state.baseline !== undefined) this.baselinePick.value = state.baseline;
    if (state.candidate !== undefined) this.candidatePick.value = state.candidate;
    this.status.textContent =
      state.status === 'loading'
        ? 'Comparing…'
        : state.status === 'failed'
          ? `Cannot compare: ${state.reason ?? ''}`
          : state.status === 'choosing'
            ? state.runs.length < 2
              ? 'Fewer than two runs to compare: run the config (again) first.'
              : 'Pick a baseline and a candidate run, then Compare.'
            : state.complete
              ? ''
              : 'Loading cases…';
    this.status.classList.toggle('verdict-fail', state.status === 'failed');
    if (last?.head !== state.head) this.renderSummary(state);
    if (document.activeElement !== this.searchBox && this.searchBox.value !== state.search)
      this.searchBox.value = state.search;
    this.regressionsOnly.checked = state.regressionsOnly;
    const rows = compareRows(state);
    const total = state.cases.length.toLocaleString('en-US');
    this.count.textContent =
      rows.length === state.cases.length
        ? `${total} cases`
        : `${rows.length.toLocaleString('en-US')} of ${total} cases`;
    this.table.update(state.cases, rows, state.selected);
    if (this.scrollPending) {
      this.scrollPending = false;
      this.table.scrollToSelected();
    }
  }

  private renderSummary(state: CompareState): void {
    const head = state.head;
    if (head === undefined) {
      this.summary.replaceChildren();
      return;
    }
    const title = el(
      'div',
      { className: 'run-head' },
      el('span', { className: 'compare-config' }, head.candidate.config),
      el(
        'span',
        { className: 'muted', attrs: { title: `${head.baseline.file} → ${head.candidate.file}` } },
        `baseline ${head.baseline.runId} (${head.baseline.cases} cases) → candidate ${head.candidate.runId} (${head.candidate.cases} cases)`,
      ),
    );
    const counts = el('div', { className: 'case-counts' }, transitionCountsLine(head));
    const notCompared = notComparedLine(head);
    const header = el(
      'tr',
      {},
      ...['Scorer', 'Baseline · 95%', 'Candidate · 95%', 'Delta · 95%', 'p (Holm)', 'p raw', 'Verdict'].map((h) =>
        el('th', { attrs: { scope: 'col' } }, h),
      ),
    );
    const rows = compareScorerLines(head).map((line) =>
      el(
        'tr',
        { className: `verdict-row ${line.verdict.replace(/ /g, '-')}` },
        el('td', {}, line.name, el('span', { className: 'muted' }, ` (${line.measure})`)),
        el('td', { className: 'figure-cell' }, figure(line.baseline, line.baselineBar)),
        el('td', { className: 'figure-cell' }, figure(line.candidate, line.candidateBar)),
        el('td', { className: 'figure-cell' }, figure(line.delta, line.deltaBar, verdictClass(line.verdict))),
        el('td', {}, line.p),
        el('td', { className: 'muted' }, line.pRaw),
        el(
          'td',
          { className: `verdict ${verdictClass(line.verdict)}`, attrs: { title: line.note } },
          line.verdict,
          line.note === '' ? undefined : el('span', { className: 'muted' }, ` (${line.note})`),
        ),
      ),
    );
    this.summary.replaceChildren(
      title,
      counts,
      notCompared === '' ? '' : el('div', { className: 'muted' }, notCompared),
      el('table', { className: 'scorers compare-scorers' }, el('thead', {}, header), el('tbody', {}, ...rows)),
    );
  }
}

function verdictClass(verdict: string): string {
  return verdict === 'regressed' ? 'regressed' : verdict === 'improved' ? 'improved' : '';
}

function figure(text: string, bar: IntervalBar | undefined, className = ''): HTMLElement {
  return el(
    'div',
    { className: 'figure' },
    bar === undefined ? undefined : errorBarSvg(bar, className),
    el('span', { className: 'figure-value' }, text),
  );
}
