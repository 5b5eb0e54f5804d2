import type { CollectedRun } from './collectRun';

/**
 * A baseline file (`evallens baseline save`): a run reduced to what a later comparison needs, meant
 * to be committed next to its config. Deterministic and diff-friendly: cases sorted by id, one line
 * each, holding per scorer whether the case passed (null when no trial was decided) and its mean
 * score (null when none), and its fingerprint (input and expected hashed, when the run recorded it); no timings, no paths but the config's file name, no run id or dates, so a
 * pull request's diff shows exactly the cases that changed.
 */
export const BASELINE_FORMAT = 'evallens-baseline';
export const BASELINE_VERSION = 1;

export interface BaselineScorer {
  readonly name: string;
  readonly key: string;
  readonly lowerIsBetter: boolean;
  /** The top of a bounded scale, when known: comparisons clip intervals to it. */
  readonly max?: number;
}

/** The baseline's text from a collected run. */
export function baselineText(config: string, scorers: readonly BaselineScorer[], run: CollectedRun): string {
  const lines = [
    '{',
    `"format":${JSON.stringify(BASELINE_FORMAT)},`,
    `"version":${BASELINE_VERSION},`,
    `"config":${JSON.stringify(config)},`,
    '"scorers":[',
    ...scorers.map(
      (s, i) =>
        `${JSON.stringify({
          name: s.name,
          key: s.key,
          lowerIsBetter: s.lowerIsBetter,
          ...(s.max === undefined ? {} : { scale: { kind: 'bounded', max: s.max } }),
        })}${i < scorers.length - 1 ? ',' : ''}`,
    ),
    '],',
    '"cases":[',
  ];
  const ids = [...run.caseSlot.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const caseLines = ids.map((id) => {
    const slot = run.caseSlot.get(id) ?? 0;
    const scores: Record<string, { passed: boolean | null; score: number | null }> = {};
    scorers.forEach((s, i) => {
      const { sum, count } = run.scores(slot, i);
      scores[s.name] = { passed: run.passedScorer(slot, i) ?? null, score: count === 0 ? null : sum / count };
    });
    const fingerprint = run.fingerprint(slot);
    return JSON.stringify({
      id,
      ...(fingerprint === undefined ? {} : { fingerprint }),
      passed: run.casePassed(slot) === true,
      scorers: scores,
    });
  });
  return `${[...lines, caseLines.join(',\n')].filter((l) => l !== '').join('\n')}\n]\n}\n`;
}
