/**
 * The results table, virtualized: a spacer as tall as all rows keeps the scrollbar honest, and only
 * the rows in view (plus a few either side) are in the DOM, so 100,000 results cost what 50 do.
 * Rows have one fixed height; the window is recomputed on scroll and on every state change.
 */
import type { ScorerResult } from '../../core/result';
import { formatScore } from '../model/summary';
import { type SortColumn, type ViewState, resultKey } from '../model/viewState';
import { el } from './dom';

export const ROW_HEIGHT = 24;
const OVERSCAN = 8;

export interface TableHandlers {
  select(key: string): void;
  open(key: string): void;
  reveal(caseId: string): void;
  sort(column: SortColumn): void;
}

interface Column {
  readonly id: SortColumn;
  readonly label: string;
  /** The narrowest the column gets, in em; below the sum of these the table scrolls sideways. */
  readonly minEm: number;
  /** Share of the width left over; 0 keeps the column at its minimum. */
  readonly grow: number;
  readonly cell: (result: ScorerResult) => string;
}

const COLUMNS: readonly Column[] = [
  { id: 'case', label: 'Case', minEm: 8, grow: 1.5, cell: (r) => r.caseId },
  { id: 'scorer', label: 'Scorer', minEm: 6, grow: 1, cell: (r) => r.scorer },
  { id: 'trial', label: 'Trial', minEm: 3.5, grow: 0, cell: (r) => String(r.trial) },
  { id: 'status', label: 'Status', minEm: 8, grow: 0, cell: (r) => r.status },
  { id: 'score', label: 'Score', minEm: 5, grow: 0, cell: (r) => formatScore(r.score) },
  { id: 'reason', label: 'Reason', minEm: 10, grow: 4, cell: (r) => r.reason },
  { id: 'duration', label: 'ms', minEm: 4.5, grow: 0, cell: (r) => formatScore(r.durationMs) },
];

const COLUMNS_WITHOUT_TRIAL: readonly Column[] = COLUMNS.filter((c) => c.id !== 'trial');

function track(column: Column): string {
  return column.grow === 0 ? `${column.minEm}em` : `minmax(${column.minEm}em, ${column.grow}fr)`;
}

export class ResultsTable {
  readonly element: HTMLElement;
  private readonly header: HTMLElement;
  private readonly viewport: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly body: HTMLElement;
  private state: ViewState | undefined;
  private rows: readonly number[] = [];
  private columns: readonly Column[] = COLUMNS;
  /** The row elements in the DOM, by result key, reused by the next redraw. */
  private rendered = new Map<string, HTMLElement>();

  constructor(private readonly handlers: TableHandlers) {
    this.header = el('div', { className: 'row header', attrs: { role: 'row', 'aria-rowindex': '1' } });
    this.body = el('div', { className: 'rows', attrs: { role: 'rowgroup' } });
    this.spacer = el('div', { className: 'spacer' }, this.body);
    // The header scrolls with the rows (sticky at the top), so sideways it stays over its columns.
    this.viewport = el('div', { className: 'viewport' }, this.header, this.spacer);
    this.element = el('div', { className: 'table', attrs: { role: 'grid', tabindex: '0', 'aria-label': 'Results', 'aria-multiselectable': 'false' } }, this.viewport);
    this.viewport.addEventListener('scroll', () => this.renderWindow());
    this.body.addEventListener('click', (event) => this.onClick(event, false));
    this.body.addEventListener('dblclick', (event) => this.onClick(event, true));
  }

  update(state: ViewState, rows: readonly number[]): void {
    const trialsShown = (state.run?.numTrials ?? 1) > 1;
    const columns = trialsShown ? COLUMNS : COLUMNS_WITHOUT_TRIAL;
    if (columns !== this.columns || this.header.childElementCount === 0 || this.state?.sort !== state.sort) {
      this.columns = columns;
      this.element.style.setProperty('--columns', columns.map(track).join(' '));
      this.element.style.setProperty('--columns-min-width', `${columns.reduce((sum, c) => sum + c.minEm, 0)}em`);
      this.renderHeader(state);
    }
    this.state = state;
    this.rows = rows;
    this.element.setAttribute('aria-rowcount', String(rows.length + 1));
    this.spacer.style.height = `${rows.length * ROW_HEIGHT}px`;
    this.renderWindow();
  }

  /** Rows that fit in the viewport: the step of PageUp/PageDown. */
  pageSize(): number {
    return Math.max(1, Math.floor(this.viewport.clientHeight / ROW_HEIGHT) - 1);
  }

  /** Scrolls so the row at `index` (in the visible rows) is in view, below the sticky header. */
  scrollToRow(index: number): void {
    // Row i spans [ROW_HEIGHT·(i+1), ROW_HEIGHT·(i+2)) of the viewport's content, the header above it.
    const top = index * ROW_HEIGHT;
    const bottom = (index + 2) * ROW_HEIGHT;
    if (top < this.viewport.scrollTop) this.viewport.scrollTop = top;
    else if (bottom > this.viewport.scrollTop + this.viewport.clientHeight) this.viewport.scrollTop = bottom - this.viewport.clientHeight;
  }

