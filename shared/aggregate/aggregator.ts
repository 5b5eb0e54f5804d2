import type { ResultStatus, ScorerResult } from '../../core/result';
import type { JobTest, ScorerAggregate, ScorerTest } from '../../core/report/report';
import type { ScorerInfo } from '../../core/runner/events';

interface Tally {
  counts: Record<ResultStatus, number>;
  scoreSum: number;
  scored: number;
  passes: number;
  /** jobScoreByCase scorers: Σ weight × (score, or 1 − score) and Σ weight over results with a test. */
  caseWeighted: number;
  caseWeights: number;
}

/**
 * Folds results into per-scorer aggregates and the job test as they arrive, in constant memory per
 * scorer (EvalHub semantics, seed 003):
 * - a scorer's primary score is the mean of its decided (`pass`/`fail`) or `measured` numeric scores, on
 *   its native scale;
 * - its test exists only where that mean and a threshold resolve: pass = mean >= threshold
 *   (<= with lower_is_better; ties pass both ways);
 * - the job score is the weighted mean, over scorers that have a test, of their normalized mean
 *   (mean / scale max, so EvalBench's 0–100 and EvalBook's 0–1 average on one scale), inverted to
 *   1 − normalized for lower_is_better; weight missing or 0 counts as 1. Count-valued scorers (no
 *   scale maximum) cannot be normalized and stay out of the job score. No contributing scorer: no
 *   job test. Job pass = score >= pass_criteria.threshold (default 0.5).
 * Arithmetic is float64 (EvalHub stores float32; we do not reproduce its rounding).
 */
export class Aggregator {
  private readonly tallies = new Map<string, Tally>();
  /** Per itemized scorer, the item results seen so far (`<name>_<index>`), by index. */
  private readonly items = new Map<string, Map<number, ScorerInfo>>();
  /** Scorers whose every case is weighted on its own in the job score (evalhub_benchmark). */
  private readonly byCase = new Set<string>();

  constructor(
    private readonly scorers: readonly ScorerInfo[],
    private readonly jobThreshold: number,
  ) {
    for (const s of scorers) {
      this.tallies.set(s.name, emptyTally());
      if (s.itemized === true) this.items.set(s.name, new Map());
      if (s.jobScoreByCase === true) this.byCase.add(s.name);
    }
  }

  add(result: ScorerResult): void {
    let tally = this.tallies.get(result.scorer);
    if (tally === undefined) this.learnItem(result.scorer);
    tally = this.tallies.get(result.scorer);
    if (tally === undefined) {
      // Results of no configured scorer (a dataset record that could not be read) are counted apart.
      tally = emptyTally();
      this.tallies.set(result.scorer, tally);
    }
    tally.counts[result.status]++;
    if (
      (result.status === 'pass' || result.status === 'fail' || result.status === 'measured') &&
      typeof result.score === 'number'
    ) {
      tally.scoreSum += result.score;
      tally.scored++;
    }
    if (result.status === 'pass') tally.passes++;
    if (this.byCase.has(result.scorer)) addCaseContribution(tally, result);
  }

  /**
   * An itemized scorer's item (`<name>_<index>`) is an aggregate of its own, with the scorer's scale,
   * threshold and weight: each rubric criterion gets its pass rate.
   */
  private learnItem(name: string): void {
    const match = /^(.*)_(\d+)$/.exec(name);
    const items = match === null ? undefined : this.items.get(match[1] ?? '');
    const base = this.scorers.find((s) => s.name === match?.[1]);
    if (items === undefined || base === undefined || match === null) return;
    items.set(Number(match[2]), { ...base, name });
    this.tallies.set(name, emptyTally());
  }

  /** The configured scorers in order, each itemized one followed by its items by index (itself only when it has results or no items). */
  private infos(): ScorerInfo[] {
    return this.scorers.flatMap((info) => {
      const items = this.items.get(info.name);
      if (items === undefined || items.size === 0) return [info];
      const own = this.tallies.get(info.name);
      const used = own !== undefined && Object.values(own.counts).some((n) => n > 0);
      return [...(used ? [info] : []), ...[...items.entries()].sort(([a], [b]) => a - b).map(([, item]) => item)];
    });
  }

  scorerAggregates(): ScorerAggregate[] {
    return this.infos().map((info) => {
      const tally = this.tallies.get(info.name) ?? emptyTally();
      const decided = tally.counts.pass + tally.counts.fail;
      const meanScore = tally.scored > 0 ? tally.scoreSum / tally.scored : undefined;
      const test = scorerTest(info, meanScore);
      return {
        ...info,
        counts: { ...tally.counts },
        ...(meanScore === undefined ? {} : { meanScore }),
        ...(decided > 0 ? { passRate: tally.passes / decided } : {}),
        ...(test === undefined ? {} : { test }),
      };
    });
  }

  jobTest(aggregates: readonly ScorerAggregate[] = this.scorerAggregates()): JobTest | undefined {
    let weighted = 0;
    let weights = 0;
    for (const a of aggregates) {
      const byCase = a.jobScoreByCase === true ? this.tallies.get(a.name) : undefined;
      if (byCase !== undefined) {
        weighted += byCase.caseWeighted;
        weights += byCase.caseWeights;
        continue;
      }
      if (a.test === undefined || a.scale.kind !== 'bounded') continue;
      const weight = a.weight > 0 ? a.weight : 1;
      const normalized = a.test.primary_score / a.scale.max;
      weighted += weight * (a.lowerIsBetter ? 1 - normalized : normalized);
      weights += weight;
    }
    if (weights === 0) return undefined;
    const score = weighted / weights;
    return { score, threshold: this.jobThreshold, pass: score >= this.jobThreshold };
  }
}

function scorerTest(info: ScorerInfo, meanScore: number | undefined): ScorerTest | undefined {
  if (meanScore === undefined || info.threshold === undefined) return undefined;
  const pass = info.lowerIsBetter ? meanScore <= info.threshold : meanScore >= info.threshold;
  return {
    primary_score: meanScore,
    primary_score_metric: 'mean_score',
    threshold: info.threshold,
    lower_is_better: info.lowerIsBetter,
    pass,
  };
}

/** Every status at 0, written out: shared/ takes only types from core, and the Record type makes a new status a type error here. */
function emptyTally(): Tally {
  const counts: Record<ResultStatus, number> = {
    pass: 0,
    fail: 0,
    error: 0,
    inconclusive: 0,
    unsupported: 0,
    timeout: 0,
    skipped: 0,
    measured: 0,
  };
  return { counts, scoreSum: 0, scored: 0, passes: 0, caseWeighted: 0, caseWeights: 0 };
}

/**
 * EvalHub's job score over benchmarks (seed 003): a result with a test (pass or fail with a score)
 * adds weight × score, or weight × (1 − score) with lower_is_better, whatever the metric's scale; its
 * weight and direction are in its details; a missing or 0 weight counts as 1. A benchmark without a
 * test (inconclusive, error) adds nothing.
 */
function addCaseContribution(tally: Tally, result: ScorerResult): void {
  if ((result.status !== 'pass' && result.status !== 'fail') || typeof result.score !== 'number') return;
  const weight =
    typeof result.details?.['weight'] === 'number' && result.details['weight'] > 0 ? result.details['weight'] : 1;
  const lower = result.details?.['lower_is_better'] === true;
  tally.caseWeighted += weight * (lower ? 1 - result.score : result.score);
  tally.caseWeights += weight;
}
