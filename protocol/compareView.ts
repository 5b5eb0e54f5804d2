/**
 * The results view's compare mode, between the host and the view: the runs the person may pick, and
 * the comparison the CLI made (`evallens compare <a> <b> --reporter json`,
 * schemas/compare-report.schema.json) sent as its head and then its cases in chunks, so 100,000 cases
 * are a few dozen messages. Types only from core; the guards check what crossed `postMessage`.
 */
import type { CaseTransition, ScorerComparisonRow } from '../core/compare/compareRuns';
import { isObject } from '../shared/isObject';

/** One side of a comparison as the compare report names it. */
export interface CompareRunRef {
  readonly file: string;
  readonly runId: string;
  readonly config: string;
  readonly cases: number;
}

/** The compare report without its cases. */
export interface CompareHead {
  readonly version: 1;
  readonly baseline: CompareRunRef;
  readonly candidate: CompareRunRef;
  readonly fail_on: string;
  readonly failed: boolean;
  readonly counts: Readonly<Record<CaseTransition, number>>;
  readonly not_compared: {
    readonly only_in_baseline: readonly string[];
    readonly only_in_candidate: readonly string[];
  };
  readonly scorers: readonly ScorerComparisonRow[];
}

export interface CompareCase {
  readonly id: string;
  readonly transition: CaseTransition;
  /** The case's input or expected value differs between the runs: it is not compared (a newer CLI says so). */
  readonly changed?: boolean;
}

/** A run the person can pick as either side: a run folder, or a baseline file. */
export interface RunChoice {
  /** What the CLI is given: the run folder or the baseline file. */
  readonly path: string;
  /** The config's workspace-relative name and when it ran, or "baseline file". */
  readonly label: string;
  /** Counts, run id. */
  readonly detail: string;
}

export type CompareToWebview =
  /** Enter compare mode with these runs to pick from, and the two preselected (paths of `runs`). */
  | {
      readonly type: 'compare/choices';
      readonly runs: readonly RunChoice[];
      readonly baseline?: string;
      readonly candidate?: string;
    }
  /** The CLI is comparing these two. */
  | { readonly type: 'compare/loading'; readonly baseline: string; readonly candidate: string }
  /** The comparison; `complete: false` means more cases follow in `compare/append`. */
  | {
      readonly type: 'compare/show';
      readonly head: CompareHead;
      readonly cases: readonly CompareCase[];
      readonly complete: boolean;
    }
  | { readonly type: 'compare/append'; readonly cases: readonly CompareCase[]; readonly complete: boolean }
  /** The CLI could not compare them (its message: file, what differs). */
  | { readonly type: 'compare/failed'; readonly reason: string };

export type CompareToHost =
  /** Compare these two (paths from `compare/choices`). */
  | { readonly type: 'compare/request'; readonly baseline: string; readonly candidate: string }
  /** Leave compare mode: show the run shown before. */
  | { readonly type: 'compare/close' };

export const COMPARE_TO_WEBVIEW_TYPES: readonly CompareToWebview['type'][] = [
  'compare/choices',
  'compare/loading',
  'compare/show',
  'compare/append',
  'compare/failed',
];

const isString = (value: unknown): value is string => typeof value === 'string';

export function isCompareToWebview(m: { readonly [key: string]: unknown }): boolean {
  switch (m['type'] as CompareToWebview['type']) {
    case 'compare/choices':
      return (
        Array.isArray(m['runs']) &&
        m['runs'].every((r) => isObject(r) && isString(r['path']) && isString(r['label']) && isString(r['detail'])) &&
        (m['baseline'] === undefined || isString(m['baseline'])) &&
        (m['candidate'] === undefined || isString(m['candidate']))
      );
    case 'compare/loading':
      return isString(m['baseline']) && isString(m['candidate']);
    case 'compare/show': {
      const head = m['head'];
      return (
        isObject(head) &&
        isObject(head['baseline']) &&
        isObject(head['candidate']) &&
        isObject(head['counts']) &&
        Array.isArray(head['scorers']) &&
        Array.isArray(m['cases']) &&
        typeof m['complete'] === 'boolean'
      );
    }
    case 'compare/append':
      return Array.isArray(m['cases']) && typeof m['complete'] === 'boolean';
    case 'compare/failed':
      return isString(m['reason']);
    default:
      return false;
  }
}

export function isCompareToHost(m: { readonly [key: string]: unknown }): boolean {
  switch (m['type']) {
    case 'compare/request':
      return isString(m['baseline']) && isString(m['candidate']);
    case 'compare/close':
      return true;
    default:
      return false;
  }
}
