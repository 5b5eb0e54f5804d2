import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CaseEndEvent, RunEvent } from '../../../core/runner/events';
import { join } from 'node:path';
import { SAMPLE_CWD, SAMPLE_HEAD, sampleEvents, sampleSource, sourceFrom } from '../../support/sampleRun';
import { assertGolden, runReporter } from './harness';

describe('console reporter', () => {
  it('matches the golden output', async () => {
    assertGolden('three-cases.console.txt', await runReporter('console'));
  });

  it('summarises the sample run as 1 passed, 1 failed, 1 errored, 3 total, then FAILED', async () => {
    const lines = (await runReporter('console')).split('\n');
    assert.ok(lines.includes('1 passed, 1 failed, 1 errored, 3 total'));
    assert.deepEqual(lines.slice(-3), ['', 'FAILED', '']);
  });

  it('keeps the seed wording when nothing errored or was skipped', async () => {
    const events = sampleEvents().filter((e) => !(e.type === 'case/end' && e.status === 'errored'));
    const head = {
      ...SAMPLE_HEAD,
      scorers: [],
      job: {},
      summary: { passed: 1, failed: 1, errored: 0, skipped: 0, total: 2 },
    };
    const text = await runReporter('console', { events, source: sourceFrom(head, events) });
    assert.match(text, /\n\n1 passed, 1 failed, 2 total\n\nFAILED\n$/);
  });

  it('points an errored case at its 1-based location, relative to the working folder', async () => {
    const text = await runReporter('console');
    assert.match(
      text,
      /^ERROR broken \(31ms\)\n {5}exact_match: .*\n {5}keywords: no answer within 30 ms\n {5}at evals\/support\.jsonl:3:1$/m,
    );
  });

  it('prints reasons but never details', async () => {
    const text = await runReporter('console');
    assert.doesNotMatch(text, /We never refund|Refunds within 30 days/);
  });

  it('marks trials only when there are several, and shows skipped cases, counts and CANCELLED', async () => {
    const events: RunEvent[] = sampleEvents().map((e) => (e.type === 'run/start' ? { ...e, numTrials: 2 } : e));
    const failed = events.find((e): e is CaseEndEvent => e.type === 'case/end' && e.status === 'failed');
    assert.ok(failed);
    events.push({ ...failed, caseId: 'later', status: 'skipped', results: [] });
    const head = {
      ...SAMPLE_HEAD,
      numTrials: 2,
      cancelled: true,
      summary: { passed: 1, failed: 1, errored: 1, skipped: 1, total: 4 },
    };
    const text = await runReporter('console', { events, source: sourceFrom(head, events) });
    assert.match(text, /^ {5}exact_match \[trial 1\]: texts differ at character 1$/m);
    assert.match(text, /^SKIP later$/m);
    assert.match(text, /\n1 passed, 1 failed, 1 errored, 1 skipped, 4 total\n\nCANCELLED\n$/);
  });

  it('calls a result across trials "across trials", never trial 0, with one trial or several', async () => {
    for (const numTrials of [1, 3]) {
      const events: RunEvent[] = sampleEvents().map((e) => {
        if (e.type === 'run/start') return { ...e, numTrials };
        if (e.type !== 'case/end' || e.status !== 'failed') return e;
        const first = e.results[0];
        assert.ok(first);
        return {
          ...e,
          results: [
            ...e.results,
            { ...first, scorer: 'exact_match_consistency', trial: 0, status: 'fail', reason: 'trials disagree' },
          ],
        };
      });
      const text = await runReporter('console', { events });
      assert.match(text, /^ {5}exact_match_consistency \[across trials\]: trials disagree$/m);
      assert.doesNotMatch(text, /trial 0/);
    }
  });

  it('says PASSED when every case and test passed', async () => {
    const events = sampleEvents().filter((e) => e.type !== 'case/end' || e.status === 'passed');
    const head = { ...SAMPLE_HEAD, scorers: [], summary: { passed: 1, failed: 0, errored: 0, skipped: 0, total: 1 } };
    assert.match(
      await runReporter('console', { events, source: sourceFrom(head, events) }),
      /\n1 passed, 0 failed, 1 total\n\nPASSED\n$/,
    );
  });

  it('colours only when asked, and never lets control characters from data reach the terminal', async () => {
    const plain = await runReporter('console');
    assert.doesNotMatch(plain, /\u001b/);
    const events = sampleEvents().map((e) =>
      e.type === 'case/end' && e.status === 'passed' ? { ...e, caseId: 'evil\u001b[2J' } : e,
    );
    const coloured = await runReporter('console', { color: true, events });
    assert.match(coloured, /^\u001b\[32mPASS\u001b\[39m evil\\x1b\[2J \(4ms\)$/m);
    assert.match(coloured, /^\u001b\[31mFAIL\u001b\[39m ungrounded/m);
    assert.match(coloured, /\u001b\[31mFAILED\u001b\[39m\n$/);
  });

  it('prints cases in dataset order, however they finish (a persistent subprocess answers in batches; issue 13, item 18)', async () => {
    const events = sampleEvents();
    const ends = events.filter((e) => e.type === 'case/end');
    const others = events.filter((e) => e.type !== 'case/end' && e.type !== 'run/end');
    const runEnd = events.filter((e) => e.type === 'run/end');
    // Every case starts in order, then they end last first.
    const text = await runReporter('console', { events: [...others, ...[...ends].reverse(), ...runEnd] });
    const printed = text
      .split('\n')
      .filter((line) => /^(PASS|FAIL|ERROR|SKIP) /.test(line))
      .map((line) => line.split(' ')[1]);
    assert.deepEqual(
      printed,
      ends.map((e) => (e.type === 'case/end' ? e.caseId : '')),
    );
  });

  it('says where the report is, at the end (issue 13, item 18)', async () => {
    const text = await runReporter('console', {
      source: { ...sampleSource(), file: join(SAMPLE_CWD, '.evallens', 'runs', 'r1', 'report.json') },
    });
    assert.match(text, /\nreport: \.evallens\/runs\/r1\/report\.json\n\n(PASSED|FAILED)\n$/);
  });
});
