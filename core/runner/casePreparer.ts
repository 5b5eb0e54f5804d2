import type { EvalCase } from '../case';

/**
 * Work a run does on each case before its scorers see it: running a NL2SQL case's generated and
 * golden SQL on a database, later calling a target for an output. It returns the case with what it
 * added; a failure is thrown as an Error whose message a person can read (it becomes the case's
 * `error` results, never a crashed run).
 */
export interface CasePreparer {
  /** Set when preparing runs workspace code or calls a service (a target); a run without trust never calls it. */
  readonly reaches?: 'workspace-code' | 'network';
  /**
   * Whether preparing this case would reach out (a target leaves cases with a recorded output alone).
   * Absent: every case would. A run without trust still scores the cases that would not.
   */
  reachesFor?(evalCase: EvalCase): boolean;
  /** `trial` (1…n) is the trial the case is prepared for: a target's answer is kept per trial (core/cache/targetCache.ts). */
  prepare(evalCase: EvalCase, signal: AbortSignal, trial?: number): Promise<EvalCase>;
  close(): Promise<void>;
}
