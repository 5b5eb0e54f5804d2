/**
 * Filters (by result status and by scorer, as toggle buttons), the search box and the row count.
 * Rebuilt only when what it shows changes; the search box itself is kept so typing is not disturbed.
 */
import type { ResultStatus } from '../../core/result';
import { STATUS_ORDER } from '../model/query';
import type { Filters } from '../model/viewState';
import { button, el } from './dom';

export interface ToolbarHandlers {
  toggleStatus(status: ResultStatus): void;
  toggleScorer(scorer: string): void;
  clearFilters(): void;
  search(text: string): void;
}

export interface ToolbarModel {
  readonly filters: Filters;
  readonly statusCounts: ReadonlyMap<ResultStatus, number>;
  readonly scorers: readonly string[];
  readonly shown: number;
  readonly total: number;
}

export class Toolbar {
  readonly element: HTMLElement;
  readonly searchBox: HTMLInputElement;
  private readonly statuses: HTMLElement;
  private readonly scorers: HTMLElement;
  private readonly count: HTMLElement;
  private last: ToolbarModel | undefined;

  constructor(private readonly handlers: ToolbarHandlers) {
    this.searchBox = el('input', {
      className: 'search',
      attrs: {
        type: 'search',
        placeholder: 'Search case, scorer, reason  ( / )',
        'aria-label': 'Search results',
        spellcheck: 'false',
      },
    });
    this.searchBox.addEventListener('input', () => handlers.search(this.searchBox.value));
    this.statuses = el('div', { className: 'chips', attrs: { role: 'group', 'aria-label': 'Filter by status' } });
    this.scorers = el('div', { className: 'chips', attrs: { role: 'group', 'aria-label': 'Filter by scorer' } });
    this.count = el('span', { className: 'count', attrs: { 'aria-live': 'polite' } });
    const clear = button('Clear filters', () => handlers.clearFilters(), { className: 'plain' });
    this.element = el('div', { className: 'toolbar' }, this.searchBox, this.statuses, this.scorers, clear, this.count);
  }

  update(model: ToolbarModel): void {
    const last = this.last;
    this.last = model;
    if (this.searchBox.value !== model.filters.search && document.activeElement !== this.searchBox)
      this.searchBox.value = model.filters.search;
    if (
      last === undefined ||
      last.filters.statuses !== model.filters.statuses ||
      last.statusCounts !== model.statusCounts
    ) {
      const chips = STATUS_ORDER.filter(
        (s) => (model.statusCounts.get(s) ?? 0) > 0 || model.filters.statuses.includes(s),
      ).map((status) =>
        chip(
          `${status} ${model.statusCounts.get(status) ?? 0}`,
          model.filters.statuses.includes(status),
          () => this.handlers.toggleStatus(status),
          `status-${status}`,
        ),
      );
      this.statuses.replaceChildren(...chips);
    }
    if (last === undefined || last.filters.scorers !== model.filters.scorers || last.scorers !== model.scorers) {
      this.scorers.replaceChildren(
        ...model.scorers.map((scorer) =>
          chip(scorer, model.filters.scorers.includes(scorer), () => this.handlers.toggleScorer(scorer), 'scorer'),
        ),
      );
    }
    this.count.textContent =
      model.shown === model.total
        ? `${model.total.toLocaleString('en-US')} results`
        : `${model.shown.toLocaleString('en-US')} of ${model.total.toLocaleString('en-US')} results`;
  }
}

function chip(label: string, pressed: boolean, onClick: () => void, kind: string): HTMLButtonElement {
  return button(label, onClick, {
    className: `chip ${kind}${pressed ? ' pressed' : ''}`,
    attrs: { 'aria-pressed': String(pressed) },
  });
}
