import collectionSchema from '../../schemas/evalhub-collection.schema.json';
import { readConfigFile } from '../config/readConfigFile';
import type { DatasetSource } from '../config/runConfig';
import { schemaProblems } from '../config/schemaMessages';
import { YamlSource } from '../config/yamlSource';
import type { Problem } from '../problem';
import { evalhubCollectionSpec, ownValidator } from '../schema/ownValidators';
import { readBoundedTextSync } from '../text/boundedRead';
import { collectionConfig } from './benchmarkConfigs';
import type { EvalhubSection } from './configSection';
import { readHarnessResults, type HarnessBenchmark, type HarnessFormat } from './harnessResults';
import { jobThreshold } from './jobScore';
import type { ScoringSources } from './resolve';
import type { BenchmarkConfig, CollectionConfig } from './types';

/** What a run needs of `evalhub:` once its collection file is read: the sources and the job threshold. */
export interface LoadedEvalhub {
  readonly sources: ScoringSources;
  readonly jobThreshold: number;
  readonly problems: readonly Problem[];
}

/**
 * Completes the `evalhub:` section when a run (or `validate --cases`) loads the config: reads the
 * collection file (bounded, checked against the collection schema with positions in that file),
 * resolves the job threshold (the config's, then the collection's, then 0.5), and, when the dataset is
 * a benchmark-results file, checks that every benchmark the collection or the job names is reported
 * and that every primary metric they name is reported by some benchmark — a typo is an error at the
 * place it was written, never a silent "no test".
 */
export function loadEvalhub(section: EvalhubSection, dataset: DatasetSource | undefined): LoadedEvalhub {
  const problems: Problem[] = [];
  let collection: CollectionConfig | undefined;
  if (section.collection !== undefined && 'inline' in section.collection) collection = section.collection.inline;
  else if (section.collection !== undefined) {
    const read = readCollection(section.collection.file);
    problems.push(...read.problems);
    collection = read.collection;
  }
  const sources: ScoringSources = {
    ...(collection === undefined ? {} : { collection }),
    overrides: section.overrides,
    providerDefaults: section.providerDefaults,
  };
  const threshold = jobThreshold(section.requestThreshold, collection?.pass_criteria?.threshold);
  const format = dataset?.format;
  if (dataset !== undefined && (format === 'lm_eval_results' || format === 'evalhub_results'))
    problems.push(...crossCheck(sources, dataset.path, format));
  return { sources, jobThreshold: threshold, problems };
}

function readCollection(file: string): { collection?: CollectionConfig; problems: Problem[] } {
  const read = readConfigFile(file, 'EvalHub collection');
  if ('problem' in read) return { problems: [read.problem] };
  const source = new YamlSource(read.text, read.file);
  const syntax = source.syntaxProblems();
  if (syntax.some((p) => p.severity === 'error')) return { problems: syntax };
  const data = source.toData();
  if (data.problems.length > 0) return { problems: data.problems };
  const validate = ownValidator(evalhubCollectionSpec());
  if (!validate(data.value)) {
    const found = schemaProblems(validate.errors ?? [], source, { basePath: [], knownKeys: collectionKeys });
    return {
      problems:
        found.length > 0
          ? found
          : [{ code: 'schema', severity: 'error', message: 'the collection is not valid', range: source.headRange() }],
    };
  }
  return { collection: collectionConfig(source, data.value, []), problems: [] };
}

/** The keys a collection mapping and its benchmark entries take, for "did you mean". */
export function collectionKeys(path: readonly (string | number)[]): readonly string[] {
  const props = collectionSchema.properties;
  const item = props.benchmarks.items.properties;
  const inBenchmark = path.indexOf('benchmarks') >= 0 || path.includes('providers');
  const last = path[path.length - 1];
  if (inBenchmark && last === 'primary_score') return Object.keys(item.primary_score.properties);
  if (last === 'pass_criteria') return ['threshold'];
  if (inBenchmark && typeof last === 'number') return Object.keys(item);
  return Object.keys(props);
}

function crossCheck(sources: ScoringSources, file: string, format: HarnessFormat): Problem[] {
  const read = readBoundedTextSync(file, 'wholeDataset');
  // An unreadable or malformed results file is the dataset reader's to say, at the run's start.
  if (!read.ok) return [];
  const results = readHarnessResults(read.text, file, format);
  if (results.problems.length > 0) return [];
  const reported = results.benchmarks;
  const problems: Problem[] = [];
  const named = [
    ...(sources.collection?.benchmarks.map((b) => ['the collection', b] as const) ?? []),
    ...sources.overrides.map((b) => ['`evalhub.benchmarks`', b] as const),
  ];
  for (const [where, config] of named) {
    if (config.range === undefined || reported.some((b) => matches(b, config))) continue;
    problems.push({
      code: 'unknown-benchmark',
      severity: 'error',
      message: `${where} names benchmark "${config.id}"${config.provider_id === undefined ? '' : ` of provider ${config.provider_id}`}, which the results file does not report; it reports ${list(reported.map((b) => b.id))}`,
      range: config.range,
    });
  }
  const allMetrics = new Set(reported.flatMap((b) => Object.keys(b.metrics ?? {})));
  for (const [, config] of [...named, ...sources.providerDefaults.map((b) => ['providers', b] as const)]) {
    const metric = config.primary_score?.metric;
    if (metric === undefined || metric === '' || config.metricRange === undefined || allMetrics.has(metric)) continue;
    problems.push({
      code: 'unknown-metric',
      severity: 'error',
      message: `the primary metric "${metric}" (benchmark "${config.id}") is reported by no benchmark of the results file; they report ${list([...allMetrics])}`,
      range: config.metricRange,
    });
  }
  return problems;
}

function matches(reported: HarnessBenchmark, config: BenchmarkConfig): boolean {
  return (
    reported.id === config.id &&
    (config.provider_id === undefined ||
      reported.providerId === undefined ||
      reported.providerId === config.provider_id)
  );
}

function list(names: readonly string[]): string {
  if (names.length === 0) return 'none';
  const shown = names.slice(0, 12).map((n) => `"${n}"`);
  return shown.join(', ') + (names.length > 12 ? ` and ${names.length - 12} more` : '');
}
