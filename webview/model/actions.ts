/**
 * What changes the view: a message from the host, or something the person did. The reducer takes
 * both, so one function (and one set of tests) explains every change.
 */
import type { ResultStatus } from '../../core/result';
import type { HostToWebview } from '../../protocol/webview';
import type { Filters, Sort, SortColumn } from './viewState';

/**
 * What run the view showed, kept with the persisted view so that after a window reload the host can
 * find it again (its report.json in the run's folder, by run id) and show it.
 */
export interface PersistedSource {
  readonly runId: string;
  readonly configFile: string;
  readonly kind: 'report' | 'live';
  /** The report's chunks all came, or the live run ended. */
  readonly complete: boolean;
}

/** The part of the state kept across the webview being hidden and shown again, and across a window reload (vscode.setState). */
export interface PersistedView {
  readonly filters: Filters;
  readonly sort: Sort;
  readonly selected?: string;
  readonly detailOpen: boolean;
  readonly source?: PersistedSource;
}

export type UiAction =
  | { readonly type: 'ui/toggleStatus'; readonly status: ResultStatus }
  | { readonly type: 'ui/toggleScorer'; readonly scorer: string }
  | { readonly type: 'ui/clearFilters' }
  | { readonly type: 'ui/search'; readonly text: string }
  /** Sort by a column; the same column again flips the direction. */
  | { readonly type: 'ui/sort'; readonly column: SortColumn }
  | { readonly type: 'ui/select'; readonly key: string }
  /** Open a case's row to its scorers, or close it; `open` unset flips it. */
  | { readonly type: 'ui/toggleCase'; readonly caseId: string; readonly open?: boolean }
  /** Move the selection through the visible rows: by a number of rows, or to the first or last. */
  | { readonly type: 'ui/move'; readonly by: number | 'first' | 'last' }
  | { readonly type: 'ui/openDetail' }
  | { readonly type: 'ui/closeDetail' }
  | { readonly type: 'ui/restore'; readonly view: PersistedView };

export type Action = HostToWebview | UiAction;
