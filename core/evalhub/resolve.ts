import type { BenchmarkConfig, CollectionConfig, InputSource, ResolvedBenchmark } from './types';

/** What one benchmark's inputs can come from (seed 003's precedence tables). */
export interface ScoringSources {
  /** The collection the job names, if any. */
  readonly collection?: CollectionConfig;
  /** The job's inline benchmarks or per-benchmark overrides of the collection (`evalhub.benchmarks`). */
  readonly overrides: readonly BenchmarkConfig[];
  /** The providers' default benchmark configs (`evalhub.providers`). */
  readonly providerDefaults: readonly BenchmarkConfig[];
}

/** The entry for a benchmark in a list: same id, and same provider when both name one. */
export function findBenchmark(
  list: readonly BenchmarkConfig[],
  id: string,
  providerId: string | undefined,
): BenchmarkConfig | undefined {
  return list.find(
    (b) => b.id === id && (b.provider_id === undefined || providerId === undefined || b.provider_id === providerId),
  );
}

/**
 * Resolves a benchmark's primary metric, threshold, weight and lower_is_better, most specific first:
 * the job's override (merged over the collection's entry, field by field), then the collection's
 * entry, then the provider's default (metric and threshold only; weight falls back to 1). Each input
 * says where it came from. `lower_is_better` follows the metric: the config that set the metric sets
 * it, unless the job or collection entry sets it on its own.
 *
 * Seed vs code: EvalHub's server looks up the provider only when the config sets no metric, so a
 * config with a metric and no threshold gets no test. We follow the seed's tables (each input falls
 * back on its own), and say so in docs/evalhub.md.
 */
export function resolveBenchmark(
  id: string,
  providerId: string | undefined,
  sources: ScoringSources,
): ResolvedBenchmark {
  const job = findBenchmark(sources.overrides, id, providerId);
  const collection =
    sources.collection === undefined ? undefined : findBenchmark(sources.collection.benchmarks, id, providerId);
  const provider = findBenchmark(sources.providerDefaults, id, providerId);
  const configs: [InputSource, BenchmarkConfig | undefined][] = [
    ['job', job],
    ['collection', collection],
  ];
  const first = <T>(pick: (b: BenchmarkConfig) => T | undefined, withProvider: boolean) => {
    for (const [from, config] of withProvider ? [...configs, ['provider', provider] as const] : configs) {
      const value = config === undefined ? undefined : pick(config);
      if (value !== undefined) return { value, from };
    }
    return undefined;
  };
  const metric = first((b) => (b.primary_score?.metric === '' ? undefined : b.primary_score?.metric), true);
  const threshold = first((b) => b.pass_criteria?.threshold, true);
  const weight = first((b) => (b.weight === undefined || b.weight === 0 ? undefined : b.weight), false);
  const ownDirection = first((b) => b.primary_score?.lower_is_better, false);
  const lowerIsBetter =
    ownDirection?.value ??
    (metric?.from === 'provider' ? provider?.primary_score?.lower_is_better : undefined) ??
    false;
  const provided = providerId ?? job?.provider_id ?? collection?.provider_id ?? provider?.provider_id;
  return {
    id,
    ...(provided === undefined ? {} : { providerId: provided }),
    ...(metric === undefined ? {} : { metric: metric.value, metricFrom: metric.from }),
    ...(threshold === undefined ? {} : { threshold: threshold.value, thresholdFrom: threshold.from }),
    lowerIsBetter,
    weight: weight?.value ?? 1,
    weightFrom: weight?.from ?? 'default',
  };
}
