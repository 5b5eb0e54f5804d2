/**
 * Thresholds checked against the scales they act on, when the config loads. A scorer's `threshold`
 * is a pass mark on that scorer's native scale (ScorerDefinition.scale: 0–1, EvalBench's 0–100, or a
 * count with no maximum), and `pass_criteria.threshold` is one on the job score's 0–1 scale. A mark
 * off its scale would be accepted, then contradict itself in the summary (a 0–1 scorer "failing" at
 * 80 with every case passed), so it is an error; a `pass_criteria.threshold` with no job score to
 * test (no scorer on a bounded scale has a threshold) silently does nothing, so it is a warning.
 */
import type { Problem } from '../problem';
import type { ScoreScale, ScorerDefinition } from '../scorers/scorer';
import type { ScorerInstance } from './runConfig';
import type { YamlSource } from './yamlSource';

/** The job score is a weighted mean of normalized scores: 0 to 1. */
const JOB_SCALE: ScoreScale = { kind: 'bounded', max: 1 };

/** Why `threshold` is off the scorer's scale, or undefined when it is on it. */
export function thresholdOffScale(definition: ScorerDefinition, threshold: number): string | undefined {
  if (onScale(definition.scale, threshold)) return undefined;
  const { key, scale } = definition;
  if (scale.kind === 'count') return `${key}: the threshold must be 0 or more: ${key} counts ${scale.unit}`;
  const evalbench = scale.max === 100 ? " (EvalBench's scale)" : '';
  return `${key}: the threshold must lie between 0 and ${scale.max}: ${key} scores from 0 to ${scale.max}${evalbench}${hint(scale, threshold)}`;
}

/**
 * Problems of `pass_criteria.threshold`: off the 0–1 scale (an error), or with no job score to test
 * (a warning; `scorers` undefined when some entry did not load, so whether one would exist is unknown).
 */
export function passCriteriaProblems(
  source: YamlSource,
  data: Record<string, unknown>,
  scorers: readonly ScorerInstance[] | undefined,
): Problem[] {
  const criteria = data['pass_criteria'];
  if (criteria === null || typeof criteria !== 'object') return [];
  const threshold = (criteria as { threshold?: unknown }).threshold;
  if (typeof threshold !== 'number') return [];
  if (!onScale(JOB_SCALE, threshold)) {
    return [
      {
        code: 'threshold-off-scale',
        severity: 'error',
        message: `pass_criteria.threshold must lie between 0 and 1: the job score is the weighted mean of the scorers' scores normalized to 0 to 1${hint(JOB_SCALE, threshold)}`,
        range: source.valueRange(['pass_criteria', 'threshold']),
      },
    ];
  }
  if (scorers === undefined) return [];
  const tested = scorers.some(
    (s) => s.definition.jobScoreByCase === true || (s.threshold !== undefined && s.definition.scale.kind === 'bounded'),
  );
  if (tested) return [];
  return [
    {
      code: 'pass-criteria-unused',
      severity: 'warning',
      message:
        'pass_criteria.threshold does nothing: no scorer has a threshold on a 0–1 or 0–100 scale, so there is no job score to test (counts stay out of it); give a scorer a `threshold`, or remove pass_criteria',
      range: source.keyRange(['pass_criteria', 'threshold']),
    },
  ];
}

function onScale(scale: ScoreScale, threshold: number): boolean {
  return threshold >= 0 && (scale.kind === 'count' || threshold <= scale.max);
}

/** For a percentage written on a 0–1 scale, the number that was probably meant (`threshold: 80` → 0.8). */
function hint(scale: ScoreScale, threshold: number): string {
  if (scale.kind === 'bounded' && scale.max === 1 && threshold > 1 && threshold <= 100)
    return ` (for ${threshold}%, write ${threshold / 100})`;
  return '';
}
