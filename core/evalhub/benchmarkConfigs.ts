import type { YamlSource } from '../config/yamlSource';
import type { BenchmarkConfig, CollectionConfig } from './types';

/**
 * The benchmark entries of a list at `path` in a YAML document, each with where its `id` and its
 * `primary_score.metric` are written. The document was checked against the collection schema first;
 * entries that are not mappings with a string `id` are left out (the schema said so already).
 */
export function benchmarkConfigs(
  source: YamlSource,
  value: unknown,
  path: readonly (string | number)[],
): BenchmarkConfig[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown, i): BenchmarkConfig[] => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return [];
    const entry = item as Record<string, unknown>;
    if (typeof entry['id'] !== 'string') return [];
    const at = [...path, i];
    const primary = objectOf(entry['primary_score']);
    const criteria = objectOf(entry['pass_criteria']);
    const metric = primary?.['metric'];
    const lower = primary?.['lower_is_better'];
    const threshold = criteria?.['threshold'];
    return [
      {
        id: entry['id'],
        ...(typeof entry['provider_id'] === 'string' ? { provider_id: entry['provider_id'] } : {}),
        ...(typeof entry['weight'] === 'number' ? { weight: entry['weight'] } : {}),
        ...(primary === undefined
          ? {}
          : {
              primary_score: {
                ...(typeof metric === 'string' ? { metric } : {}),
                ...(typeof lower === 'boolean' ? { lower_is_better: lower } : {}),
              },
            }),
        ...(typeof threshold === 'number' ? { pass_criteria: { threshold } } : {}),
        range: source.valueRange([...at, 'id']),
        ...(typeof metric === 'string' ? { metricRange: source.valueRange([...at, 'primary_score', 'metric']) } : {}),
      },
    ];
  });
}

/** A collection mapping at `path` (the root of a collection file, or `evalhub.collection` inline). */
export function collectionConfig(
  source: YamlSource,
  value: unknown,
  path: readonly (string | number)[],
): CollectionConfig {
  const collection = objectOf(value) ?? {};
  const threshold = objectOf(collection['pass_criteria'])?.['threshold'];
  return {
    ...(typeof collection['id'] === 'string' ? { id: collection['id'] } : {}),
    ...(typeof threshold === 'number' ? { pass_criteria: { threshold } } : {}),
    benchmarks: benchmarkConfigs(source, collection['benchmarks'], [...path, 'benchmarks']),
    file: source.file,
  };
}

function objectOf(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
