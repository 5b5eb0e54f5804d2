/**
 * A run compared with its baseline, as the editor uses it: each case's `transition` by id, read from
 * the JSON `evallens compare --reporter json` prints (schemas/compare-report.schema.json), which is
 * also what a run given a baseline puts in its report as `comparison`. Pure and vscode-free: the lens,
 * the status bar and the test messages take their words from here.
 */
import { isObject } from '../../shared/isObject';
import { printable } from '../../shared/text/printable';

export const TRANSITIONS = ['regressed', 'fixed', 'unchanged_pass', 'unchanged_fail', 'added', 'removed'] as const;
export type Transition = (typeof TRANSITIONS)[number];

export interface RunComparison {
  /** Every case the comparison names, by id. */
  readonly transitions: ReadonlyMap<string, Transition>;
  /** Ids of the cases that passed in the baseline and do not now, in the comparison's order. */
  readonly regressed: readonly string[];
  readonly fixed: readonly string[];
}

function isTransition(value: unknown): value is Transition {
  return typeof value === 'string' && (TRANSITIONS as readonly string[]).includes(value);
}

/**
 * The comparison in a compare report (or a report's `comparison`); undefined when `value` has no
 * `cases` list. A case entry that is not `{id, transition}` with a known transition is left out.
 */
export function comparisonOf(value: unknown): RunComparison | undefined {
  if (!isObject(value) || !Array.isArray(value['cases'])) return undefined;
  const transitions = new Map<string, Transition>();
  const regressed: string[] = [];
  const fixed: string[] = [];
  for (const entry of value['cases'] as unknown[]) {
    if (!isObject(entry)) continue;
    const { id, transition } = entry;
    if (typeof id !== 'string' || !isTransition(transition) || transitions.has(id)) continue;
    transitions.set(id, transition);
    if (transition === 'regressed') regressed.push(id);
    else if (transition === 'fixed') fixed.push(id);
  }
  return { transitions, regressed, fixed };
}

/**
 * The `comparison` of a report's text, when the run compared itself with a baseline. A report
 * without the key is not parsed at all (the common case, and the text can be megabytes).
 */
export function comparisonInReport(reportJson: string): RunComparison | undefined {
  if (!reportJson.includes('"comparison"')) return undefined;
  let report: unknown;
  try {
    report = JSON.parse(reportJson);
  } catch {
    return undefined;
  }
  return isObject(report) ? comparisonOf(report['comparison']) : undefined;
}

/** The lens beside a case's result: "▼ regressed", "▲ fixed"; nothing for the other transitions. */
export function transitionLensTitle(transition: Transition | undefined): string | undefined {
  if (transition === 'regressed') return '▼ regressed';
  if (transition === 'fixed') return '▲ fixed';
  return undefined;
}

/** What the lens's hover says. */
export function transitionLensTooltip(transition: 'regressed' | 'fixed'): string {
  return transition === 'regressed'
    ? 'This case passed in the baseline and does not pass in the last run. Click to open the results.'
    : 'This case did not pass in the baseline and passes in the last run. Click to open the results.';
}

/**
 * The Test Explorer message of a regressed case: its first line says it passed in the baseline (the
 * peek's title), the failing scorer's own message follows.
 */
export function regressedMessageText(failure: string | undefined): string {
  const head = '▼ regressed: passed in the baseline, not in this run';
  return failure === undefined || failure === '' ? head : `${head}\n${failure}`;
}

/** Case ids a tooltip lists before it counts the rest. */
export const TOOLTIP_IDS = 5;

export interface ConfigRegressions {
  /** The config as the person reads it (workspace-relative). */
  readonly label: string;
  readonly comparison: RunComparison;
}

export interface RegressionStatusText {
  readonly text: string;
  readonly tooltip: string;
  readonly regressed: number;
}

/**
 * The status bar's words for the last test run's comparisons (one per config that had a baseline):
 * "▼ 3 regressed", the tooltip naming the first ids; undefined when no config was compared.
 */
export function regressionStatusText(configs: readonly ConfigRegressions[]): RegressionStatusText | undefined {
  if (configs.length === 0) return undefined;
  const regressed = configs.reduce((sum, c) => sum + c.comparison.regressed.length, 0);
  const fixed = configs.reduce((sum, c) => sum + c.comparison.fixed.length, 0);
  const lines = [
    regressed === 0
      ? 'No case that passed in the baseline failed in the last run.'
      : `${regressed} case${regressed === 1 ? '' : 's'} passed in the baseline, not in the last run:`,
  ];
  const named = configs.length > 1;
  let room = TOOLTIP_IDS;
  for (const config of configs) {
    const ids = config.comparison.regressed;
    if (ids.length === 0) continue;
    const shown = ids.slice(0, Math.max(0, room));
    room -= shown.length;
    const rest = ids.length - shown.length;
    const list = [...shown.map((id) => printable(id)), ...(rest > 0 ? [`${rest} more`] : [])].join(', ');
    lines.push(named ? `${printable(config.label)}: ${list}` : list);
  }
  if (fixed > 0) lines.push(`${fixed} fixed.`);
  lines.push('Click to open the results.');
  return {
    text: regressed === 0 ? '▼ 0 regressed' : `▼ ${regressed} regressed`,
    tooltip: lines.join('\n'),
    regressed,
  };
}
