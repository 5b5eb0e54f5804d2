import { binomialTestHalf } from './binomial';
import { pairedFromMoments, type PairedResult } from './pairedDifference';

/** How the shared cases moved between two runs' pass/fail verdicts. */
export interface PassFailPairs {
  readonly bothPassed: number;
  readonly bothFailed: number;
  /** Passed in the baseline, failed in the candidate. */
  readonly regressed: number;
  /** Failed in the baseline, passed in the candidate. */
  readonly fixed: number;
}

/** How one shared case moved between the baseline and the candidate. */
export type PassFailTransition = 'regressed' | 'fixed' | 'unchanged_pass' | 'unchanged_fail';

/**
 * The paired comparison of pass/fail verdicts. Only the discordant cases carry information about a
 * change; under "no change" each is equally likely to be a regression or a fix, so the exact McNemar
 * test is the two-sided binomial test of `fixed` out of `regressed + fixed` at p = 1/2 (McNemar 1947,
 * Psychometrika 12:153–157; the exact form as in Agresti, "Categorical Data Analysis", 3rd ed., §11.1).
 * delta is the change in pass rate, candidate − baseline = (fixed − regressed)/n, with the paired
 * standard error of the per-case differences d ∈ {−1, 0, +1}:
 *   Σd = fixed − regressed, Σd² = fixed + regressed, Σ(d − d̄)² = Σd² − (Σd)²/n.
 */
export class McNemarAccumulator {
  private counts = { bothPassed: 0, bothFailed: 0, regressed: 0, fixed: 0 };

  /** Adds a case both runs decided and returns how it moved (issue 16's per-case `transition`). */
  addCase(baselinePassed: boolean, candidatePassed: boolean): PassFailTransition {
    if (baselinePassed && candidatePassed) {
      this.counts.bothPassed++;
      return 'unchanged_pass';
    }
    if (!baselinePassed && !candidatePassed) {
      this.counts.bothFailed++;
      return 'unchanged_fail';
    }
    if (baselinePassed) {
      this.counts.regressed++;
      return 'regressed';
    }
    this.counts.fixed++;
    return 'fixed';
  }

  pairs(): PassFailPairs {
    return { ...this.counts };
  }

  result(): PairedResult {
    return mcnemarFromPairs(this.counts);
  }
}

export function mcnemarFromPairs(pairs: PassFailPairs): PairedResult {
  const n = pairs.bothPassed + pairs.bothFailed + pairs.regressed + pairs.fixed;
  const sum = pairs.fixed - pairs.regressed;
  const discordant = pairs.fixed + pairs.regressed;
  const squares = n === 0 ? 0 : discordant - (sum * sum) / n;
  const paired = pairedFromMoments(n, n === 0 ? 0 : sum / n, squares);
  return { delta: paired.delta, p_value_raw: n === 0 ? null : binomialTestHalf(pairs.fixed, discordant) };
}
