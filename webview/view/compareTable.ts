/**
 * The compare mode's case table, virtualized as the results table is (table.ts): a spacer as tall as
 * all rows, only the rows in view (plus a few either side) in the DOM, one fixed row height, so the
 * 100,000 cases of a large comparison cost what 50 do.
 */
import type { CompareCase } from '../../protocol/compareView';
import { caseSides, TRANSITION_LABEL } from '../model/compare';
import { el } from './dom';
import { ROW_HEIGHT } from './table';

const OVERSCAN = 8;

const COLUMNS = [
  { id: 'case', label: 'Case', track: 'minmax(10em, 3fr)' },
  { id: 'transition', label: 'Transition', track: '9em' },
  { id: 'baseline', label: 'Baseline', track: '7.5em' },
  { id: 'candidate', label: 'Candidate', track: '7.5em' },
  { id: 'delta', label: 'Δ pass', track: '5em' },
] as const;

export interface CompareTableHandlers {
  select(id: string): void;
}

export class CompareTable {
  readonly element: HTMLElement;
  private readonly viewport: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly body: HTMLElement;
  private cases: readonly CompareCase[] = [];
  private rows: readonly number[] = [];
  private selected: string | undefined;
  private readonly ids = new WeakMap<Element, string>();

  constructor(private readonly handlers: CompareTableHandlers) {
    const header = el(
      'div',
      { className: 'crow crow-header', attrs: { role: 'row', 'aria-rowindex': '1' } },
      ...COLUMNS.map((c) => el('div', { className: `cell col-${c.id}`, attrs: { role: 'columnheader' } }, c.label)),
    );
    this.body = el('div', { className: 'compare-rows', attrs: { role: 'rowgroup' } });
    this.spacer = el('div', { className: 'spacer' }, this.body);
    this.viewport = el('div', { className: 'viewport' }, header, this.spacer);
    this.element = el(
      'div',
      { className: 'compare-table', attrs: { role: 'grid', tabindex: '0', 'aria-label': 'Compared cases' } },
      this.viewport,
    );
    this.element.style.setProperty('--columns', COLUMNS.map((c) => c.track).join(' '));
    this.element.style.setProperty('--columns-min-width', '40em');
    this.viewport.addEventListener('scroll', () => this.renderWindow());
    this.body.addEventListener('click', (event) => {
      const row = event.target instanceof Element ? event.target.closest('.crow') : null;
      const id = row === null ? undefined : this.ids.get(row);
      if (id !== undefined) this.handlers.select(id);
      this.element.focus();
    });
  }

  update(cases: readonly CompareCase[], rows: readonly number[], selected: string | undefined): void {
    if (cases === this.cases && rows === this.rows && selected === this.selected) return;
    this.cases = cases;
    this.rows = rows;
    this.selected = selected;
    this.element.setAttribute('aria-rowcount', String(rows.length + 1));
    this.spacer.style.height = `${rows.length * ROW_HEIGHT}px`;
    this.renderWindow();
  }

  pageSize(): number {
    return Math.max(1, Math.floor(this.viewport.clientHeight / ROW_HEIGHT) - 1);
  }

  /** Scrolls the selected case into view. */
  scrollToSelected(): void {
    const index = this.rows.findIndex((i) => this.cases[i]?.id === this.selected);
    if (index === -1) return;
    const top = index * ROW_HEIGHT;
    const bottom = (index + 2) * ROW_HEIGHT;
    if (top < this.viewport.scrollTop) this.viewport.scrollTop = top;
    else if (bottom > this.viewport.scrollTop + this.viewport.clientHeight)
      this.viewport.scrollTop = bottom - this.viewport.clientHeight;
  }

  private renderWindow(): void {
    const height = this.viewport.clientHeight || ROW_HEIGHT * 30;
    const first = Math.max(0, Math.floor(this.viewport.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(this.rows.length, Math.ceil((this.viewport.scrollTop + height) / ROW_HEIGHT) + OVERSCAN);
    this.body.style.transform = `translateY(${first * ROW_HEIGHT}px)`;
    const elements: HTMLElement[] = [];
    let active: string | undefined;
    for (let i = first; i < last; i++) {
      const c = this.cases[this.rows[i] ?? -1];
      if (c === undefined) continue;
      const selected = c.id === this.selected;
      const row = this.rowOf(c, i, selected);
      if (selected) active = row.id;
      elements.push(row);
    }
    this.body.replaceChildren(...elements);
    if (active === undefined) this.element.removeAttribute('aria-activedescendant');
    else this.element.setAttribute('aria-activedescendant', active);
  }

  private rowOf(c: CompareCase, index: number, selected: boolean): HTMLElement {
    const sides = caseSides(c.transition);
    const transition = `${TRANSITION_LABEL[c.transition]}${c.changed === true ? ' (input changed, not compared)' : ''}`;
    const cells = [c.id, transition, sides.baseline, sides.candidate, sides.delta].map((text, i) =>
      el('div', { className: `cell col-${COLUMNS[i]?.id ?? ''}`, attrs: { role: 'gridcell', title: text } }, text),
    );
    const row = el(
      'div',
      {
        className: `crow transition-${c.transition}${selected ? ' selected' : ''}`,
        attrs: {
          role: 'row',
          id: `compare-row-${index}`,
          'aria-rowindex': String(index + 2),
          'aria-selected': String(selected),
        },
      },
      ...cells,
    );
    this.ids.set(row, c.id);
    return row;
  }
}
