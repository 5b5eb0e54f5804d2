/**
 * The compare mode's summary as text and drawable bars: per scorer both runs' figures with their
 * intervals on one shared axis, the delta with its interval drawn around zero, the p-values and the
 * verdict; the count of cases per transition. Pure; webview/view/compareView.ts lays it out.
 */
import type { ScorerComparisonRow } from '../../core/compare/compareRuns';
import type { CompareHead } from '../../protocol/compareView';
import { deltaBar, type IntervalBar, sharedAxis, sideBar } from './errorBars';
import { formatRate, formatScore } from './summary';

export interface CompareScorerLine {
  readonly name: string;
  /** "pass rate" or "mean score". */
  readonly measure: string;
  readonly baseline: string;
  readonly candidate: string;
  readonly delta: string;
  readonly baselineBar?: IntervalBar;
  readonly candidateBar?: IntervalBar;
  readonly deltaBar?: IntervalBar;
  /** Holm-adjusted p-value, and the raw one. */
  readonly p: string;
  readonly pRaw: string;
  readonly verdict: ScorerComparisonRow['verdict'];
  /** For "no significant change": the smallest change the comparison could have detected. */
  readonly note: string;
}

function formatP(p: number | null): string {
  if (p === null) return '—';
  if (p < 0.0001) return '< 0.0001';
  return String(Number(p.toPrecision(2)));
}

function signed(value: number | null, format: (v: number) => string): string {
  if (value === null) return '—';
  return value > 0 ? `+${format(value)}` : value < 0 ? `−${format(-value)}` : format(0);
}

function interval(low: number | null, high: number | null, format: (v: number) => string): string {
  return low === null || high === null ? '' : ` [${format(low)}, ${format(high)}]`;
}

export function compareScorerLines(head: CompareHead): CompareScorerLine[] {
  return head.scorers.map((row) => {
    const rate = row.measure === 'pass_rate';
    const format = rate ? (v: number) => formatRate(v) : (v: number) => formatScore(v);
    const axis = sharedAxis(row.measure, [row.baseline, row.candidate]);
    const baselineBar = sideBar(row.baseline, row.measure, axis, 'baseline');
    const candidateBar = sideBar(row.candidate, row.measure, axis, 'candidate');
    const delta = deltaBar(row.delta, row.measure, row.lower_is_better);
    const side = (s: ScorerComparisonRow['baseline']): string =>
      s.mean === null ? '—' : `${format(s.mean)}${interval(s.ci_low, s.ci_high, format)}`;
    const note =
      row.verdict === 'no significant change' && row.delta.mde !== null
        ? `could detect a change of ${format(row.delta.mde)} or more`
        : row.verdict === 'not enough data'
          ? `${row.delta.n} shared cases (fewer than 10)`
          : '';
    return {
      name: row.name,
      measure: rate ? 'pass rate' : 'mean score',
      baseline: side(row.baseline),
      candidate: side(row.candidate),
      delta: `${signed(row.delta.mean, format)}${row.delta.ci_low === null || row.delta.ci_high === null ? '' : ` [${signed(row.delta.ci_low, format)}, ${signed(row.delta.ci_high, format)}]`}`,
      ...(baselineBar === undefined ? {} : { baselineBar }),
      ...(candidateBar === undefined ? {} : { candidateBar }),
      ...(delta === undefined ? {} : { deltaBar: delta }),
      p: formatP(row.p_value),
      pRaw: formatP(row.p_value_raw),
      verdict: row.verdict,
      note,
    };
  });
}

/** "12 regressed, 3 fixed, 80 still passing, 5 still failing, 1 added, 1 removed" (zero counts left out). */
export function transitionCountsLine(head: CompareHead): string {
  const c = head.counts;
  const parts: [number, string][] = [
    [c.regressed, 'regressed'],
    [c.fixed, 'fixed'],
    [c.unchanged_pass, 'still passing'],
    [c.unchanged_fail, 'still failing'],
    [c.added, 'added'],
    [c.removed, 'removed'],
  ];
  const shown = parts.filter(([n]) => n > 0).map(([n, label]) => `${n.toLocaleString('en-US')} ${label}`);
  return shown.length === 0 ? 'no cases' : shown.join(', ');
}

/** Scorers only one run has, which were not compared; "" when none. */
export function notComparedLine(head: CompareHead): string {
  const parts: string[] = [];
  if (head.not_compared.only_in_baseline.length > 0)
    parts.push(`only in the baseline: ${head.not_compared.only_in_baseline.join(', ')}`);
  if (head.not_compared.only_in_candidate.length > 0)
    parts.push(`only in the candidate: ${head.not_compared.only_in_candidate.join(', ')}`);
  return parts.length === 0 ? '' : `Not compared (${parts.join('; ')})`;
}
