import type { DatasetRecord, EvalCase, Json } from '../case';
import { readHarnessResults, LM_EVAL_PROVIDER, type HarnessBenchmark } from '../evalhub/harnessResults';
import { resolveBenchmark } from '../evalhub/resolve';
import { readBoundedText } from '../text/boundedRead';
import { CaseIdTracker, positionalId } from './caseIdTracker';
import { readError } from './caseFromValue';
import { DatasetError, displayPath } from './datasetError';
import type { DatasetSource } from './source';
import { displayLineAndColumn } from '../../shared/text/displayPosition';

/**
 * Reads a harness's benchmark results as a dataset (`format: lm_eval_results` or `evalhub_results`):
 * one case per benchmark, in file order. The case's `output` is the benchmark's metrics map; its
 * `expected` the scoring inputs resolved by EvalHub's precedence (`primary_score`, `pass_criteria`,
 * `weight`, and `from`: where each came from), which the `evalhub_benchmark` scorer judges; its
 * `metadata` the provider and the benchmark's index. A benchmark whose metrics are not a map is an
 * error record at its place; a file that is not such results at all is a DatasetError.
 */
export async function* readBenchmarkResults(source: DatasetSource): AsyncGenerator<DatasetRecord> {
  const file = source.path;
  const format = source.format === 'evalhub_results' ? 'evalhub_results' : 'lm_eval_results';
  const read =
    source.text !== undefined ? { ok: true as const, text: source.text } : await readBoundedText(file, 'wholeDataset');
  if (!read.ok) throw new DatasetError(file, `cannot read dataset ${displayPath(file)}: ${read.reason}`);
  const results = readHarnessResults(read.text, file, format);
  const first = results.problems[0];
  if (first !== undefined)
    throw new DatasetError(
      file,
      `dataset ${displayPath(file)} at ${displayLineAndColumn(first.range.start)}: ${first.message}`,
      first.range,
    );
  const ids = new CaseIdTracker();
  const fallbackProvider = source.evalhub?.providerId ?? (format === 'lm_eval_results' ? LM_EVAL_PROVIDER : undefined);
  for (const [position, benchmark] of results.benchmarks.entries()) {
    const at = { range: benchmark.range, index: position, positionalId: positionalId('case', position + 1) };
    if (benchmark.metrics === undefined) {
      yield readError(ids, at, benchmark.problem ?? 'this benchmark has no metrics map', benchmark.id);
      continue;
    }
    const id = ids.claimForError(benchmark.id, at.positionalId, benchmark.range.start.line);
    yield {
      ok: true,
      value: {
        case: benchmarkCase(id, benchmark, benchmark.providerId ?? fallbackProvider, source),
        index: position,
        range: benchmark.range,
      },
    };
  }
}

function benchmarkCase(
  id: string,
  benchmark: HarnessBenchmark,
  providerId: string | undefined,
  source: DatasetSource,
): EvalCase {
  const provider = providerId === undefined ? {} : { provider_id: providerId };
  const metadata: { [key: string]: Json } = { benchmark: benchmark.id, ...provider, benchmark_index: benchmark.index };
  const resolved =
    source.evalhub === undefined ? undefined : resolveBenchmark(benchmark.id, providerId, source.evalhub.sources);
  const expected: { [key: string]: Json } | undefined =
    resolved === undefined
      ? undefined
      : {
          primary_score: {
            ...(resolved.metric === undefined ? {} : { metric: resolved.metric }),
            lower_is_better: resolved.lowerIsBetter,
          },
          ...(resolved.threshold === undefined ? {} : { pass_criteria: { threshold: resolved.threshold } }),
          weight: resolved.weight,
          from: {
            ...(resolved.metricFrom === undefined ? {} : { metric: resolved.metricFrom }),
            ...(resolved.thresholdFrom === undefined ? {} : { threshold: resolved.thresholdFrom }),
            weight: resolved.weightFrom,
          },
        };
  return {
    id,
    input: { benchmark: benchmark.id, ...provider },
    output: benchmark.metrics ?? {},
    ...(expected === undefined ? {} : { expected }),
    metadata,
  };
}
