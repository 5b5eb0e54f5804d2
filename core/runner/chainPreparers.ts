import type { CasePreparer } from './casePreparer';

/**
 * Several preparers as one, run in order on each case (a target's output first, then the NL2SQL
 * execution of it). The chain reaches whatever its most reaching member does, so a run without trust
 * skips the case before any of them runs. `close` closes every member, even when one fails.
 */
export function chainPreparers(preparers: readonly CasePreparer[]): CasePreparer | undefined {
  if (preparers.length <= 1) return preparers[0];
  const reaches = preparers.some((p) => p.reaches === 'network')
    ? 'network'
    : preparers.some((p) => p.reaches === 'workspace-code')
      ? 'workspace-code'
      : undefined;
  return {
    ...(reaches === undefined ? {} : { reaches }),
    reachesFor: (evalCase) => preparers.some((p) => p.reaches !== undefined && (p.reachesFor?.(evalCase) ?? true)),
    async prepare(evalCase, signal, trial) {
      let prepared = evalCase;
      for (const preparer of preparers) prepared = await preparer.prepare(prepared, signal, trial);
      return prepared;
    },
    async close() {
      const closed = await Promise.allSettled(preparers.map((p) => p.close()));
      const failed = closed.find((c): c is PromiseRejectedResult => c.status === 'rejected');
      if (failed !== undefined) throw failed.reason;
    },
  };
}
