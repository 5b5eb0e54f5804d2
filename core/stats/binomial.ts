import { regularizedBeta } from './special';

/**
 * The binomial distribution's lower tail P(X ≤ k) for X ~ Binomial(n, p), through the identity
 * P(X ≤ k) = I_{1−p}(n − k, k + 1) (Abramowitz & Stegun 26.5.24), so a tail of 100,000 trials costs a
 * continued fraction of a few hundred steps, not a sum of 100,000 terms. Relative error about 1e-12
 * for n up to 1e3 and 1e-9 up to 1e6 (see special.ts).
 */
export function binomialCdf(k: number, n: number, p: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  return regularizedBeta(1 - p, n - k, k + 1);
}

/**
 * The exact two-sided binomial test of p = 1/2 (the exact McNemar test on discordant pairs):
 * P = min(1, 2·P(X ≤ min(k, n − k))). With p = 1/2 the distribution is symmetric, so doubling the
 * smaller tail equals R's `binom.test` rule (sum the outcomes no likelier than the one seen).
 */
export function binomialTestHalf(k: number, n: number): number {
  if (n === 0) return 1;
  return Math.min(1, 2 * binomialCdf(Math.min(k, n - k), n, 0.5));
}
