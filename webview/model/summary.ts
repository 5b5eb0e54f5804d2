/**
 * The summary band: the header, the job score against its threshold, each scorer's pass rate, test
 * and score distribution. Pure text and numbers; the DOM side only lays them out.
 */
import type { ScorerResult } from '../../core/result';
import type { ScorerAggregate } from '../../core/report/report';
import type { ScorerInfo } from '../../core/runner/events';
import { type IntervalBar, meanBar, passRateBar } from './errorBars';
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
    return {
      text: `Job score ${formatScore(job.score)}${sofar} against threshold ${formatScore(job.threshold)}: ${verdict}`,
      verdict,
    };
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
  /** The mean with its 95% interval, drawn; absent when the report carries no interval (a live run). */
  readonly meanBar?: IntervalBar;
  /** The pass rate with its Wilson interval, drawn. */
  readonly passRateBar?: IntervalBar;
}

export function scorerLines(aggregates: readonly ScorerAggregate[]): ScorerLine[] {
  return aggregates.map((a) => {
    const counts = Object.entries(a.counts)
      .filter(([, n]) => n > 0)
      .map(([status, n]) => `${n} ${status}`)
      .join(', ');
    const test =
      a.test === undefined
        ? ''
        : `${a.test.lower_is_better ? '≤' : '≥'} ${formatScore(a.test.threshold)} → ${a.test.pass ? 'pass' : 'fail'}`;
    const mean = meanBar(a);
    const rate = passRateBar(a);
    return {
      name: a.name,
      passRate: formatRate(a.passRate),
      meanScore: formatScore(a.meanScore),
      test,
      verdict: a.test === undefined ? 'none' : a.test.pass ? 'pass' : 'fail',
      counts,
      ...(mean === undefined ? {} : { meanBar: mean }),
      ...(rate === undefined ? {} : { passRateBar: rate }),
    };
  });
}

export interface HistogramBin {
  readonly from: number;
  readonly to: number;
  readonly count: number;
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

export interface RunTitle {
  /** The config as the person names it, and what kind of run this is. */
  readonly text: string;
  /** When it ran (local time) and how long it took. */
  readonly when: string;
  /** The run id and the config's full path, for whoever needs them. */
  readonly tooltip: string;
}

/** The header: the config's workspace-relative name (else its file name) and when the run started, not a run id and an absolute path. */
export function runTitle(run: RunInfo | undefined, labels: ReadonlyMap<string, string>): RunTitle {
  if (run === undefined) return { text: 'EvalLens results', when: '', tooltip: '' };
  const name = labels.get(run.configFile) ?? run.configFile.split(/[\\/]/).pop() ?? run.configFile;
  const kind = run.kind === 'live' ? 'live run' : run.importedSummary === undefined ? '' : 'EvalBench results';
  const started = new Date(run.startedAt);
  const when = Number.isNaN(started.getTime())
    ? ''
    : `ran ${localTime(started)}${run.durationMs === undefined ? '' : `, took ${formatDuration(run.durationMs)}`}`;
  return { text: kind === '' ? name : `${name} · ${kind}`, when, tooltip: `run ${run.runId} of ${run.configFile}` };
}

/** "2026-01-01 13:05" in the person's own time zone. */
export function localTime(date: Date): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}

/** 850 → "850 ms", 12_345 → "12.3 s", 125_000 → "2 min 5 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${Math.round(ms / 100) / 10} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

export interface ScorerDistribution {
  readonly scorer: string;
  readonly bins: readonly HistogramBin[];
  /** Results of the scorer with a score. */
  readonly counted: number;
  /** What the axis counts: the scale's 0–max, or a count's unit. */
  readonly axis: string;
}

/**
 * Each scorer's scores on its own scale, in `bins` equal bins: 0 to the scale's maximum for a bounded
 * scorer (EvalBench's 0–100 stays 0–100), the lowest to the highest seen for a count. One pass over
 * the results, so 100,000 of them cost one loop.
 */
export function scorerDistributions(
  results: readonly ScorerResult[],
  scorers: readonly ScorerInfo[],
  bins = 10,
): ScorerDistribution[] {
  const scores = new Map<string, number[]>(scorers.map((s) => [s.name, []]));
  for (const r of results) {
    if (r.score === undefined || Number.isNaN(r.score)) continue;
    scores.get(r.scorer)?.push(r.score);
  }
  return scorers.map((scorer) => {
    const list = scores.get(scorer.name) ?? [];
    let low = 0;
    let high: number;
    if (scorer.scale.kind === 'bounded') high = scorer.scale.max;
    else {
      low = list.length === 0 ? 0 : list.reduce((a, b) => Math.min(a, b), Infinity);
      high = list.length === 0 ? 0 : list.reduce((a, b) => Math.max(a, b), -Infinity);
    }
    const width = high > low ? (high - low) / bins : 1;
    const counts = new Array<number>(bins).fill(0);
    for (const score of list) {
      const bin = Math.min(bins - 1, Math.max(0, Math.floor((score - low) / width)));
      counts[bin] = (counts[bin] ?? 0) + 1;
    }
    const axis =
      scorer.scale.kind === 'bounded'
        ? `${formatScore(low)}–${formatScore(high)}`
        : `${formatScore(low)}–${formatScore(high)} ${scorer.scale.unit}`;
    return {
      scorer: scorer.name,
      bins: counts.map((count, i) => ({ from: low + i * width, to: low + (i + 1) * width, count })),
      counted: list.length,
      axis,
    };
  });
}
