// The statistics module (issue 16): host-free, streaming, each formula in its own file and documented
// in docs/statistics.md.
export type {
  CaseTrialsSummary,
  DeltaSummary,
  MeanSummary,
  PairedTest,
  PassRateSummary,
  ScorerComparison,
  Verdict,
} from './types';
export { ALPHA, POWER, MIN_CASES, MAX_HALF_WIDTH_SHARE, isTooWide } from './rules';
export { clipToRange } from './clip';
export { MeanAccumulator } from './meanAccumulator';
export { passRateSummary, caseTrialsSummary } from './passRate';
export { wilsonInterval } from './wilson';
export { PairedDifferenceAccumulator, pairedFromMoments, caseMean, type PairedResult } from './pairedDifference';
export { McNemarAccumulator, mcnemarFromPairs, type PassFailPairs, type PassFailTransition } from './mcnemar';
export { holmAdjust } from './holm';
export { compareScorers, verdictOf, type ScorerPairedInput } from './compareScorers';
export { minimumDetectableEffect, mdeMultiplier } from './power';
export { normalCdf, normalQuantile } from './normal';
export { studentTCdf, studentTQuantile, studentTTwoSidedTail } from './studentT';
export { binomialCdf, binomialTestHalf } from './binomial';
