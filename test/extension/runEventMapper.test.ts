import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RunEventMapper } from '../../extension/testing/runEventMapper';
import { caseEnd, lineRangeOf, result, runStart } from './events';
import { RecordingSink } from './recordingSink';

describe('RunEventMapper', () => {
  it('words a failing result with its scorer, score, threshold and reason, at the case line', () => {
    const sink = new RecordingSink();
    const mapper = new RunEventMapper(sink);
    mapper.handle(runStart());
    mapper.handle({ type: 'case/start', caseId: 'a', index: 0, range: lineRangeOf(4) });
    mapper.handle(
      caseEnd('a', 4, 'failed', [
        result('a', 'similarity', 'fail', { score: 0.4213, reason: 'too far from the expected text' }),
        result('a', 'contains', 'pass'),
      ]),
    );
    const state = sink.states().get('a');
    assert.ok(state?.kind === 'failed');
    assert.equal(state.durationMs, 12.5);
    assert.deepEqual(state.messages, [
      {
        text: 'similarity failed · score 0.421, threshold 0.6\ntoo far from the expected text',
        location: { file: '/data/cases.jsonl', line: 4, column: 0 },
      },
    ]);
  });

  it('errors a case with an error or timeout, and lists its failures too', () => {
    const sink = new RecordingSink();
    const mapper = new RunEventMapper(sink);
    mapper.handle(runStart());
    mapper.handle(
      caseEnd('b', 1, 'errored', [
        result('b', 'judge', 'timeout'),
        result('b', 'similarity', 'fail'),
        result('b', 'contains', 'pass'),
      ]),
    );
    const state = sink.states().get('b');
    assert.ok(state?.kind === 'errored');
    assert.deepEqual(
      state.messages.map((m) => m.text),
      ['judge timed out\njudge said timeout', 'similarity failed\nsimilarity said fail'],
    );
  });

  it('names the failing trials when the run has several, in one message per scorer', () => {
    const sink = new RecordingSink();
    const mapper = new RunEventMapper(sink);
    mapper.handle(runStart(3));
    mapper.handle(
      caseEnd(
        'c',
        0,
        'failed',
        [1, 2, 3].map((trial) => result('c', 'x', trial === 1 ? 'pass' : 'fail', { trial })),
      ),
    );
    const state = sink.states().get('c');
    assert.ok(state?.kind === 'failed');
    assert.deepEqual(
      state.messages.map((m) => m.text),
      ['x failed in trials 2, 3 of 3\nx said fail'],
    );
  });

  it('calls a result across trials "across trials", puts it after the trials\' own, and does not repeat the header in the body', () => {
    const sink = new RecordingSink();
    const mapper = new RunEventMapper(sink);
    mapper.handle(runStart(3));
    const consistency = result('c', 'exact_match_consistency', 'fail', {
      trial: 0,
      score: 0,
      reason: '2 of 3 trial pairs disagree',
    });
    mapper.handle(
      caseEnd('c', 0, 'failed', [
        consistency,
        ...[1, 2, 3].map((trial) =>
          result('c', 'similarity', trial === 2 ? 'fail' : 'pass', {
            trial,
            score: trial === 2 ? 0.5 : 0.9,
            reason: 'too far',
          }),
        ),
      ]),
    );
    const state = sink.states().get('c');
    assert.ok(state?.kind === 'failed');
    assert.deepEqual(
      state.messages.map((m) => m.text),
      [
        'similarity failed in trial 2 of 3 · score 0.5, threshold 0.6\ntoo far',
        'exact_match_consistency (across trials) failed · score 0\n2 of 3 trial pairs disagree',
      ],
    );
    for (const message of state.messages) {
      const [header = '', ...body] = message.text.split('\n');
      assert.ok(!/trial 0/.test(message.text));
      for (const line of body)
        assert.ok(
          !line.includes(header.split(' ')[0] ?? header),
          `the body line "${line}" repeats the header "${header}"`,
        );
    }
    assert.match(sink.outputOf('c'), /exact_match_consistency \(across trials\) failed/);
  });

  it('writes a passing case as one line, with no reasons, however many scorers and trials', () => {
    const sink = new RecordingSink();
    const mapper = new RunEventMapper(sink);
    mapper.handle(runStart(3));
    const results = ['a', 'b', 'c', 'secret_scan'].flatMap((scorer) =>
      [1, 2, 3].map((trial) =>
        result('p', scorer, 'pass', { trial, reason: `${scorer} ${'long reason '.repeat(20)}` }),
      ),
    );
    mapper.handle({
      ...caseEnd('p', 0, 'passed', results),
      trials: { trials: 3, passed: 3, passRate: 1, passAtK: [1, 1, 1], passHatK: [1, 1, 1] },
    });
    assert.equal(sink.outputOf('p'), '✓ p · 4 scorers passed · 3/3 trials passed\n');
  });

  it('marks a case skipped when nothing decided, and keeps every reason in the output', () => {
    const sink = new RecordingSink();
    const mapper = new RunEventMapper(sink);
    mapper.handle(runStart());
    mapper.handle(
      caseEnd('d', 2, 'skipped', [result('d', 'judge', 'skipped', { reason: 'workspace is not trusted' })]),
    );
    assert.equal(sink.states().get('d')?.kind, 'skipped');
    assert.equal(sink.outputOf('d'), '⊘ d · skipped: workspace is not trusted\n');
  });

  it('reports cases that started and never ended, and the summary of a stopped run', () => {
    const sink = new RecordingSink();
    const mapper = new RunEventMapper(sink);
    mapper.handle(runStart());
    mapper.handle({ type: 'case/start', caseId: 'e', index: 0, range: lineRangeOf(0) });
    mapper.handle({ type: 'case/start', caseId: 'f', index: 1, range: lineRangeOf(1) });
    mapper.handle(caseEnd('e', 0, 'passed', [result('e', 'x', 'pass')]));
    mapper.handle({
      type: 'run/end',
      runId: 'run-1',
      finishedAt: '2026-01-01T00:00:01.000Z',
      durationMs: 1000,
      cancelled: true,
      summary: { passed: 1, failed: 0, errored: 0, skipped: 0, total: 1 },
    });
    assert.deepEqual(mapper.finish(), {
      runId: 'run-1',
      summary: { passed: 1, failed: 0, errored: 0, skipped: 0, total: 1 },
      cancelled: true,
      unfinished: ['f'],
    });
  });

  it('makes a diff only of like with like, by scorer kind, from the first failing trial', () => {
    const sink = new RecordingSink();
    const mapper = new RunEventMapper(sink);
    const start = runStart(2);
    mapper.handle({
      ...start,
      scorers: [
        ...start.scorers,
        {
          name: 'order',
          key: 'execution_order',
          origin: 'judgeval',
          scale: { kind: 'bounded', max: 1 },
          weight: 1,
          lowerIsBetter: false,
        },
        {
          name: 'same',
          key: 'exact_match',
          origin: 'EvalBook',
          scale: { kind: 'bounded', max: 1 },
          weight: 1,
          lowerIsBetter: false,
        },
      ],
    });
    mapper.handle(
      caseEnd('t', 0, 'failed', [
        result('t', 'order', 'pass', { trial: 1 }),
        result('t', 'order', 'fail', {
          trial: 2,
          details: { expected: ['lookup', 'refund'], called: ['refund'], mode: 'ordering' },
        }),
        result('t', 'same', 'fail', {
          trial: 1,
          details: { expected: '{"trajectory":["lookup"]}', actual: '{"action":"refund"}' },
        }),
      ]),
    );
    const state = sink.states().get('t');
    assert.ok(state?.kind === 'failed');
    assert.deepEqual(
      state.messages.map((m) => [m.expected, m.actual]),
      [
        ['lookup\nrefund', 'refund'],
        [undefined, undefined],
      ],
    );
  });
});
