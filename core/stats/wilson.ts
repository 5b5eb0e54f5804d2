import { normalQuantile } from './normal';
import { ALPHA } from './rules';

/** z for the default level, computed once: the interval is taken per case with trials, 100,000s of times. */
const Z_DEFAULT = normalQuantile(1 - ALPHA / 2);

/**
 * Wilson's score interval for a proportion (Wilson 1927, JASA 22:209–212): the set of p whose score
 * test at level α does not reject k successes in n,
 *   centre = (p̂ + z²/2n) / (1 + z²/n),  half-width = z/(1 + z²/n) · √(p̂(1−p̂)/n + z²/4n²).
 * Chosen over the Wald interval p̂ ± z√(p̂(1−p̂)/n), whose coverage collapses near 0 and 1 and at
 * small n (Brown, Cai & DasGupta 2001, Statistical Science 16(2):101–133, who recommend Wilson).
 * Always within [0, 1], and never of zero width at p̂ = 0 or 1 (unlike Wald).
 */
export function wilsonInterval(
  successes: number,
  n: number,
  alpha: number = ALPHA,
): { readonly low: number; readonly high: number } | null {
  if (!(n > 0) || successes < 0 || successes > n) return null;
  const z = alpha === ALPHA ? Z_DEFAULT : normalQuantile(1 - alpha / 2);
  const z2n = (z * z) / n;
  const p = successes / n;
  const centre = (p + z2n / 2) / (1 + z2n);
  const half = (z / (1 + z2n)) * Math.sqrt((p * (1 - p)) / n + z2n / (4 * n));
  // At p̂ = 0 the low end is 0 exactly (and the high end 1 at p̂ = 1); rounding must not push it out.
  return {
    low: successes === 0 ? 0 : Math.max(0, centre - half),
    high: successes === n ? 1 : Math.min(1, centre + half),
  };
}
