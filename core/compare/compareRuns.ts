import {
  clipToRange,
  compareScorers,
  McNemarAccumulator,
  MeanAccumulator,
  PairedDifferenceAccumulator,
  type MeanSummary,
  type PairedTest,
  type ScorerPairedInput,
  type Verdict,
} from '../stats/index';
import type { CollectedRun } from './collectRun';

/** How one case moved between the baseline and the candidate (docs/compare.md). */
export type CaseTransition = 'regressed' | 'fixed' | 'unchanged_pass' | 'unchanged_fail' | 'added' | 'removed';

export const CASE_TRANSITIONS: readonly CaseTransition[] = [
  'regressed',
  'fixed',
  'unchanged_pass',
  'unchanged_fail',
  'added',
  'removed',
];

/** One side's mean, as the compare report shows it. */
export interface SideSummary {
  readonly mean: number | null;
  readonly stderr: number | null;
  readonly ci_low: number | null;
  readonly ci_high: number | null;
  readonly n: number;
}

export interface ScorerComparisonRow {
  readonly name: string;
  readonly lower_is_better: boolean;
  readonly test: PairedTest;
  /** What `baseline`, `candidate` and `delta` measure: the pass rate (pass/fail scorers) or the mean score. */
  readonly measure: 'pass_rate' | 'score';
  readonly baseline: SideSummary;
  readonly candidate: SideSummary;
  readonly delta: {
    readonly mean: number | null;
    readonly ci_low: number | null;
    readonly ci_high: number | null;
    readonly stderr: number | null;
    readonly mde: number | null;
    readonly n: number;
  };
  readonly p_value: number | null;
  readonly p_value_raw: number | null;
  readonly verdict: Verdict;
  readonly discordant?: { readonly regressed: number; readonly fixed: number };
}

export interface ScorerSide {
  readonly name: string;
  readonly lowerIsBetter: boolean;
  /** The top of a bounded scale (scores 0 to max), when the report says; intervals are clipped to it. */
  readonly max?: number;
}

export interface RunComparison {
  readonly scorers: readonly ScorerComparisonRow[];
  /** Scorers only one run has: listed, not compared. */
  readonly onlyInBaseline: readonly string[];
  readonly onlyInCandidate: readonly string[];
  readonly counts: Readonly<Record<CaseTransition, number>>;
  /** Shared cases whose fingerprint differs (input or expected changed): flagged, left out of the statistics. */
  readonly changed: number;
  /** Every case and how it moved: baseline's cases in their order, then the added ones. */
  cases(): Iterable<CaseMove>;
}

export interface CaseMove {
  readonly id: string;
  readonly transition: CaseTransition;
  /** Present (true) when a shared case's input or expected value changed: not compared. */
  readonly changed?: true;
}

/** One side's mean with its interval clipped to [0, max] when the scale is known (docs/statistics.md). */
function side(summary: MeanSummary, max: number | undefined): SideSummary {
  const { mean, stderr, ci_low, ci_high, n } = summary;
  return { mean, stderr, ...(max === undefined ? { ci_low, ci_high } : clipToRange(ci_low, ci_high, 0, max)), n };
}

/**
 * Compares two collected runs. Cases are matched by id; a case's `transition` comes from its status in
 * each run (passed, or not). Per scorer shared by name: a scorer with pass decisions is compared on
 * its per-case pass (exact McNemar), any other on its per-case mean score (paired t); all the
 * statistics are core/stats', adjusted together by Holm.
 */
