/**
 * Error bars as drawable figures: a mean (or a pass rate, or a delta) with its 95% interval, placed
 * on an axis. Pure numbers and text; webview/view/errorBarSvg.ts draws them. The axis is the scorer's
 * scale where it is known (0–1, 0–100, a pass rate's 0–1), so bars of one scale line up row under
 * row; for a count it is the interval itself, widened a little. A bar whose interval is too wide to
 * mean anything (docs/statistics.md's small-sample rule, `too_wide` in the report) says why.
 */
import type { ScorerAggregate } from '../../core/report/report';
import { formatRate, formatScore } from './summary';

export interface IntervalBar {
  /** The axis' ends. */
  readonly min: number;
  readonly max: number;
  readonly mean: number;
  /** The interval, on the axis (an end beyond the axis is drawn at the axis' end). */
  readonly low: number;
  readonly high: number;
  /** Where zero sits, for a delta (drawn as a reference line). */
  readonly zero?: number;
  /** The interval is too wide to mean anything: drawn dashed and faded. */
  readonly tooWide: boolean;
  /** What the bar shows, in words (its tooltip and accessible name). */
  readonly label: string;
}

type Format = (value: number) => string;
const score: Format = (v) => formatScore(v);
const rate: Format = (v) => formatRate(v);

/** Where `value` sits along the bar's axis, 0 (min) to 1 (max), clamped. */
export function along(bar: Pick<IntervalBar, 'min' | 'max'>, value: number): number {
  if (!(bar.max > bar.min)) return 0.5;
  return Math.min(1, Math.max(0, (value - bar.min) / (bar.max - bar.min)));
}

const finite = (value: number | null | undefined): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/** The scorer's mean with its interval (CLT, or clustered by case), on the scorer's scale; undefined without one. */
export function meanBar(aggregate: ScorerAggregate): IntervalBar | undefined {
  const mean = aggregate.meanScore;
  const { ci_low: low, ci_high: high } = aggregate;
  if (!finite(mean) || !finite(low) || !finite(high)) return undefined;
  const bounded = aggregate.scale.kind === 'bounded' ? aggregate.scale.max : undefined;
  const [min, max] = bounded === undefined ? widened(Math.min(low, mean), Math.max(high, mean)) : [0, bounded];
  const tooWide = aggregate.too_wide === true;
  const kind = aggregate.clustered === true ? 'clustered by case' : 'CLT';
  const cases = aggregate.cases === undefined ? '' : `, ${aggregate.cases} cases`;
  const head = `mean ${score(mean)}, 95% interval ${score(low)} to ${score(high)} (${kind}${cases})`;
  const why = tooWide ? tooWideReason(aggregate.cases, (high - low) / 2, bounded, score) : undefined;
  return { min, max, mean, low, high, tooWide, label: why === undefined ? head : `${head}. ${why}` };
}

/** The scorer's pass rate with its Wilson interval, on 0–100%; undefined without one. */
export function passRateBar(aggregate: ScorerAggregate): IntervalBar | undefined {
  const mean = aggregate.passRate;
  const { pass_rate_ci_low: low, pass_rate_ci_high: high } = aggregate;
  if (!finite(mean) || !finite(low) || !finite(high)) return undefined;
  const tooWide = aggregate.pass_rate_too_wide === true;
  const decided = aggregate.counts.pass + aggregate.counts.fail;
  const head = `pass rate ${rate(mean)}, 95% Wilson interval ${rate(low)} to ${rate(high)} (${decided} decided results)`;
  const why = tooWide ? tooWideReason(decided, (high - low) / 2, 1, rate) : undefined;
  return { min: 0, max: 1, mean, low, high, tooWide, label: why === undefined ? head : `${head}. ${why}` };
}

export interface SideFigures {
  readonly mean: number | null;
  readonly ci_low: number | null;
  readonly ci_high: number | null;
  readonly n: number;
}

/**
 * One run's side of a comparison (a pass rate or a mean score) on a shared axis, so the baseline's and
 * the candidate's bars of a scorer can be read against each other.
 */
