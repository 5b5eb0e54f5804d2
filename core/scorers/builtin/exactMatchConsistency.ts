import type { Json } from '../../case';
import { fail, pass } from '../../result';
import schema from '../../../schemas/scorers/exact_match_consistency.schema.json';
import { canonicalJson } from '../support/canonicalJson';
import { preparedAcrossTrials, type ScorerDefinition, type TrialInput } from '../scorer';

type PairScore = 0 | 100;
type How = 'compared' | 'filled';

/**
 * EvalBench's `exact_match_consistency`: trials of one case compared pairwise (adjacent pairs first,
 * the rest filled by transitivity where it decides), all-or-nothing over the pairs.
 */
export const exactMatchConsistency: ScorerDefinition = {
  key: 'exact_match_consistency',
  origin: 'EvalBench',
  scale: { kind: 'bounded', max: 100 },
  needs: ['output'],
  schema,
  acrossTrials: true,
  create() {
    return preparedAcrossTrials({
      scoreTrials(trials) {
        const n = trials.length;
        const matrix = pairMatrix(trials);
        const pairs: Json[] = [];
        let inconsistent = 0;
        for (let i = 0; i < n; i++) {
          for (let j = i + 1; j < n; j++) {
            const cell = matrix[i]?.[j];
            if (cell === undefined) continue;
            if (cell.score === 0) inconsistent++;
            pairs.push({ trials: [i + 1, j + 1], score: cell.score, decided: cell.how });
          }
        }
        const total = (n * (n - 1)) / 2;
        const details = { pairs, inconsistent_pairs: inconsistent };
        return inconsistent === 0
          ? pass(`all ${n} trials agree (${total} pair${total === 1 ? '' : 's'} consistent)`, 100, details)
          : fail(`${inconsistent} of ${total} trial pair${total === 1 ? '' : 's'} disagree; consistency is all or nothing`, 0, details);
      },
    });
  },
};

function pairMatrix(trials: readonly TrialInput[]): ({ score: PairScore; how: How } | undefined)[][] {
  const n = trials.length;
  const texts = trials.map((t) => (t.output === undefined ? undefined : canonicalJson(t.output)));
  const compare = (i: number, j: number): PairScore => {
    const a = trials[i];
    const b = trials[j];
    if (a?.error !== undefined || b?.error !== undefined) return a?.error === b?.error ? 100 : 0;
    return texts[i] !== undefined && texts[i] === texts[j] ? 100 : 0;
  };
  const matrix = Array.from({ length: n }, () => new Array<{ score: PairScore; how: How } | undefined>(n).fill(undefined));
  const set = (i: number, j: number, score: PairScore, how: How) => {
    const row = matrix[i];
    if (row !== undefined) row[j] = { score, how };
  };
  for (let i = 0; i + 1 < n; i++) set(i, i + 1, compare(i, i + 1), 'compared');
  for (let gap = 2; gap < n; gap++) {
    for (let i = 0; i + gap < n; i++) {
      const j = i + gap;
      let filled: PairScore | undefined;
      for (let k = i + 1; k < j && filled === undefined; k++) {
        const left = matrix[i]?.[k]?.score;
        const right = matrix[k]?.[j]?.score;
        if (left === 100 && right === 100) filled = 100;
        else if ((left === 100 && right === 0) || (left === 0 && right === 100)) filled = 0;
      }
      if (filled === undefined) set(i, j, compare(i, j), 'compared');
      else set(i, j, filled, 'filled');
    }
  }
  return matrix;
}
