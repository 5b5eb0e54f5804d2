import { normalQuantile } from './normal';
import { logGamma, regularizedBeta } from './special';

/**
 * Student's t distribution with df > 0 degrees of freedom (df need not be whole). The tails come from
 * the incomplete beta function, P(|T| > t) = I_{df/(df+t²)}(df/2, 1/2), so a small p-value keeps its
 * digits (relative error about 1e-12 for df up to 1e3, 1e-9 up to 1e6). The quantile solves the CDF by
 * safeguarded Newton steps from a normal-based start, to 1e-12 relative.
 */

/** P(|T| ≥ |t|): the two-sided tail, the paired t test's p-value. */
export function studentTTwoSidedTail(t: number, df: number): number {
  if (Number.isNaN(t) || !(df > 0)) return Number.NaN;
  if (!Number.isFinite(t)) return 0;
  return regularizedBeta(df / (df + t * t), df / 2, 0.5);
}

/** F(t) = P(T ≤ t). */
export function studentTCdf(t: number, df: number): number {
  const tail = studentTTwoSidedTail(t, df) / 2;
  return t < 0 ? tail : 1 - tail;
}

/** The density of T at t. */
export function studentTPdf(t: number, df: number): number {
  const logNorm = logGamma((df + 1) / 2) - logGamma(df / 2) - 0.5 * Math.log(df * Math.PI);
  return Math.exp(logNorm - ((df + 1) / 2) * Math.log1p((t * t) / df));
}

/** The t with F(t) = p. ±Infinity at 0 and 1, NaN outside [0, 1] or for df ≤ 0. */
export function studentTQuantile(p: number, df: number): number {
  if (!(p >= 0 && p <= 1) || !(df > 0)) return Number.NaN;
  if (p === 0) return Number.NEGATIVE_INFINITY;
  if (p === 1) return Number.POSITIVE_INFINITY;
  if (p === 0.5) return 0;
  // The limit of infinitely many degrees of freedom (the normal), where the tail formula has no value.
  if (df === Number.POSITIVE_INFINITY) return normalQuantile(p);
  if (p < 0.5) return -studentTQuantile(1 - p, df);
  // Upper half: the upper tail q = 1 − p is what Newton's steps compare against.
  const q = 1 - p;
  // Bracket [low, high] with tail(low) ≥ q ≥ tail(high); the t quantile is beyond the normal one.
  let low = 0;
  let high = Math.max(1, normalQuantile(p));
  while (upperTail(high, df) > q) {
    low = high;
    high *= 2;
  }
  let x = Math.min(Math.max(normalQuantile(p), low), high);
  for (let i = 0; i < 200; i++) {
    const error = upperTail(x, df) - q;
    if (error > 0) low = x;
    else high = x;
    // Newton: the tail falls with slope −pdf. Fall back to bisection when the step leaves the bracket.
    let next = x + error / studentTPdf(x, df);
    if (!(next > low && next < high)) next = (low + high) / 2;
    if (Math.abs(next - x) <= 1e-13 * Math.max(1, Math.abs(x))) return next;
    x = next;
  }
  return x;
}

function upperTail(t: number, df: number): number {
  return studentTTwoSidedTail(t, df) / 2;
}