export function sideBar(
  side: SideFigures,
  measure: 'pass_rate' | 'score',
  axis: { readonly min: number; readonly max: number },
  name: string,
): IntervalBar | undefined {
  const { mean, ci_low: low, ci_high: high } = side;
  if (!finite(mean) || !finite(low) || !finite(high)) return undefined;
  const format = measure === 'pass_rate' ? rate : score;
  const range = measure === 'pass_rate' ? 1 : undefined;
  const tooWide = side.n < 10 || (range !== undefined && (high - low) / 2 > range / 10);
  const head = `${name}: ${measure === 'pass_rate' ? 'pass rate' : 'mean'} ${format(mean)}, 95% interval ${format(low)} to ${format(high)} (${side.n} cases)`;
  const why = tooWide ? tooWideReason(side.n, (high - low) / 2, range, format) : undefined;
  return { ...axis, mean, low, high, tooWide, label: why === undefined ? head : `${head}. ${why}` };
}

/** The axis both sides of a compared scorer share: 0–1 for pass rates, else both intervals widened a little. */
export function sharedAxis(
  measure: 'pass_rate' | 'score',
  sides: readonly SideFigures[],
): { readonly min: number; readonly max: number } {
  if (measure === 'pass_rate') return { min: 0, max: 1 };
  const values = sides.flatMap((s) => [s.mean, s.ci_low, s.ci_high]).filter(finite);
  if (values.length === 0) return { min: 0, max: 1 };
  const [min, max] = widened(Math.min(...values), Math.max(...values));
  return { min, max };
}

export interface DeltaFigures {
  readonly mean: number | null;
  readonly ci_low: number | null;
  readonly ci_high: number | null;
  readonly n: number;
}

/**
 * The delta (candidate − baseline) with its interval, drawn around 0: the axis is symmetric, so
 * whether the interval crosses zero is seen at once. `worse`: which side of zero is the regression.
 */
export function deltaBar(
  delta: DeltaFigures,
  measure: 'pass_rate' | 'score',
  lowerIsBetter: boolean,
): IntervalBar | undefined {
  const { mean, ci_low: low, ci_high: high } = delta;
  if (!finite(mean) || !finite(low) || !finite(high)) return undefined;
  const format = measure === 'pass_rate' ? (v: number) => signed(v, rate) : (v: number) => signed(v, score);
  const reach = Math.max(Math.abs(low), Math.abs(high), Math.abs(mean));
  // A pass-rate delta lives in −1…1; a score delta gets room around its interval. Never a zero-width axis.
  const half = measure === 'pass_rate' ? Math.min(1, niceCeiling(reach)) : niceCeiling(reach);
  // Only the fewer-than-10-cases rule: a delta's interval that excludes zero means something however wide.
  const tooWide = delta.n < 10;
  const better = lowerIsBetter ? 'a fall is better' : 'a rise is better';
  const head = `delta (candidate − baseline) ${format(mean)}, 95% interval ${format(low)} to ${format(high)} over ${delta.n} shared cases; ${better}`;
  const why = tooWide ? tooWideReason(delta.n, (high - low) / 2, undefined, format) : undefined;
  return {
    min: -half,
    max: half,
    mean,
    low,
    high,
    zero: 0,
    tooWide,
    label: why === undefined ? head : `${head}. ${why}`,
  };
}

/** Why an interval is too wide to mean anything, by docs/statistics.md's rule. */
export function tooWideReason(
  cases: number | undefined,
  halfWidth: number,
  range: number | undefined,
  format: Format,
): string {
  if (cases !== undefined && cases < 10)
    return `Too wide to mean anything: only ${cases} case${cases === 1 ? '' : 's'} (fewer than 10)`;
  if (range !== undefined && halfWidth > range / 10)
    return `Too wide to mean anything: ±${format(halfWidth)} is more than 10% of the scale (${format(0)}–${format(range)})`;
  return 'Too wide to mean anything (fewer than 10 cases, or wider than ±10% of the scale)';
}

function signed(value: number, format: Format): string {
  return value > 0 ? `+${format(value)}` : value < 0 ? `−${format(-value)}` : format(0);
}

/** An axis around [low, high] with 10% room either side; a point gets ±1 (or ±10% of its size). */
function widened(low: number, high: number): [number, number] {
  const span = high - low;
  if (span > 0) return [low - span * 0.1, high + span * 0.1];
  const room = Math.abs(low) > 0 ? Math.abs(low) * 0.1 : 1;
  return [low - room, high + room];
}

/** The smallest of 1, 2, 5 × 10^k at or above `value` (1 for 0). */
function niceCeiling(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}
