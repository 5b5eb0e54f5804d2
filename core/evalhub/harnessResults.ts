import type { Json } from '../case';
import { YamlSource } from '../config/yamlSource';
import type { Problem } from '../problem';
import type { SourceRange } from '../text/position';

/** The benchmark-result formats EvalLens reads as datasets. */
export type HarnessFormat = 'lm_eval_results' | 'evalhub_results';

/** The provider lm-evaluation-harness results come from, as EvalHub names it. */
export const LM_EVAL_PROVIDER = 'lm_evaluation_harness';

/** One benchmark of a results file: its metrics map as EvalHub would receive it, and where it is. */
export interface HarnessBenchmark {
  readonly id: string;
  readonly providerId?: string;
  readonly index: number;
  /** The metrics map; absent when the file's value is not a map (then `problem` says so). */
  readonly metrics?: { readonly [name: string]: Json };
  readonly range: SourceRange;
  readonly problem?: string;
}

export interface HarnessResults {
  readonly benchmarks: readonly HarnessBenchmark[];
  /** A file that is not such results at all (syntax, top-level shape). */
  readonly problems: readonly Problem[];
}

/**
 * Reads a results file of a harness into benchmarks with their metrics maps and positions.
 *
 * - `lm_eval_results`: lm-evaluation-harness's `results_<date>.json`: `results` maps each task to
 *   `"<metric>,<filter>"` keys (`"acc,none"`, `"acc_stderr,none"`, `"exact_match,strict-match"`) and an
 *   `alias`. A metric of the `none` filter is named bare (`acc`, `acc_stderr`), as EvalHub's seed
 *   shows it; any other filter keeps its `,<filter>` so no two metrics collide. The `alias` (a label,
 *   not a metric) is left out. Values pass through as they are, `"N/A"` stderrs included.
 * - `evalhub_results`: an EvalHub job's results JSON: `results.benchmarks[]` of `{id, provider_id,
 *   benchmark_index, metrics}` (the whole job resource, or its `results` object alone).
 */
export function readHarnessResults(text: string, file: string, format: HarnessFormat): HarnessResults {
  const source = new YamlSource(text, file);
  const syntax = source.syntaxProblems().filter((p) => p.severity === 'error');
  if (syntax.length > 0)
    return { benchmarks: [], problems: syntax.map((p) => ({ ...p, message: p.message.replace(/^YAML/, 'JSON') })) };
  const data = source.toData();
  if (data.problems.length > 0) return { benchmarks: [], problems: data.problems };
  return format === 'lm_eval_results' ? lmEval(source, data.value) : evalhubJob(source, data.value);
}

function lmEval(source: YamlSource, root: unknown): HarnessResults {
  const results = mapOf(root)?.['results'];
  const tasks = mapOf(results);
  if (tasks === undefined)
    return shapeProblem(
      source,
      [],
      'an lm-evaluation-harness results file: an object whose `results` maps each task to its metrics',
    );
  const benchmarks = Object.entries(tasks).map(([task, value], index): HarnessBenchmark => {
    const range = source.keyRange(['results', task]);
    const metrics = mapOf(value);
    if (metrics === undefined)
      return { id: task, index, range: source.valueRange(['results', task]), problem: notAMap(task, value) };
    const named: { [name: string]: Json } = {};
    for (const [key, metric] of Object.entries(metrics)) {
      if (key === 'alias') continue;
      const comma = key.indexOf(',');
      const name = comma >= 0 && key.slice(comma + 1) === 'none' ? key.slice(0, comma) : key;
      named[name] = metric as Json;
    }
    return { id: task, index, metrics: named, range };
  });
  return { benchmarks, problems: [] };
}

function evalhubJob(source: YamlSource, root: unknown): HarnessResults {
  const top = mapOf(root);
  const inResults = mapOf(top?.['results']);
  const base = inResults !== undefined ? ['results'] : [];
  const list = (inResults ?? top)?.['benchmarks'];
  if (!Array.isArray(list))
    return shapeProblem(
      source,
      base,
      "an EvalHub job's results: an object whose `results.benchmarks` is a list of `{id, provider_id, metrics}`",
    );
  const benchmarks = list.flatMap((item: unknown, i): HarnessBenchmark[] => {
    const at = [...base, 'benchmarks', i];
    const entry = mapOf(item);
    const id = entry?.['id'];
    if (entry === undefined || typeof id !== 'string' || id === '')
      return [
        {
          id: `benchmark-${i + 1}`,
          index: i,
          range: source.valueRange(at),
          problem: 'expected a benchmark `{id, provider_id, metrics}` with a string `id`',
        },
      ];
    const providerId = typeof entry['provider_id'] === 'string' ? entry['provider_id'] : undefined;
    const index = typeof entry['benchmark_index'] === 'number' ? entry['benchmark_index'] : i;
    const metrics = mapOf(entry['metrics']);
    const range = source.valueRange([...at, 'id']);
    const common = { id, index, ...(providerId === undefined ? {} : { providerId }) };
    if (metrics === undefined)
      return [
        {
          ...common,
          range: source.valueRange([...at, entry['metrics'] === undefined ? 'id' : 'metrics']),
          problem: notAMap(id, entry['metrics']),
        },
      ];
    return [{ ...common, metrics: metrics as { [name: string]: Json }, range }];
  });
  return { benchmarks, problems: [] };
}

function notAMap(id: string, value: unknown): string {
  const seen =
    value === undefined ? 'missing' : value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`;
  return `the metrics of benchmark "${id}" must be a map of metric names to values (e.g. {"acc": 0.81}), and it is ${seen}`;
}

function shapeProblem(source: YamlSource, path: (string | number)[], expected: string): HarnessResults {
  return {
    benchmarks: [],
    problems: [
      {
        code: 'benchmark-results-shape',
        severity: 'error',
        message: `expected ${expected}`,
        range: path.length === 0 ? source.headRange() : source.markRange(path),
      },
    ],
  };
}

function mapOf(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
