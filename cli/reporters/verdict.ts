import type { Report } from '../../core/report/report';

export type RunVerdict = 'PASSED' | 'FAILED' | 'CANCELLED' | 'NOTHING SCORED';

/**
 * The run's verdict as the console prints it: CANCELLED when cancelled; FAILED when any case failed
 * or errored, or any scorer test or the job test failed; NOTHING SCORED when no case was scored at
 * all (every case skipped — no recording to score, every scorer left out or not trusted — or no case
 * selected): a run that scored nothing is never a pass; PASSED otherwise.
 */
export function runVerdict(head: Pick<Report, 'cancelled' | 'summary' | 'scorers' | 'job'>): RunVerdict {
  if (head.cancelled) return 'CANCELLED';
  const { passed, failed, errored } = head.summary;
  const testFailed = head.scorers.some((s) => s.test?.pass === false) || head.job.test?.pass === false;
  if (failed > 0 || errored > 0 || testFailed) return 'FAILED';
  return passed === 0 ? 'NOTHING SCORED' : 'PASSED';
}

/** The verdict as reports write it (`passed`, `failed`, `cancelled`, `nothing-scored`). */
export function verdictField(verdict: RunVerdict): 'passed' | 'failed' | 'cancelled' | 'nothing-scored' {
  switch (verdict) {
    case 'PASSED':
      return 'passed';
    case 'FAILED':
      return 'failed';
    case 'CANCELLED':
      return 'cancelled';
    case 'NOTHING SCORED':
      return 'nothing-scored';
  }
}
