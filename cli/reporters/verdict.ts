import type { Report } from '../../core/report/report';

export type RunVerdict = 'PASSED' | 'FAILED' | 'CANCELLED';

/**
 * The run's verdict as the console prints it: CANCELLED when cancelled; FAILED when any case failed
 * or errored, or any scorer test or the job test failed; PASSED otherwise.
 */
export function runVerdict(head: Pick<Report, 'cancelled' | 'summary' | 'scorers' | 'job'>): RunVerdict {
  if (head.cancelled) return 'CANCELLED';
  const { failed, errored } = head.summary;
  const testFailed = head.scorers.some((s) => s.test?.pass === false) || head.job.test?.pass === false;
  return failed > 0 || errored > 0 || testFailed ? 'FAILED' : 'PASSED';
}
