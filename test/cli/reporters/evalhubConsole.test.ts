import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ScorerResult } from '../../../core/result';
import type { CaseEndEvent, RunEvent } from '../../../core/runner/events';
import { SAMPLE_HEAD, sampleEvents, sourceFrom } from '../../support/sampleRun';
import { runReporter } from './harness';

/** A run whose later case was left without a test by its primary metric (EvalHub's rule). */
function withUntested(): { events: RunEvent[]; text: Promise<string> } {
  const events = sampleEvents().filter((e) => e.type !== 'run/end');
  const failed = events.find((e): e is CaseEndEvent => e.type === 'case/end' && e.status === 'failed');
  assert.ok(failed);
  const untested: ScorerResult = {
    caseId: 'later',
    scorer: 'exact_match',
    trial: 1,
    status: 'inconclusive',
    reason: 'no test: the primary metric "acc" is a numeric-looking string; left out of the job score (ok)',
    durationMs: 1,
    metrics: { acc: '0.78' },
  };
  events.push({ type: 'result', result: untested });
  events.push({ ...failed, caseId: 'later', index: 3, status: 'skipped', results: [untested] });
  const head = { ...SAMPLE_HEAD, summary: { passed: 1, failed: 1, errored: 1, skipped: 1, total: 4 } };
  return { events, text: runReporter('console', { events, source: sourceFrom(head, events) }) };
}

describe('console reporter: results without a test are never silent', () => {
  it('shows the reason under the skipped case, and says in the summary how many results have no test', async () => {
    const text = await withUntested().text;
    assert.match(text, /^SKIP later\n {5}exact_match: no test: the primary metric "acc" is a numeric-looking string/m);
    assert.match(
      text,
      /^exact_match: 1 result has no test \(its primary metric is missing or not a number\) and no score$/m,
    );
  });
});
