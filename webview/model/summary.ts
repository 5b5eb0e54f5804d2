/**
 * The summary band: the job score against its threshold, each scorer's pass rate and test, and a
 * histogram of scores. Pure text and numbers; the DOM side only lays them out.
 */
import type { ScorerResult } from '../../core/result';
import type { ScorerAggregate } from '../../core/report/report';
import type { ScorerInfo } from '../../core/runner/events';
import type { RunInfo } from './viewState';

export interface JobLine {
  readonly text: string;
  /** `pass`/`fail` when there is a job test; `none` otherwise. */
  readonly verdict: 'pass' | 'fail' | 'none';
}

/** Up to four significant digits, no trailing zeros: 0.782936 → "0.7829", 85 → "85". */
export function formatScore(score: number | undefined): string {
  if (score === undefined || Number.isNaN(score)) return '—';
  if (Number.isInteger(score)) return String(score);
  return String(Number(score.toPrecision(4)));
}

export function formatRate(rate: number | undefined): string {
  return rate === undefined ? '—' : `${Math.round(rate * 1000) / 10}%`;
}

export function jobLine(run: RunInfo | undefined): JobLine {
  if (run === undefined) return { text: 'No run to show yet.', verdict: 'none' };
  const job = run.job;
  if (job !== undefined) {
    const verdict = job.pass ? 'pass' : 'fail';
    const sofar = run.complete ? '' : ' so far';
    return { text: `Job score ${formatScore(job.score)}${sofar} against threshold ${formatScore(job.threshold)}: ${verdict}`, verdict };
  }
  if (!run.complete) return { text: 'Job score: when the run ends', verdict: 'none' };
  if (run.importedSummary !== undefined) return { text: run.importedSummary, verdict: 'none' };
  return { text: 'No job score: no scorer has both a threshold and a score on a bounded scale', verdict: 'none' };
}

export interface ScorerLine {
  readonly name: string;
  readonly passRate: string;
  readonly meanScore: string;
  /** "≥ 0.6 → pass", or "" when the scorer has no test. */
  readonly test: string;
  readonly verdict: 'pass' | 'fail' | 'none';
  readonly counts: string;
}

export function scorerLines(aggregates: readonly ScorerAggregate[]): ScorerLine[] {
  return aggregates.map((a) => {
    const counts = Object.entries(a.counts)
      .filter(([, n]) => n > 0)
      .map(([status, n]) => `${n} ${status}`)
      .join(', ');
    const test = a.test === undefined ? '' : `${a.test.lower_is_better ? '≤' : '≥'} ${formatScore(a.test.threshold)} → ${a.test.pass ? 'pass' : 'fail'}`;
    return { name: a.name, passRate: formatRate(a.passRate), meanScore: formatScore(a.meanScore), test, verdict: a.test === undefined ? 'none' : a.test.pass ? 'pass' : 'fail', counts };
  });
}

export interface HistogramBin {
  readonly from: number;
  readonly to: number;
  readonly count: number;
}

export interface Histogram {
  readonly bins: readonly HistogramBin[];
  /** What the axis means: "normalized score (0–1)" or the scorer's own unit. */
  readonly axis: string;
  /** Results with a score that were counted. */
  readonly counted: number;
  /** Results with a score left out (a count-valued scorer among bounded ones). */
  readonly leftOut: number;
}

/**
 * Scores in `bins` equal bins. Over several scorers, scores are normalized (score / scale max) so
 * EvalBench's 0–100 and EvalBook's 0–1 share one axis, and count-valued scorers are left out. For
 * one count-valued scorer alone, the bins span its own minimum to maximum.
 */
export function scoreHistogram(results: readonly ScorerResult[], scorers: readonly ScorerInfo[], only: readonly string[], bins = 10): Histogram {
  const info = new Map(scorers.map((s) => [s.name, s]));
  const single = only.length === 1 ? info.get(only[0] ?? '') : undefined;
  if (single?.scale.kind === 'count') return countHistogram(results, single.name, single.scale.unit, bins);
  const counts = new Array<number>(bins).fill(0);
  let counted = 0;
  let leftOut = 0;
  for (const r of results) {
    if (r.score === undefined || Number.isNaN(r.score)) continue;
    if (only.length > 0 && !only.includes(r.scorer)) continue;
    const scale = info.get(r.scorer)?.scale;
    if (scale === undefined || scale.kind !== 'bounded' || scale.max <= 0) {
      leftOut++;
      continue;
    }
    const normalized = Math.min(1, Math.max(0, r.score / scale.max));
    const bin = Math.min(bins - 1, Math.floor(normalized * bins));
    counts[bin] = (counts[bin] ?? 0) + 1;
    counted++;
  }
  return { bins: counts.map((count, i) => ({ from: i / bins, to: (i + 1) / bins, count })), axis: 'normalized score (0–1)', counted, leftOut };
}

function countHistogram(results: readonly ScorerResult[], scorer: string, unit: string, bins: number): Histogram {
  const scores: number[] = [];
  for (const r of results) if (r.scorer === scorer && r.score !== undefined && !Number.isNaN(r.score)) scores.push(r.score);
  if (scores.length === 0) return { bins: [], axis: unit, counted: 0, leftOut: 0 };
  let min = Infinity;
  let max = -Infinity;
  for (const s of scores) {
    if (s < min) min = s;
    if (s > max) max = s;
  }
  const width = max > min ? (max - min) / bins : 1;
  const counts = new Array<number>(bins).fill(0);
  for (const s of scores) {
    const bin = Math.min(bins - 1, Math.floor((s - min) / width));
    counts[bin] = (counts[bin] ?? 0) + 1;
  }
  return { bins: counts.map((count, i) => ({ from: min + i * width, to: min + (i + 1) * width, count })), axis: unit, counted: scores.length, leftOut: 0 };
}

/** "3 passed, 1 failed, 0 errored, 0 skipped of 4 cases", from the summary or, live, from the cases seen. */
export function caseCountsLine(run: RunInfo | undefined, caseStatuses: Iterable<string>): string {
  if (run?.summary !== undefined) {
    const s = run.summary;
    return `${s.total} cases: ${s.passed} passed, ${s.failed} failed, ${s.errored} errored, ${s.skipped} skipped${run.cancelled ? ' (cancelled)' : ''}`;
  }
  const tally = new Map<string, number>();
  let total = 0;
  for (const status of caseStatuses) {
    tally.set(status, (tally.get(status) ?? 0) + 1);
    total++;
  }
  const part = (status: string): string => `${tally.get(status) ?? 0} ${status}`;
  return `${total} cases so far: ${part('passed')}, ${part('failed')}, ${part('errored')}, ${part('skipped')}, ${part('running')}`;
}