export function compareRuns(
  baseline: CollectedRun,
  candidate: CollectedRun,
  baselineScorers: readonly ScorerSide[],
  candidateScorers: readonly ScorerSide[],
): RunComparison {
  const candidateNames = new Set(candidateScorers.map((s) => s.name));
  const baselineNames = new Set(baselineScorers.map((s) => s.name));
  const shared = baselineScorers.filter((s) => candidateNames.has(s.name));
  // Each baseline case's slot in the candidate (−1: removed), looked up once for all scorers. A shared
  // case whose fingerprint differs asked something else: its slot is −2, flagged and not paired.
  const partner = new Int32Array(baseline.caseCount).fill(-1);
  let changed = 0;
  for (const [id, slot] of baseline.caseSlot) {
    const other = candidate.caseSlot.get(id) ?? -1;
    const before = other === -1 ? undefined : baseline.fingerprint(slot);
    const after = before === undefined ? undefined : candidate.fingerprint(other);
    if (before !== undefined && after !== undefined && before !== after) {
      partner[slot] = -2;
      changed++;
    } else partner[slot] = other;
  }
  const inputs: ScorerPairedInput[] = [];
  const sides: { baseline: SideSummary; candidate: SideSummary; measure: 'pass_rate' | 'score'; max?: number }[] = [];
  for (const scorer of shared) {
    const b = baseline.scorers.indexOf(scorer.name);
    const c = candidate.scorers.indexOf(scorer.name);
    const passFail = baseline.hasPassDecision[b] === true || candidate.hasPassDecision[c] === true;
    const baseMean = new MeanAccumulator();
    const candMean = new MeanAccumulator();
    if (passFail) {
      const mcnemar = new McNemarAccumulator();
      for (let slot = 0; slot < partner.length; slot++) {
        const before = baseline.passedScorer(slot, b);
        if (before !== undefined) baseMean.addCase([before ? 1 : 0]);
        const other = partner[slot] ?? -1;
        const after = other < 0 ? undefined : candidate.passedScorer(other, c);
        if (before !== undefined && after !== undefined) mcnemar.addCase(before, after);
      }
      for (const slot of candidate.caseSlot.values()) {
        const after = candidate.passedScorer(slot, c);
        if (after !== undefined) candMean.addCase([after ? 1 : 0]);
      }
      const pairs = mcnemar.pairs();
      inputs.push({
        name: scorer.name,
        lower_is_better: scorer.lowerIsBetter,
        test: 'exact_mcnemar',
        paired: mcnemar.result(),
        discordant: pairs,
      });
      sides.push({
        baseline: side(baseMean.summary(1), 1),
        candidate: side(candMean.summary(1), 1),
        measure: 'pass_rate',
      });
    } else {
      const paired = new PairedDifferenceAccumulator();
      for (let slot = 0; slot < partner.length; slot++) {
        const before = baseline.scores(slot, b);
        if (before.count > 0) baseMean.addCase(trialsOf(before));
        const other = partner[slot] ?? -1;
        if (other < 0 || before.count === 0) continue;
        const after = candidate.scores(other, c);
        if (after.count > 0) paired.addDifference(after.sum / after.count - before.sum / before.count);
      }
      for (const slot of candidate.caseSlot.values()) {
        const after = candidate.scores(slot, c);
        if (after.count > 0) candMean.addCase(trialsOf(after));
      }
      inputs.push({
        name: scorer.name,
        lower_is_better: scorer.lowerIsBetter,
        test: 'paired_t',
        paired: paired.result(),
      });
      const max = scorer.max ?? candidateScorers.find((s) => s.name === scorer.name)?.max;
      sides.push({
        baseline: side(baseMean.summary(max), max),
        candidate: side(candMean.summary(max), max),
        measure: 'score',
        ...(max === undefined ? {} : { max }),
      });
    }
  }
  const compared = compareScorers(inputs);
  const scorers = compared.map((row, i): ScorerComparisonRow => {
    const s = sides[i] as (typeof sides)[number];
    const { mean, ci_low, ci_high, stderr, mde, n } = row.delta;
    // A difference of two scores on [0, max] lies within ±max (±1 for a pass rate).
    const range = s.measure === 'pass_rate' ? 1 : s.max;
    const interval = range === undefined ? { ci_low, ci_high } : clipToRange(ci_low, ci_high, -range, range);
    return {
      name: row.name,
      lower_is_better: row.lower_is_better,
      test: row.test,
      measure: s.measure,
      baseline: s.baseline,
      candidate: s.candidate,
      delta: { mean, ...interval, stderr, mde, n },
      p_value: row.p_value,
      p_value_raw: row.p_value_raw,
      verdict: row.verdict,
      ...(row.discordant === undefined ? {} : { discordant: row.discordant }),
    };
  });

  const counts: Record<CaseTransition, number> = {
    regressed: 0,
    fixed: 0,
    unchanged_pass: 0,
    unchanged_fail: 0,
    added: 0,
    removed: 0,
  };
  const cases = function* (): Iterable<CaseMove> {
    for (const [id, slot] of baseline.caseSlot) {
      const other = partner[slot] ?? -1;
      if (other === -2) {
        // Its transition still says how its status moved; `changed` says not to read it as a regression of the same question.
        const now = candidate.caseSlot.get(id) ?? 0;
        yield { id, transition: transitionOf(baseline.casePassed(slot), candidate.casePassed(now)), changed: true };
        continue;
      }
      yield {
        id,
        transition: other === -1 ? 'removed' : transitionOf(baseline.casePassed(slot), candidate.casePassed(other)),
      };
    }
    for (const id of candidate.caseSlot.keys()) if (!baseline.caseSlot.has(id)) yield { id, transition: 'added' };
  };
  for (const c of cases()) counts[c.transition]++;
  return {
    scorers,
    onlyInBaseline: baselineScorers.filter((s) => !candidateNames.has(s.name)).map((s) => s.name),
    onlyInCandidate: candidateScorers.filter((s) => !baselineNames.has(s.name)).map((s) => s.name),
    counts,
    changed,
    cases,
  };
}

/** A case's trials as MeanAccumulator takes them: the clustered standard error reads only their sum and count. */
function trialsOf(scores: { sum: number; count: number }): number[] {
  return new Array<number>(scores.count).fill(scores.sum / scores.count);
}

function transitionOf(before: boolean | undefined, after: boolean | undefined): CaseTransition {
  // A case the cases list does not give a status for (results only) counts as not passed.
  const b = before === true;
  const a = after === true;
  if (b && a) return 'unchanged_pass';
  if (!b && !a) return 'unchanged_fail';
  return b ? 'regressed' : 'fixed';
}
