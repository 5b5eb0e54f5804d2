/**
 * The results table, grouped by case (groups.ts: a row per case, under an open case a row per
 * scorer with its trials summed up) and virtualized: a spacer as tall as all rows keeps the
 * scrollbar honest, and only the rows in view (plus a few either side) are in the DOM, so 100,000
 * results cost what 50 do. Rows have one fixed height; the window is recomputed on scroll and on
 * every state change, reusing the elements of rows still in view.
 */
import type { GroupRow } from '../model/groups';
import { formatScore } from '../model/summary';
import type { SortColumn, ViewState } from '../model/viewState';
import { el } from './dom';
import { ACROSS_TRIALS, trialName } from '../../shared/text/trialName';

export const ROW_HEIGHT = 24;
const OVERSCAN = 8;

export interface TableHandlers {
  select(key: string): void;
  open(key: string): void;
  reveal(caseId: string): void;
  toggleCase(caseId: string): void;
  sort(column: SortColumn): void;
}

interface Column {
  readonly id: SortColumn;
  readonly label: string;
  /** The narrowest the column gets, in em; below the sum of these the table scrolls sideways. */
  readonly minEm: number;
  /** Share of the width left over; 0 keeps the column at its minimum. */
  readonly grow: number;
  readonly cell: (row: GroupRow, state: ViewState) => string;
}

/** A case row's own columns: how many scorers, how many failing, the first reason that is not a pass. */
function caseCell(row: GroupRow, state: ViewState, column: SortColumn): string {
  if (row.kind !== 'case') return '';
  const entry = state.cases.get(row.caseId);
  switch (column) {
    case 'case':
      return row.caseId;
    case 'scorer':
      return `${row.scorers} scorer${row.scorers === 1 ? '' : 's'}${row.failingScorers > 0 ? `, ${row.failingScorers} failing` : ''}`;
    case 'status':
      return entry?.status ?? row.first.status;
    case 'reason':
      return row.first.status === 'pass' || row.first.status === 'measured'
        ? ''
        : `${row.first.scorer}: ${row.first.reason}`;
    case 'duration':
      return formatScore(entry?.durationMs);
    default:
      return '';
  }
}

function scorerCell(row: GroupRow, column: SortColumn): string {
  if (row.kind !== 'scorer') return '';
  const r = row.shown;
  switch (column) {
    case 'case':
      return '';
    case 'scorer':
      return r.scorer;
    case 'trial':
      return row.trials > 1
        ? `${row.passedTrials}/${row.trials} pass`
        : r.trial === 0
          ? ACROSS_TRIALS
          : String(r.trial);
    case 'status':
      return r.status;
    case 'score':
      return formatScore(r.score);
    case 'reason':
      return row.trials > 1 && row.passedTrials < row.trials ? `${trialName(r.trial)}: ${r.reason}` : r.reason;
    case 'duration':
      return formatScore(r.durationMs);
  }
}

function cellOf(id: SortColumn): (row: GroupRow, state: ViewState) => string {
  return (row, state) => (row.kind === 'case' ? caseCell(row, state, id) : scorerCell(row, id));
}

