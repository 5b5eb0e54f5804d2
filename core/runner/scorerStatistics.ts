import type { ScorerResult } from '../result';
import type { ScorerAggregate } from '../report/report';
import { MeanAccumulator } from '../stats/meanAccumulator';
import { passRateSummary } from '../stats/passRate';
import { clipToRange } from '../stats/clip';

/** A scorer's running sums, and the scores of the case being added: the first in `one`, all in `more` when there are several. */
interface ScorerMean {
  readonly accumulator: MeanAccumulator;
  readonly one: number[];
  count: number;
  more: number[] | undefined;
}

/**
 * The error bars of every scorer summary (issue 16; formulas in docs/statistics.md): per scorer, the
 * running sums of a MeanAccumulator, fed one case at a time so that a case scored in several trials is
 * one cluster. Memory is constant per scorer whatever the number of cases. Kept beside the shared
 * Aggregator (which the extension also runs and which may take only types from core) rather than in it.
 */
export class ScorerStatistics {
  private readonly means = new Map<string, ScorerMean>();
  /**
   * The scorers the case being added has scores of, the first `touchedCount` (the list is not
   * emptied: an array's storage is let go of when its length goes to 0, and made again next case).
   */
  private readonly touched: ScorerMean[] = [];
  private touchedCount = 0;

  /** Adds one case's results (all its trials). */
  addCase(results: readonly ScorerResult[]): void {
    // A case's scores are gathered per scorer in fields used again, not in a Map and lists made per
    // case: a merge adds hundreds of thousands of cases, and those were much of its garbage.
    const touched = this.touched;
    for (const r of results) {
      // The scores the Aggregator's mean takes: decided or measured results with a number.
      if (r.status !== 'pass' && r.status !== 'fail' && r.status !== 'measured') continue;
      if (typeof r.score !== 'number') continue;
      let mean = this.means.get(r.scorer);
      if (mean === undefined) {
        mean = { accumulator: new MeanAccumulator(), one: [0], count: 0, more: undefined };
        this.means.set(r.scorer, mean);
      }
      if (mean.count === 0) {
        touched[this.touchedCount++] = mean;
        mean.one[0] = r.score;
      } else if (mean.count === 1) mean.more = [mean.one[0] as number, r.score];
      else mean.more?.push(r.score);
      mean.count++;
    }
    for (let i = 0; i < this.touchedCount; i++) {
      const mean = touched[i] as ScorerMean;
      // One score (a case without trials, the usual) goes in the one-element list kept for it.
      mean.accumulator.addCase(mean.count === 1 ? mean.one : (mean.more as number[]));
      mean.count = 0;
      mean.more = undefined;
    }
    this.touchedCount = 0;
  }

  /**
   * The aggregates with their statistics: for a mean, `stderr`, `ci_low`, `ci_high`, `mde`, `cases`,
   * `clustered` and `too_wide`; for a pass rate, its Wilson interval and `pass_rate_too_wide`.
   */
  withStatistics(aggregates: readonly ScorerAggregate[]): ScorerAggregate[] {
    return aggregates.map((a) => {
      const accumulator = a.meanScore === undefined ? undefined : this.means.get(a.name)?.accumulator;
      // The width rule judges an interval against the scale's range when it has one (0–1, 0–100).
      const range = a.scale.kind === 'bounded' ? a.scale.max : undefined;
      const m = accumulator?.summary(range);
      // Reported ends clipped to the scale (0 to its max) when it is known; `too_wide` keeps the unclipped judgement.
      const ci = m === undefined || range === undefined ? m : { ...m, ...clipToRange(m.ci_low, m.ci_high, 0, range) };
      const decided = a.counts.pass + a.counts.fail;
      const rate = decided > 0 ? passRateSummary(a.counts.pass, decided) : undefined;
      return {
        ...a,
        ...(m === undefined || ci === undefined
          ? {}
          : {
              stderr: m.stderr,
              ci_low: ci.ci_low,
              ci_high: ci.ci_high,
              mde: m.mde,
              cases: m.n,
              clustered: m.clustered,
              too_wide: m.too_wide,
            }),
        ...(rate === undefined
          ? {}
          : {
              pass_rate_ci_low: rate.pass_rate_ci_low,
              pass_rate_ci_high: rate.pass_rate_ci_high,
              pass_rate_too_wide: rate.too_wide,
            }),
      };
    });
  }
}
