import type { EvalhubJobTest } from './types';

/** One benchmark's part in the job score: its test's primary score, its weight and direction. */
export interface JobContribution {
  readonly primaryScore: number;
  readonly weight: number;
  readonly lowerIsBetter: boolean;
}

/** EvalHub's job threshold when neither the request nor the collection sets one. */
export const EVALHUB_DEFAULT_JOB_THRESHOLD = 0.5;

/**
 * A running EvalHub job score (seed 003, "How the job-level test is calculated"): Σ wᵢ·sᵢ / Σ wᵢ over
 * the benchmarks that have a test, sᵢ inverted to 1 − sᵢ for lower_is_better whatever the metric's
 * scale (as EvalHub does), a missing or 0 weight counted as 1. Benchmarks without a test are never
 * added. No weight at all: no job test. Arithmetic is float64 (EvalHub stores float32).
 */
export class JobScore {
  private weighted = 0;
  private weights = 0;

  add(contribution: JobContribution): void {
    const weight = contribution.weight > 0 ? contribution.weight : 1;
    const score = contribution.lowerIsBetter ? 1 - contribution.primaryScore : contribution.primaryScore;
    this.weighted += weight * score;
    this.weights += weight;
  }

  /** The summed parts, for a caller that merges them with other figures. */
  sums(): { readonly weighted: number; readonly weights: number } {
    return { weighted: this.weighted, weights: this.weights };
  }

  test(threshold: number): EvalhubJobTest | undefined {
    if (this.weights === 0) return undefined;
    const score = this.weighted / this.weights;
    return { score, threshold, pass: score >= threshold };
  }
}

/** The job score of whole contributions at once. */
export function jobTest(contributions: readonly JobContribution[], threshold: number): EvalhubJobTest | undefined {
  const job = new JobScore();
  for (const c of contributions) job.add(c);
  return job.test(threshold);
}

/** The job threshold by EvalHub's precedence: the request's, then the collection's, then 0.5. */
export function jobThreshold(request: number | undefined, collection: number | undefined): number {
  return request ?? collection ?? EVALHUB_DEFAULT_JOB_THRESHOLD;
}
