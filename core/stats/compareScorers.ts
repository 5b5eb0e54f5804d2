import type { PassFailPairs } from './mcnemar';
import type { PairedResult } from './pairedDifference';
import type { PairedTest, ScorerComparison, Verdict } from './types';
import { holmAdjust } from './holm';
import { ALPHA, MIN_CASES } from './rules';

/** One scorer's paired result, before the family of scorers is adjusted together. */
export interface ScorerPairedInput {
  readonly name: string;
  readonly lower_is_better: boolean;
  readonly test: PairedTest;
  readonly paired: PairedResult;
  readonly discordant?: PassFailPairs;
}

/**
 * The verdict of one scorer: `not enough data` below MIN_CASES shared cases or without a p-value;
 * otherwise a change only when the Holm-adjusted p is below α, and then its direction decides:
 * delta = candidate − baseline, so a rise is an improvement, unless lower is better, when a rise is
 * the regression. Swapping baseline and candidate negates delta and keeps p, so it swaps `regressed`
 * and `improved`.
 */
export function verdictOf(n: number, delta: number | null, pValue: number | null, lowerIsBetter: boolean): Verdict {
  if (n < MIN_CASES || delta === null || pValue === null) return 'not enough data';
  if (!(pValue < ALPHA) || delta === 0) return 'no significant change';
  const rose = delta > 0;
  return rose !== lowerIsBetter ? 'improved' : 'regressed';
}

/**
 * Which way is worse for this comparison's delta. A pass/fail comparison's delta is the change in pass
 * rate, and more passes are better whichever way the scores run (a latency under its limit passes),
 * so `lower_is_better` turns only a paired t comparison of the scores themselves.
 */
function lowerIsBetter(input: ScorerPairedInput): boolean {
  return input.test === 'paired_t' && input.lower_is_better;
}

/**
 * Compares several scorers of two runs at once: Holm's adjustment over the scorers that have a test
 * (those with `not enough data` are not part of the family: they make no claim), then a verdict each.
 */
export function compareScorers(inputs: readonly ScorerPairedInput[]): ScorerComparison[] {
  const tested = inputs.map((input) => input.paired.delta.n >= MIN_CASES && input.paired.p_value_raw !== null);
  const family = inputs.flatMap((input, i) =>
    tested[i] === true && input.paired.p_value_raw !== null ? [input.paired.p_value_raw] : [],
  );
  const adjusted = holmAdjust(family);
  let next = 0;
  return inputs.map((input, i) => {
    const raw = input.paired.p_value_raw;
    const p_value = tested[i] === true ? (adjusted[next++] ?? null) : null;
    const comparison: ScorerComparison = {
      name: input.name,
      lower_is_better: input.lower_is_better,
      test: input.test,
      delta: input.paired.delta,
      p_value,
      p_value_raw: raw,
      verdict: verdictOf(input.paired.delta.n, input.paired.delta.mean, p_value, lowerIsBetter(input)),
    };
    return input.discordant === undefined
      ? comparison
      : { ...comparison, discordant: { regressed: input.discordant.regressed, fixed: input.discordant.fixed } };
  });
}
