import type { Json } from '../../core/case';
import type { JobTest } from '../../core/report/report';
import type { ScorerResult } from '../../core/result';

interface BenchmarkEntry {
  readonly id: string;
  readonly provider_id?: string;
  readonly benchmark_index: number;
  readonly metrics: { readonly [name: string]: Json };
  readonly test?: { primary_score: number; primary_score_metric: string; threshold: number; pass: boolean };
}

/**
 * EvalHub's `results` from the benchmark results of a run, in benchmark order: each with its metrics
 * map and its test block only where the result has one (a benchmark without a test has none, as in
 * EvalHub); the job test only when the run has one.
 */
export function evalhubResults(
  job: JobTest | undefined,
  results: readonly ScorerResult[],
): { readonly results: { readonly test?: JobTest; readonly benchmarks: readonly BenchmarkEntry[] } } {
  const benchmarks = results
    .filter((r) => r.metrics !== undefined)
    .map((r, position): BenchmarkEntry => {
      const identity = mapOf(r.details?.['benchmark']);
      const id = identity?.['id'];
      const provider = identity?.['provider_id'];
      const index = identity?.['benchmark_index'];
      const test = mapOf(r.details?.['test']);
      return {
        id: typeof id === 'string' ? id : r.caseId,
        ...(typeof provider === 'string' ? { provider_id: provider } : {}),
        benchmark_index: typeof index === 'number' ? index : position,
        metrics: r.metrics ?? {},
        ...(test === undefined ? {} : { test: testBlock(test) }),
      };
    })
    .sort((a, b) => a.benchmark_index - b.benchmark_index);
  return {
    results: {
      ...(job === undefined ? {} : { test: { score: job.score, threshold: job.threshold, pass: job.pass } }),
      benchmarks,
    },
  };
}

function testBlock(test: { readonly [key: string]: Json }): NonNullable<BenchmarkEntry['test']> {
  return {
    primary_score: Number(test['primary_score']),
    primary_score_metric: String(test['primary_score_metric']),
    threshold: Number(test['threshold']),
    pass: test['pass'] === true,
  };
}

function mapOf(value: Json | undefined): { readonly [key: string]: Json } | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as { readonly [key: string]: Json })
    : undefined;
}
