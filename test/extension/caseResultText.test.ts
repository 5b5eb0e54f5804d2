import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CACHED_NOTE,
  caseOutputLines,
  OUTPUT_WIDTH,
  verdictMessage,
  verdictsOf,
  wrap,
} from '../../extension/testing/caseResultText';
import { result } from './events';

const SECRET_REASON = `no secrets found by the ${'detector '.repeat(30)}`;

describe('a case in the Test Results output', () => {
  it('is one line when it passes, whatever the scorers said, and counts what did not decide', () => {
    const results = [
      result('a', 'contains', 'pass'),
      result('a', 'secret_scan', 'pass', { reason: SECRET_REASON }),
      result('a', 'trace', 'unsupported'),
    ];
    assert.deepEqual(caseOutputLines({ caseId: 'a', status: 'passed', results, numTrials: 1 }), [
      '✓ a · 2 passed, 1 unsupported',
    ]);
  });

  it('says in one line which scorers the result cache answered, and in the message of a failing one', () => {
    const results = [
      result('c', 'contains', 'pass'),
      result('c', 'goal_completion', 'pass', { score: 100, cached: true }),
    ];
    assert.deepEqual(caseOutputLines({ caseId: 'c', status: 'passed', results, numTrials: 1 }), [
      '✓ c · 2 scorers passed',
      '    from the result cache: goal_completion',
    ]);
    const failing = [result('d', 'goal_completion', 'fail', { score: 0, cached: true })];
    const [verdict] = verdictsOf(failing);
    assert.ok(verdict !== undefined);
    assert.deepEqual(verdictMessage(verdict, 1).split('\n'), [
      'goal_completion failed · score 0',
      'goal_completion said fail',
      CACHED_NOTE,
    ]);
  });

  it('shows only the failing scorers of a failing case, with their reasons, trials folded', () => {
    const results = [1, 2, 3].flatMap((trial) => [
      result('b', 'secret_scan', 'pass', { trial, reason: SECRET_REASON }),
      result('b', 'tool_call_match', trial === 2 ? 'pass' : 'fail', {
        trial,
        score: 0,
        reason: 'the refund is over 200',
      }),
      result('b', 'similarity', trial === 3 ? 'fail' : 'pass', { trial, score: 0.4, reason: 'too far' }),
    ]);
    const lines = caseOutputLines({
      caseId: 'b',
      status: 'failed',
      results,
      numTrials: 3,
      trialsPassed: 1,
      thresholdOf: (s) => (s === 'similarity' ? 0.6 : undefined),
    });
    assert.deepEqual(lines, [
      '✗ b · 2 failed, 1 passed · 1/3 trials passed',
      '    ✗ tool_call_match failed in trials 1, 3 of 3 · score 0',
      '      the refund is over 200',
      '    ✗ similarity failed in trial 3 of 3 · score 0.4, threshold 0.6',
      '      too far',
    ]);
    assert.ok(!lines.join('\n').includes('detector'), "a passing scorer's reason is not written");
  });

  it('gives each trial its reason when the trials failed for different reasons', () => {
    const results = [1, 2].map((trial) =>
      result('c', 'judge', 'fail', { trial, reason: trial === 1 ? 'rude' : 'wrong amount' }),
    );
    assert.deepEqual(caseOutputLines({ caseId: 'c', status: 'failed', results, numTrials: 2 }).slice(1), [
      '    ✗ judge failed in all 2 trials',
      '      trial 1: rude',
      '      trial 2: wrong amount',
    ]);
  });

  it('says once per reason why scorers of a passing case were skipped', () => {
    const results = [
      result('f', 'exact_match', 'pass'),
      result('f', 'subprocess', 'skipped', { reason: 'not trusted' }),
      result('f', 'judge', 'skipped', { reason: 'not trusted' }),
    ];
    assert.deepEqual(caseOutputLines({ caseId: 'f', status: 'passed', results, numTrials: 1 }), [
      '✓ f · 1 passed, 2 skipped (subprocess, judge: not trusted)',
    ]);
  });

  it('says why a skipped case was skipped, once', () => {
    const results = [
      result('d', 'judge', 'skipped', { reason: 'workspace is not trusted' }),
      result('d', 'python', 'skipped', { reason: 'workspace is not trusted' }),
    ];
    assert.deepEqual(caseOutputLines({ caseId: 'd', status: 'skipped', results, numTrials: 1 }), [
      '⊘ d · skipped: workspace is not trusted',
    ]);
  });

  it('breaks long lines between words, never inside one', () => {
    const reason = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    const lines = caseOutputLines({
      caseId: 'e',
      status: 'failed',
      results: [result('e', 'judge', 'fail', { reason })],
      numTrials: 1,
    });
    for (const line of lines) assert.ok(line.length <= OUTPUT_WIDTH, `"${line}" is longer than ${OUTPUT_WIDTH}`);
    const words = lines.slice(2).join(' ').trim().split(/\s+/);
    assert.deepEqual(words, reason.split(' '));
    assert.ok(
      lines.slice(3).every((l) => l.startsWith('        ')),
      'continued lines sit under their text',
    );
  });

  it('cuts only a word longer than the whole line', () => {
    assert.deepEqual(wrap(`ab ${'x'.repeat(25)}`, '  ', 10), ['ab', '  xxxxxxxx', '  xxxxxxxx', '  xxxxxxxx', '  x']);
  });
});
