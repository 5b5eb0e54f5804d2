import type { ScorerResult } from '../result';
import type { ScorerAggregate } from '../report/report';
import { MeanAccumulator } from '../stats/meanAccumulator';
import { passRateSummary } from '../stats/passRate';
import { clipToRange } from '../stats/clip';

/**
 * The error bars of every scorer summary (issue 16; formulas in docs/statistics.md): per scorer, the
 * running sums of a MeanAccumulator, fed one case at a time so that a case scored in several trials is
 * one cluster. Memory is constant per scorer whatever the number of cases. Kept beside the shared
 * Aggregator (which the extension also runs and which may take only types from core) rather than in it.
 */
export class ScorerStatistics {
  private readonly means = new Map<string, MeanAccumulator>();

  /** Adds one case's results (all its trials). */
  addCase(results: readonly ScorerResult[]): void {
    const scores = new Map<string, number[]>();
    for (const r of results) {
      // The scores the Aggregator's mean takes: decided or measured results with a number.
      if (r.status !== 'pass' && r.status !== 'fail' && r.status !== 'measured') continue;
      if (typeof r.score !== 'number') continue;
      const list = scores.get(r.scorer);
      if (list === undefined) scores.set(r.scorer, [r.score]);
      else list.push(r.score);
    }
    for (const [scorer, list] of scores) {
      let mean = this.means.get(scorer);
      if (mean === undefined) {
        mean = new MeanAccumulator();
        this.means.set(scorer, mean);
      }
      mean.addCase(list);
    }
  }

  /**
   * The aggregates with their statistics: for a mean, `stderr`, `ci_low`, `ci_high`, `mde`, `cases`,
   * `clustered` and `too_wide`; for a pass rate, its Wilson interval and `pass_rate_too_wide`.
   */
  withStatistics(aggregates: readonly ScorerAggregate[]): ScorerAggregate[] {
    return aggregates.map((a) => {
      const accumulator = a.meanScore === undefined ? undefined : this.means.get(a.name);
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