  private renderHeader(state: ViewState): void {
    const cells = this.columns.map((column) => {
      const sorted = state.sort.column === column.id;
      const cell = el('div', {
        className: `cell sortable${sorted ? ' sorted' : ''}`,
        attrs: { role: 'columnheader', 'aria-sort': sorted ? (state.sort.direction === 'asc' ? 'ascending' : 'descending') : 'none', tabindex: '-1', title: `Sort by ${column.label}` },
      });
      cell.append(column.label, sorted ? (state.sort.direction === 'asc' ? ' ▲' : ' ▼') : '');
      cell.addEventListener('click', () => this.handlers.sort(column.id));
      return cell;
    });
    this.header.replaceChildren(...cells);
  }

  private renderWindow(): void {
    const state = this.state;
    if (state === undefined) return;
    const height = this.viewport.clientHeight || ROW_HEIGHT * 30;
    const first = Math.max(0, Math.floor(this.viewport.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(this.rows.length, Math.ceil((this.viewport.scrollTop + height) / ROW_HEIGHT) + OVERSCAN);
    this.body.style.transform = `translateY(${first * ROW_HEIGHT}px)`;
    const elements: HTMLElement[] = [];
    const kept = new Map<string, HTMLElement>();
    let active: string | undefined;
    for (let i = first; i < last; i++) {
      const result = state.results.items[this.rows[i] ?? -1];
      if (result === undefined) continue;
      const key = resultKey(result);
      const selected = key === state.selected;
      const row = this.rowFor(result, key, i, selected);
      kept.set(key, row);
      if (selected) active = row.id;
      elements.push(row);
    }
    this.rendered = kept;
    // The same elements in the same order stay put: a redraw under the mouse (a report arriving
    // between the two clicks of a double click) must not take the row the clicks are on away.
    const children = this.body.children;
    const same = children.length === elements.length && elements.every((row, i) => children[i] === row);
    if (!same) this.body.replaceChildren(...elements);
    if (active === undefined) this.element.removeAttribute('aria-activedescendant');
    else this.element.setAttribute('aria-activedescendant', active);
  }

  /** The row element of a result: the one already shown for its key, brought up to date, else a new one. */
  private rowFor(result: ScorerResult, key: string, index: number, selected: boolean): HTMLElement {
    const row = this.rendered.get(key) ?? el('div', { attrs: { role: 'row' } });
    rowKeys.set(row, key);
    row.className = `row status-${result.status}${selected ? ' selected' : ''}`;
    row.id = `row-${index}`;
    row.setAttribute('aria-rowindex', String(index + 2));
    row.setAttribute('aria-selected', String(selected));
    // Cells are updated in place, never replaced: the element a click went down on is still there when it comes up.
    const drawn = rowContents.get(row);
    if (drawn?.columns !== this.columns) {
      row.replaceChildren(...this.columns.map((column) => el('div', { className: `cell col-${column.id}`, attrs: { role: 'gridcell' } })));
      rowContents.set(row, { columns: this.columns });
    }
    this.columns.forEach((column, i) => {
      const cell = row.children[i];
      if (cell instanceof HTMLElement) fillCell(cell, column, result);
    });
    return row;
  }

  private onClick(event: MouseEvent, double: boolean): void {
    if (!(event.target instanceof Element)) return;
    const row = event.target.closest('.row');
    const key = row === null ? undefined : rowKeys.get(row);
    if (key === undefined) return;
    const link = event.target.closest('.case-link');
    const caseId = link === null ? undefined : caseLinks.get(link);
    this.handlers.select(key);
    if (caseId !== undefined && !double) this.handlers.reveal(caseId);
    if (double) this.handlers.open(key);
    this.element.focus();
  }
}

/** Which result a rendered row shows and which case a link reveals, without putting ids in attributes. */
const rowKeys = new WeakMap<Element, string>();
/** The columns a row element's cells were made for. */
const rowContents = new WeakMap<Element, { readonly columns: readonly Column[] }>();

/** Shows a result in a cell, changing only what differs (a case link and a status badge keep their element). */
function fillCell(cell: HTMLElement, column: Column, result: ScorerResult): void {
  const text = column.cell(result);
  if (cell.title !== text) cell.title = text;
  if (column.id === 'case' || column.id === 'status') {
    const className = column.id === 'case' ? 'case-link' : `badge status-${result.status}`;
    let inner = cell.firstElementChild;
    if (!(inner instanceof HTMLElement)) {
      inner = el('span', {});
      cell.replaceChildren(inner);
    }
    if (!(inner instanceof HTMLElement)) return;
    if (inner.className !== className) inner.className = className;
    if (inner.textContent !== text) inner.textContent = text;
    if (column.id === 'case') {
      inner.title = `Reveal ${result.caseId} in its dataset`;
      caseLinks.set(inner, result.caseId);
    }
  } else if (cell.textContent !== text) {
    cell.textContent = text;
  }
}
const caseLinks = new WeakMap<Element, string>();
