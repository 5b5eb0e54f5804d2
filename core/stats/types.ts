/**
 * The statistics every report carries, named as issue 16 fixes them so that the JSON report, the
 * compare report, the console and the editor all read the same. A figure that cannot be computed
 * (a mean of no cases, a standard error of one) is `null`, never NaN, so it survives JSON.
 */

/** The mean of a scorer's scores with its standard error and 95% confidence interval. */
export interface MeanSummary {
  /** Cases (the clusters). */
  readonly n: number;
  /** Scores averaged: n × trials per case when every case has the same number of trials. */
  readonly observations: number;
  readonly mean: number | null;
  /** Standard error of the mean: cluster-robust (cases as clusters) when some case has several trials. */
  readonly stderr: number | null;
  readonly ci_low: number | null;
  readonly ci_high: number | null;
  /** Minimum detectable change of this mean between two runs like this one (80% power, α = 0.05 two-sided). */
  readonly mde: number | null;
  /** Whether the standard error is the clustered one (some case had more than one trial). */
  readonly clustered: boolean;
  /** The small-sample rule (docs/statistics.md): true when the interval is too wide to mean anything. */
  readonly too_wide: boolean;
}

/** A pass rate with its Wilson score interval. */
export interface PassRateSummary {
  readonly n: number;
  readonly passed: number;
  readonly pass_rate: number | null;
  readonly pass_rate_ci_low: number | null;
  readonly pass_rate_ci_high: number | null;
  readonly too_wide: boolean;
}

/** One case across its trials. */
export interface CaseTrialsSummary extends PassRateSummary {
  /** Some trials passed and some failed. */
  readonly flaky: boolean;
  /** The `min_pass_rate` rule: at least that share of the trials passed. */
  readonly passes: boolean;
}

/** candidate − baseline over the shared cases, with its paired standard error and 95% interval. */
export interface DeltaSummary {
  readonly n: number;
  readonly mean: number | null;
  readonly stderr: number | null;
  readonly ci_low: number | null;
  readonly ci_high: number | null;
  /** The smallest |delta| this paired comparison detects with 80% power at α = 0.05, two-sided. */
  readonly mde: number | null;
}

export type Verdict = 'regressed' | 'improved' | 'no significant change' | 'not enough data';

/** Which test gave a comparison's p-value. */
export type PairedTest = 'exact_mcnemar' | 'paired_t';

/** One scorer's comparison of two runs. */
export interface ScorerComparison {
  readonly name: string;
  readonly lower_is_better: boolean;
  readonly test: PairedTest;
  readonly delta: DeltaSummary;
  /** Holm-adjusted across the scorers compared together; null when the test could not be run. */
  readonly p_value: number | null;
  readonly p_value_raw: number | null;
  readonly verdict: Verdict;
  /** For pass/fail: cases that passed in the baseline and fail now, and the reverse. */
  readonly discordant?: { readonly regressed: number; readonly fixed: number };
}
