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
    const columns = trialsShown ? COLUMNS : COLUMNS.filter((c) => c.id !== 'trial');
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
    let active: string | undefined;
    for (let i = first; i < last; i++) {
      const result = state.results.items[this.rows[i] ?? -1];
      if (result === undefined) continue;
      const key = resultKey(result);
      const selected = key === state.selected;
      const row = this.renderRow(result, key, i, selected);
      if (selected) active = row.id;
      elements.push(row);
    }
    this.body.replaceChildren(...elements);
    if (active === undefined) this.element.removeAttribute('aria-activedescendant');
    else this.element.setAttribute('aria-activedescendant', active);
  }

  private renderRow(result: ScorerResult, key: string, index: number, selected: boolean): HTMLElement {
    const row = el('div', {
      className: `row status-${result.status}${selected ? ' selected' : ''}`,
      attrs: { role: 'row', id: `row-${index}`, 'aria-rowindex': String(index + 2), 'aria-selected': String(selected) },
    });
    rowKeys.set(row, key);
    for (const column of this.columns) {
      const text = column.cell(result);
      const cell = el('div', { className: `cell col-${column.id}`, attrs: { role: 'gridcell', title: text } });
      if (column.id === 'case') {
        const link = el('span', { className: 'case-link', attrs: { title: `Reveal ${result.caseId} in its dataset` } }, text);
        caseLinks.set(link, result.caseId);
        cell.append(link);
      } else if (column.id === 'status') {
        cell.append(el('span', { className: `badge status-${result.status}` }, text));
      } else {
        cell.append(text);
      }
      row.append(cell);
    }
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
const caseLinks = new WeakMap<Element, string>();
