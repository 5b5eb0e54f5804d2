import type { ScorerVerdict } from '../result';

/**
 * Whether a verdict may be kept and given again: only a decided one (pass, fail or a measured
 * figure). Errors, timeouts, skipped results (no credentials, an untrusted workspace, a spent
 * budget) and inconclusive or unsupported answers may come out differently next time. A failure of
 * the scorer's own process — EvalCore's `scorer error: …` fails, EvalBench python_scorer's `FAIL: …`
 * fails — is a fail by protocol but says nothing about the case, so it is never kept either. An
 * itemized verdict is kept only when every one of its parts may be.
 */
export function isCacheable(verdict: ScorerVerdict): boolean {
  if (!decided(verdict)) return false;
  return verdict.parts === undefined || verdict.parts.every(decided);
}

const PROCESS_FAILURE = /^(scorer error: |FAIL: )/;

function decided(verdict: Omit<ScorerVerdict, 'parts'>): boolean {
  if (verdict.status !== 'pass' && verdict.status !== 'fail' && verdict.status !== 'measured') return false;
  return !(verdict.status === 'fail' && PROCESS_FAILURE.test(verdict.reason));
}
