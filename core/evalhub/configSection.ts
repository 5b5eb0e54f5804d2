import { resolve } from 'node:path';
import type { YamlSource } from '../config/yamlSource';
import type { SourceRange } from '../text/position';
import { benchmarkConfigs, collectionConfig } from './benchmarkConfigs';
import type { BenchmarkConfig, CollectionConfig } from './types';

/** The config's `evalhub:` section as read at parse time (a collection file is read when a run loads). */
export interface EvalhubSection {
  /** A collection file (absolute), read by loadEvalhub; or the collection written inline. */
  readonly collection?:
    | { readonly file: string; readonly range: SourceRange }
    | { readonly inline: CollectionConfig; readonly range: SourceRange };
  readonly overrides: readonly BenchmarkConfig[];
  readonly providerDefaults: readonly BenchmarkConfig[];
  readonly providerId?: string;
  /** The config's own `pass_criteria.threshold` (the job request's), if set. */
  readonly requestThreshold?: number;
}

/** Reads `evalhub:` of a config the schema has checked; undefined when the config has none. */
export function readEvalhubSection(
  source: YamlSource,
  data: Record<string, unknown>,
  absolute: (path: string) => string = (p) => resolve(source.file, '..', p),
): EvalhubSection | undefined {
  const section = data['evalhub'];
  if (section === null || typeof section !== 'object' || Array.isArray(section)) return undefined;
  const s = section as Record<string, unknown>;
  const collection = s['collection'];
  const range = source.valueRange(['evalhub', 'collection']);
  const passCriteria = data['pass_criteria'];
  const request =
    passCriteria !== null && typeof passCriteria === 'object'
      ? (passCriteria as Record<string, unknown>)['threshold']
      : undefined;
  return {
    ...(typeof collection === 'string' && collection !== ''
      ? { collection: { file: absolute(collection), range } }
      : collection !== null && typeof collection === 'object'
        ? { collection: { inline: collectionConfig(source, collection, ['evalhub', 'collection']), range } }
        : {}),
    overrides: benchmarkConfigs(source, s['benchmarks'], ['evalhub', 'benchmarks']),
    providerDefaults: benchmarkConfigs(source, s['providers'], ['evalhub', 'providers']),
    ...(typeof s['provider_id'] === 'string' ? { providerId: s['provider_id'] } : {}),
    ...(typeof request === 'number' ? { requestThreshold: request } : {}),
  };
}
