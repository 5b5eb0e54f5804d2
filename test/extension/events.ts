/** Run events built by hand for the mapping rules the example runs do not reach (trials, timeouts, stops). */
import type { ScorerResult } from '../../core/result';
import type { SourceRange } from '../../core/text/position';
import type { CaseEndEvent, CaseStatus, RunStartEvent } from '../../protocol/runEvents';

export const DATASET = '/data/cases.jsonl';

export function lineRangeOf(line: number, file = DATASET): SourceRange {
  return { file, start: { offset: line * 100, line, column: 0 }, end: { offset: line * 100 + 50, line, column: 50 } };
}

export function runStart(numTrials = 1): RunStartEvent {
  return {
    type: 'run/start',
    runId: 'run-1',
    configFile: '/data/a.eval.yaml',
    startedAt: '2026-01-01T00:00:00.000Z',
    numTrials,
    scorers: [
      {
        name: 'similarity',
        key: 'edit_similarity',
        origin: 'EvalBook',
        scale: { kind: 'bounded', max: 1 },
        threshold: 0.6,
        weight: 1,
        lowerIsBetter: false,
      },
    ],
  };
}

export function result(
  caseId: string,
  scorer: string,
  status: ScorerResult['status'],
  extra: Partial<ScorerResult> = {},
): ScorerResult {
  return { caseId, scorer, trial: 1, status, reason: `${scorer} said ${status}`, durationMs: 1, ...extra };
}

export function caseEnd(
  caseId: string,
  line: number,
  status: CaseStatus,
  results: readonly ScorerResult[],
): CaseEndEvent {
  return { type: 'case/end', caseId, index: line, range: lineRangeOf(line), status, durationMs: 12.5, results };
}
