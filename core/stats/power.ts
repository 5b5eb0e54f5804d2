import { normalQuantile } from './normal';
import { ALPHA, POWER } from './rules';
import { studentTQuantile } from './studentT';

/**
 * The minimum detectable effect (Bloom 1995, "Minimum Detectable Effects", Evaluation Review 19(5)):
 * the smallest true change a two-sided test at level α finds with the given power is
 * MDE = (q(1 − α/2) + q(power)) × SE, with q the quantile of the test's reference distribution:
 * Student's t with `df` degrees of freedom, the normal when df is infinite. For α = 0.05 and 80% power
 * the normal multiplier is 1.95996 + 0.84162 = 2.80158 (Miller 2024's power-analysis section uses the same sum of z quantiles).
 */
export function mdeMultiplier(df: number): number {
  if (!Number.isFinite(df)) return normalQuantile(1 - ALPHA / 2) + normalQuantile(POWER);
  return studentTQuantile(1 - ALPHA / 2, df) + studentTQuantile(POWER, df);
}

/** MDE from a standard error (of a mean, or of a paired difference) and its degrees of freedom. */
export function minimumDetectableEffect(stderr: number | null, df: number): number | null {
  if (stderr === null || !(df > 0)) return null;
  return mdeMultiplier(df) * stderr;
}
