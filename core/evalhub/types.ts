import type { SourceRange } from '../text/position';

/** Where one scoring input came from, most specific first (seed 003, "User overrides"). */
export type InputSource = 'job' | 'collection' | 'provider' | 'default';

/** `primary_score: {metric, lower_is_better}` as a benchmark config writes it. */
export interface PrimaryScoreConfig {
  readonly metric?: string;
  readonly lower_is_better?: boolean;
}

/**
 * One benchmark's scoring config as a collection, a job override or a provider default writes it
 * (EvalHub's `config/collections/*.yaml` shape), with where it was written.
 */
export interface BenchmarkConfig {
  readonly id: string;
  readonly provider_id?: string;
  readonly weight?: number;
  readonly primary_score?: PrimaryScoreConfig;
  readonly pass_criteria?: { readonly threshold?: number };
  /** The entry's place (its `id` value), for messages about it. */
  readonly range?: SourceRange;
  /** Where its `primary_score.metric` is written, for "no benchmark reports it". */
  readonly metricRange?: SourceRange;
}

/** A collection: benchmarks with weights, primary scores and thresholds, and the collection's job threshold. */
export interface CollectionConfig {
  readonly id?: string;
  readonly pass_criteria?: { readonly threshold?: number };
  readonly benchmarks: readonly BenchmarkConfig[];
  /** The file it was read from, or the run config for an inline one. */
  readonly file: string;
}

/** One benchmark's scoring inputs after precedence, each with where it came from. */
export interface ResolvedBenchmark {
  readonly id: string;
  readonly providerId?: string;
  readonly metric?: string;
  readonly metricFrom?: InputSource;
  readonly threshold?: number;
  readonly thresholdFrom?: InputSource;
  readonly lowerIsBetter: boolean;
  readonly weight: number;
  readonly weightFrom: InputSource;
}

/** EvalHub's per-benchmark test (`results.benchmarks[].test`). */
export interface BenchmarkTest {
  readonly primary_score: number;
  readonly primary_score_metric: string;
  readonly threshold: number;
  readonly pass: boolean;
}

/** EvalHub's job test (`results.test`). */
export interface EvalhubJobTest {
  readonly score: number;
  readonly threshold: number;
  readonly pass: boolean;
}
