/**
 * Messages between the extension (host) and the results view (webview). Both sides check
 * PROTOCOL_VERSION: the host sends nothing until the view says `webview/ready` with the same version.
 * Types only from core; the guards below are for data that crossed `postMessage`.
 *
 * Volume: a run of 100,000 results must not cost 100,000 messages. The host sends a report in
 * chunks (`report/show`, then `report/append` until `complete`) and a live run's events in batches
 * (`run/events`). Case data (input, output, expected, trace) is not in reports or events: the view
 * asks for the one case it shows (`case/request`) and the host reads it from the dataset. A report
 * read in parts comes without its results' `details` (`detailsApart`): the view asks for the shown
 * case's (`details/request`) and the host reads them from the report file.
 */
import type { Json } from '../core/case';
import type { ScorerResult } from '../core/result';
import type { JobTest, Report, ReportCase, ReportLocation, ScorerAggregate } from '../core/report/report';
import type { RunEvent } from '../core/runner/events';
import type { TraceStep } from '../core/trace/trace';
import { isObject } from '../shared/isObject';
import { isResultDetails, type ResultDetails } from './resultDetails';
import {
  COMPARE_TO_WEBVIEW_TYPES,
  type CompareToHost,
  type CompareToWebview,
  isCompareToHost,
  isCompareToWebview,
} from './compareView';
import { fieldsOf } from './jsonFields';

// The view imports only types from core; the few pure helpers it shares with the engine come through
// here (from shared/): the object guard, and the one conversion between core's 0-based positions and the 1-based
// report locations (the extension turns them back into editor positions with it).
export { isObject };
export { fromDisplay, toDisplay } from '../shared/text/displayPosition';

export type { ResultDetails } from './resultDetails';

export const PROTOCOL_VERSION = 3;

/** What the detail pane shows of one case, as the host read it from the dataset. */
export interface CaseData {
  readonly id: string;
  readonly input?: Json;
  readonly output?: Json;
  readonly expected?: Json;
  readonly context?: Json;
  readonly metadata?: Json;
  /** Recorded trials (`{output?, trace?, error?}` each); trial N shows `trials[N-1]`'s fields over the case's. */
  readonly trials?: Json;
  /** The trace as recorded. */
  readonly trace?: Json;
  /** The trace in the engine's model, when it could be read; `traceProblem` says why not otherwise. */
  readonly traceSteps?: readonly TraceStep[];
  readonly traceProblem?: string;
}

/** Scorer aggregates of a run in progress, computed by the host with the aggregator the engine uses (shared/aggregate/aggregator.ts). */
export interface LiveAggregates {
  readonly scorers: readonly ScorerAggregate[];
  readonly job?: JobTest;
}

/** Where a case lives: what the host needs to open its dataset line. */
export interface RevealTarget {
  readonly configFile: string;
  readonly caseId: string;
  /** 1-based, when the view knows it (from the report or the case's `case/start`). */
  readonly location?: ReportLocation;
}

export type HostToWebview =
  /**
   * Show a finished run. `complete: false` means more cases and results follow in `report/append`.
   * `detailsApart`: its results come without their `details`; ask for a case's with `details/request`.
   */
  | { readonly type: 'report/show'; readonly report: Report; readonly complete: boolean; readonly detailsApart?: true }
  | {
      readonly type: 'report/append';
      readonly cases: readonly ReportCase[];
      readonly results: readonly ScorerResult[];
      readonly complete: boolean;
    }
  /** Events of a run in progress, in order (a `run/start` starts a new view), with the aggregates so far. */
  | { readonly type: 'run/events'; readonly events: readonly RunEvent[]; readonly aggregates?: LiveAggregates }
  /** The answer to `case/request`. */
  | { readonly type: 'case/data'; readonly configFile: string; readonly caseId: string; readonly data: CaseData }
  | { readonly type: 'case/unavailable'; readonly configFile: string; readonly caseId: string; readonly reason: string }
  /** The answer to `details/request`: each of the case's results (by scorer and trial) with its details. */
  | {
      readonly type: 'details/data';
      readonly runId: string;
      readonly caseId: string;
      readonly results: readonly ResultDetails[];
    }
  | { readonly type: 'details/unavailable'; readonly runId: string; readonly caseId: string; readonly reason: string }
  /** Forget what is shown (e.g. the config was closed); `notice` says why in the emptied view (e.g. a restored run that cannot be shown). */
  | { readonly type: 'view/clear'; readonly notice?: string }
  /** How the person names a config (workspace-relative), for the view's header; sent before its run. */
  | { readonly type: 'config/label'; readonly configFile: string; readonly label: string }
  /** Compare mode (protocol/compareView.ts). */
  | CompareToWebview;

