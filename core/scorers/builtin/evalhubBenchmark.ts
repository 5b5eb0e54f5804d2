import type { Json } from '../../case';
import { benchmarkTest } from '../../evalhub/benchmarkTest';
import type { ResolvedBenchmark } from '../../evalhub/types';
import { error, fail, inconclusive, pass, type ScorerVerdict } from '../../result';
import schema from '../../../schemas/scorers/evalhub_benchmark.schema.json';
import { defineScorer, prepared } from '../scorer';

/**
 * EvalHub's per-benchmark test on a benchmark-results case (core/dataset/benchmarkResults.ts): the
 * case's `output` is the metrics map, its `expected` the resolved scoring inputs. The verdict carries
 * the metrics map, and its details the test block, weight and direction the job score needs
 * (shared/aggregate/aggregator.ts adds each benchmark with a test by its own weight).
 */
export const evalhubBenchmark = defineScorer('evalhub_benchmark', {
  origin: 'EvalLens',
  scale: { kind: 'count', unit: 'primary metric' },
  schema,
  jobScoreByCase: true,
  create(options) {
    const common = options as { readonly [key: string]: Json };
    return prepared({
      score({ case: evalCase }) {
        const metrics = evalCase.output;
        if (metrics === null || typeof metrics !== 'object' || Array.isArray(metrics))
          return error(
            `the benchmark's metrics must be a map of metric names to values (the case's output), and it is ${metrics === undefined ? 'missing' : Array.isArray(metrics) ? 'a list' : `a ${metrics === null ? 'null' : typeof metrics}`}`,
          );
        const map = metrics as { readonly [name: string]: Json };
        const resolved = resolvedOf(evalCase.id, evalCase.expected, common);
        const outcome = benchmarkTest(resolved, map);
        const from = fromText(resolved);
        const base = {
          benchmark: identityOf(evalCase.id, evalCase.metadata),
          lower_is_better: resolved.lowerIsBetter,
          weight: resolved.weight,
          from: {
            ...(resolved.metricFrom === undefined ? {} : { metric: resolved.metricFrom }),
            ...(resolved.thresholdFrom === undefined ? {} : { threshold: resolved.thresholdFrom }),
            weight: resolved.weightFrom,
          },
        };
        if (outcome.test === undefined) {
          const verdict = inconclusive(
            `no test: ${outcome.omitted}; the benchmark is left out of the job score (EvalHub omits its test block)`,
            base,
          );
          return { ...verdict, metrics: map };
        }
        const t = outcome.test;
        const relation = resolved.lowerIsBetter ? (t.pass ? '<=' : '>') : t.pass ? '>=' : '<';
        const reason = `${t.primary_score_metric} ${String(t.primary_score)} ${relation} threshold ${String(t.threshold)}${from}`;
        const details = { ...base, test: { ...t } };
        const verdict: ScorerVerdict = t.pass
          ? pass(reason, t.primary_score, details)
          : fail(reason, t.primary_score, details);
        return { ...verdict, metrics: map };
      },
    });
  },
});

/** The case's resolved inputs (`expected`), else this entry's `primary_score` and `threshold`. */
function resolvedOf(
  id: string,
  expected: Json | undefined,
  options: { readonly [key: string]: Json },
): ResolvedBenchmark {
  const e = mapOf(expected);
  const primary = mapOf(e?.['primary_score']) ?? mapOf(options['primary_score']);
  const threshold = mapOf(e?.['pass_criteria'])?.['threshold'] ?? options['threshold'];
  const from = mapOf(e?.['from']);
  const weight = e?.['weight'] ?? options['weight'];
  const metric = primary?.['metric'];
  const source = (v: Json | undefined) =>
    v === 'job' || v === 'collection' || v === 'provider' || v === 'default' ? v : 'job';
  return {
    id,
    ...(typeof metric === 'string' ? { metric, metricFrom: source(from?.['metric']) } : {}),
    ...(typeof threshold === 'number' ? { threshold, thresholdFrom: source(from?.['threshold']) } : {}),
    lowerIsBetter: primary?.['lower_is_better'] === true || options['lower_is_better'] === true,
    weight: typeof weight === 'number' && weight > 0 ? weight : 1,
    weightFrom: typeof weight === 'number' && weight > 0 ? source(from?.['weight']) : 'default',
  };
}

function fromText(resolved: ResolvedBenchmark): string {
  if (resolved.metricFrom === undefined && resolved.thresholdFrom === undefined) return '';
  return ` (metric from ${resolved.metricFrom ?? '—'}, threshold from ${resolved.thresholdFrom ?? '—'})`;
}

function mapOf(value: Json | undefined): { readonly [key: string]: Json } | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as { readonly [key: string]: Json })
    : undefined;
}

/** The benchmark's id, provider and index (the dataset reader's metadata), for EvalHub's results shape. */
function identityOf(caseId: string, metadata: Json | undefined): { [key: string]: Json } {
  const m = mapOf(metadata);
  const id = m?.['benchmark'];
  const provider = m?.['provider_id'];
  const index = m?.['benchmark_index'];
  return {
    id: typeof id === 'string' ? id : caseId,
    ...(typeof provider === 'string' ? { provider_id: provider } : {}),
    ...(typeof index === 'number' ? { benchmark_index: index } : {}),
  };
}