const COLUMNS: readonly Column[] = [
  { id: 'case', label: 'Case', minEm: 8, grow: 1.5, cell: cellOf('case') },
  { id: 'scorer', label: 'Scorer', minEm: 6, grow: 1, cell: cellOf('scorer') },
  { id: 'trial', label: 'Trials', minEm: 5, grow: 0, cell: cellOf('trial') },
  { id: 'status', label: 'Status', minEm: 6.5, grow: 0, cell: cellOf('status') },
  { id: 'score', label: 'Score', minEm: 4, grow: 0, cell: cellOf('score') },
  { id: 'reason', label: 'Reason', minEm: 10, grow: 4, cell: cellOf('reason') },
  { id: 'duration', label: 'ms', minEm: 4, grow: 0, cell: cellOf('duration') },
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
  private rows: readonly GroupRow[] = [];
  private columns: readonly Column[] = COLUMNS;
  private selectedRow: number | undefined;
  /** The row elements in the DOM, by row key, reused by the next redraw. */
  private rendered = new Map<string, HTMLElement>();

  constructor(private readonly handlers: TableHandlers) {
    this.header = el('div', { className: 'row header', attrs: { role: 'row', 'aria-rowindex': '1' } });
    this.body = el('div', { className: 'rows', attrs: { role: 'rowgroup' } });
    this.spacer = el('div', { className: 'spacer' }, this.body);
    // The header scrolls with the rows (sticky at the top), so sideways it stays over its columns.
    this.viewport = el('div', { className: 'viewport' }, this.header, this.spacer);
    this.element = el(
      'div',
      {
        className: 'table',
        attrs: { role: 'grid', tabindex: '0', 'aria-label': 'Results', 'aria-multiselectable': 'false' },
      },
      this.viewport,
    );
    this.viewport.addEventListener('scroll', () => this.renderWindow());
    this.body.addEventListener('click', (event) => this.onClick(event, false));
    this.body.addEventListener('dblclick', (event) => this.onClick(event, true));
  }

  update(state: ViewState, rows: readonly GroupRow[], selectedRow: number | undefined): void {
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
    this.selectedRow = selectedRow;
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
    else if (bottom > this.viewport.scrollTop + this.viewport.clientHeight)
      this.viewport.scrollTop = bottom - this.viewport.clientHeight;
  }

  private renderHeader(state: ViewState): void {
    const cells = this.columns.map((column) => {
      const sorted = state.sort.column === column.id;
      const cell = el('div', {
        className: `cell sortable${sorted ? ' sorted' : ''}`,
        attrs: {
          role: 'columnheader',
          'aria-sort': sorted ? (state.sort.direction === 'asc' ? 'ascending' : 'descending') : 'none',
          tabindex: '-1',
          title: `Sort by ${column.label}`,
        },
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
    // Elements of rows that left the window are reused for rows that came in (a fast scroll replaces
    // every row each frame: filling cells in place costs far less than making and dropping elements).
    const inWindow = new Set<string>();
    for (let i = first; i < last; i++) {
      const row = this.rows[i];
      if (row !== undefined) inWindow.add(row.key);
    }
    const free: HTMLElement[] = [];
    for (const [key, element] of this.rendered) if (!inWindow.has(key)) free.push(element);
    for (let i = first; i < last; i++) {
      const row = this.rows[i];
      if (row === undefined) continue;
      const selected = i === this.selectedRow;
      const element = this.rowFor(row, state, i, selected, this.rendered.get(row.key) ?? free.pop());
      kept.set(row.key, element);
      if (selected) active = element.id;
      elements.push(element);
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

  /** The element of a row: the one already shown for its key (or one free for reuse), brought up to date, else a new one. */
  private rowFor(
    row: GroupRow,
    state: ViewState,
    index: number,
    selected: boolean,
    reused: HTMLElement | undefined,
  ): HTMLElement {
    const element = reused ?? el('div', { attrs: { role: 'row' } });
    rowKeys.set(element, row);
    const status = row.kind === 'case' ? (state.cases.get(row.caseId)?.status ?? row.first.status) : row.shown.status;
    element.className = `row ${row.kind}-row status-${status}${selected ? ' selected' : ''}`;
    element.id = `row-${index}`;
    element.setAttribute('aria-rowindex', String(index + 2));
    element.setAttribute('aria-selected', String(selected));
    element.setAttribute('aria-level', row.kind === 'case' ? '1' : '2');
    if (row.kind === 'case') element.setAttribute('aria-expanded', String(row.open));
    else element.removeAttribute('aria-expanded');
    // Cells are updated in place, never replaced: the element a click went down on is still there when it comes up.
    const drawn = rowContents.get(element);
    if (drawn?.columns !== this.columns) {
      element.replaceChildren(
        ...this.columns.map((column) => el('div', { className: `cell col-${column.id}`, attrs: { role: 'gridcell' } })),
      );
      rowContents.set(element, { columns: this.columns });
    }
    this.columns.forEach((column, i) => {
      const cell = element.children[i];
      if (cell instanceof HTMLElement) fillCell(cell, column, row, state, status);
    });
    return element;
  }

  private onClick(event: MouseEvent, double: boolean): void {
    if (!(event.target instanceof Element)) return;
    const element = event.target.closest('.row');
    const row = element === null ? undefined : rowKeys.get(element);
    if (row === undefined) return;
    if (event.target.closest('.expander') !== null) {
      if (!double) this.handlers.toggleCase(row.caseId);
      return;
    }
    const link = event.target.closest('.case-link');
    const caseId = link === null ? undefined : caseLinks.get(link);
    this.handlers.select(row.key);
    if (caseId !== undefined && !double) this.handlers.reveal(caseId);
    if (double) this.handlers.open(row.key);
    this.element.focus();
  }
}

/** Which row an element shows and which case a link reveals, without putting ids in attributes. */
const rowKeys = new WeakMap<Element, GroupRow>();
/** The columns a row element's cells were made for. */
const rowContents = new WeakMap<Element, { readonly columns: readonly Column[] }>();
const caseLinks = new WeakMap<Element, string>();

/** Shows a row in a cell, changing only what differs (an expander, a case link and a status badge keep their elements). */
function fillCell(cell: HTMLElement, column: Column, row: GroupRow, state: ViewState, status: string): void {
  const text = column.cell(row, state);
  if (cell.title !== text) cell.title = text;
  if (column.id === 'case' && row.kind === 'case') {
    let expander = cell.firstElementChild;
    let link = expander?.nextElementSibling;
    if (!(expander instanceof HTMLElement) || !(link instanceof HTMLElement)) {
      expander = el('span', { className: 'expander', attrs: { 'aria-hidden': 'true' } });
      link = el('span', { className: 'case-link' });
      cell.replaceChildren(expander, link);
    }
    if (!(expander instanceof HTMLElement) || !(link instanceof HTMLElement)) return;
    const arrow = row.open ? '▾ ' : '▸ ';
    if (expander.textContent !== arrow) expander.textContent = arrow;
    expander.title = row.open ? 'Close (←)' : 'Open its scorers (→)';
    if (link.textContent !== text) link.textContent = text;
    link.title = `Reveal ${row.caseId} in its dataset`;
    caseLinks.set(link, row.caseId);
  } else if (column.id === 'status') {
    let badge = cell.firstElementChild;
    if (!(badge instanceof HTMLElement)) {
      badge = el('span', {});
      cell.replaceChildren(badge);
    }
    if (!(badge instanceof HTMLElement)) return;
    const className = `badge status-${status}`;
    if (badge.className !== className) badge.className = className;
    if (badge.textContent !== text) badge.textContent = text;
  } else if (cell.childElementCount > 0 || cell.textContent !== text) {
    cell.textContent = text;
  }
}