export type WebviewToHost =
  | { readonly type: 'webview/ready'; readonly version: number }
  /** Open the case's line in its dataset (or config, for inline cases). */
  | { readonly type: 'case/reveal'; readonly target: RevealTarget }
  /** Send the case's data (answered by `case/data` or `case/unavailable`). */
  | { readonly type: 'case/request'; readonly configFile: string; readonly caseId: string }
  /** Send the details of the case's results in the report shown (answered by `details/data` or `details/unavailable`). */
  | { readonly type: 'details/request'; readonly runId: string; readonly caseId: string }
  | CompareToHost;

const HOST_TO_WEBVIEW_TYPES: readonly HostToWebview['type'][] = [
  'report/show',
  'report/append',
  'run/events',
  'case/data',
  'case/unavailable',
  'details/data',
  'details/unavailable',
  'view/clear',
  'config/label',
  ...COMPARE_TO_WEBVIEW_TYPES,
];

const isString = (value: unknown): value is string => typeof value === 'string';
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 1;

/**
 * A message the view received is one of ours: its tag and the shape of the fields the view walks
 * (arrays are arrays, objects are objects). The contents come from our own host.
 */
export function isHostToWebview(message: unknown): message is HostToWebview {
  const m = fieldsOf(message);
  if (m === undefined || !isString(m['type']) || !(HOST_TO_WEBVIEW_TYPES as readonly string[]).includes(m['type']))
    return false;
  switch (m['type'] as HostToWebview['type']) {
    case 'report/show': {
      const report = fieldsOf(m['report']);
      return (
        report !== undefined &&
        Array.isArray(report['cases']) &&
        Array.isArray(report['results']) &&
        typeof m['complete'] === 'boolean' &&
        (m['detailsApart'] === undefined || m['detailsApart'] === true)
      );
    }
    case 'report/append':
      return Array.isArray(m['cases']) && Array.isArray(m['results']) && typeof m['complete'] === 'boolean';
    case 'run/events':
      return Array.isArray(m['events']) && (m['aggregates'] === undefined || fieldsOf(m['aggregates']) !== undefined);
    case 'case/data':
      return isString(m['configFile']) && isString(m['caseId']) && fieldsOf(m['data']) !== undefined;
    case 'case/unavailable':
      return isString(m['configFile']) && isString(m['caseId']) && isString(m['reason']);
    case 'details/data':
      return (
        isString(m['runId']) &&
        isString(m['caseId']) &&
        Array.isArray(m['results']) &&
        (m['results'] as unknown[]).every(isResultDetails)
      );
    case 'details/unavailable':
      return isString(m['runId']) && isString(m['caseId']) && isString(m['reason']);
    case 'view/clear':
      return m['notice'] === undefined || isString(m['notice']);
    case 'config/label':
      return isString(m['configFile']) && isString(m['label']);
    default:
      return isCompareToWebview(m);
  }
}

function isLocation(value: unknown): value is ReportLocation {
  const l = fieldsOf(value);
  return l !== undefined && isString(l['file']) && isCount(l['line']) && isCount(l['column']);
}

function isRevealTarget(value: unknown): value is RevealTarget {
  const t = fieldsOf(value);
  return (
    t !== undefined &&
    isString(t['configFile']) &&
    isString(t['caseId']) &&
    (t['location'] === undefined || isLocation(t['location']))
  );
}

/** A message the host received is one of ours, with every field the host reads of the right type. */
export function isWebviewToHost(message: unknown): message is WebviewToHost {
  const m = fieldsOf(message);
  if (m === undefined) return false;
  switch (m['type']) {
    case 'webview/ready':
      return typeof m['version'] === 'number';
    case 'case/reveal':
      return isRevealTarget(m['target']);
    case 'case/request':
      return isString(m['configFile']) && isString(m['caseId']);
    case 'details/request':
      return isString(m['runId']) && isString(m['caseId']);
    default:
      return isCompareToHost(m);
  }
}
