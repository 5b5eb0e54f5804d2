import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RunEventMapper, expectedAndActual } from '../../extension/testing/runEventMapper';
import { caseEnd, lineRangeOf, result, runStart } from './events';
import { RecordingSink } from './recordingSink';

describe('RunEventMapper', () => {
  it('words a failing result with its scorer, score, threshold and reason, at the case line', () => {
    const sink = new RecordingSink();
    const mapper = new RunEventMapper(sink);
    mapper.handle(runStart());
    mapper.handle({ type: 'case/start', caseId: 'a', index: 0, range: lineRangeOf(4) });
    mapper.handle(caseEnd('a', 4, 'failed', [result('a', 'similarity', 'fail', { score: 0.4213, reason: 'too far from the expected text' }), result('a', 'contains', 'pass')]));
    const state = sink.states().get('a');
    assert.ok(state?.kind === 'failed');
    assert.equal(state.durationMs, 12.5);
    assert.deepEqual(state.messages, [{ text: 'similarity (score 0.421, threshold 0.6): too far from the expected text', location: { file: '/data/cases.jsonl', line: 4, column: 0 } }]);
  });

  it('errors a case with an error or timeout, and lists its failures too', () => {
    const sink = new RecordingSink();
    const mapper = new RunEventMapper(sink);
    mapper.handle(runStart());
    mapper.handle(caseEnd('b', 1, 'errored', [result('b', 'judge', 'timeout'), result('b', 'similarity', 'fail'), result('b', 'contains', 'pass')]));
    const state = sink.states().get('b');
    assert.ok(state?.kind === 'errored');
    assert.deepEqual(
      state.messages.map((m) => m.text),
      ['judge [timeout]: judge said timeout', 'similarity: similarity said fail'],
    );
  });

  it('names the trial when the run has several', () => {
    const sink = new RecordingSink();
    const mapper = new RunEventMapper(sink);
    mapper.handle(runStart(3));
    mapper.handle(caseEnd('c', 0, 'failed', [result('c', 'x', 'pass', { trial: 1 }), result('c', 'x', 'fail', { trial: 2 })]));
    const state = sink.states().get('c');
    assert.ok(state?.kind === 'failed');
    assert.equal(state.messages[0]?.text, 'x (trial 2): x said fail');
  });

  it('marks a case skipped when nothing decided, and keeps every reason in the output', () => {
    const sink = new RecordingSink();
    const mapper = new RunEventMapper(sink);
    mapper.handle(runStart());
    mapper.handle(caseEnd('d', 2, 'skipped', [result('d', 'judge', 'skipped', { reason: 'workspace is not trusted' })]));
    assert.equal(sink.states().get('d')?.kind, 'skipped');
    assert.equal(sink.outputOf('d'), '⊘ d · judge skipped: workspace is not trusted\n');
  });

  it('reports cases that started and never ended, and the summary of a stopped run', () => {
    const sink = new RecordingSink();
    const mapper = new RunEventMapper(sink);
    mapper.handle(runStart());
    mapper.handle({ type: 'case/start', caseId: 'e', index: 0, range: lineRangeOf(0) });
    mapper.handle({ type: 'case/start', caseId: 'f', index: 1, range: lineRangeOf(1) });
    mapper.handle(caseEnd('e', 0, 'passed', [result('e', 'x', 'pass')]));
    mapper.handle({ type: 'run/end', runId: 'run-1', finishedAt: '2026-01-01T00:00:01.000Z', durationMs: 1000, cancelled: true, summary: { passed: 1, failed: 0, errored: 0, skipped: 0, total: 1 } });
    assert.deepEqual(mapper.finish(), { runId: 'run-1', summary: { passed: 1, failed: 0, errored: 0, skipped: 0, total: 1 }, cancelled: true, unfinished: ['f'] });
  });

  it('makes a diff from details that hold both sides, as text or indented JSON, and none otherwise', () => {
    assert.deepEqual(expectedAndActual(result('a', 'x', 'fail', { details: { expected: 'a', actual: 'b' } })), { expected: 'a', actual: 'b' });
    assert.deepEqual(expectedAndActual(result('a', 'x', 'fail', { details: { expected: [1], actual: { k: 2 } } })), { expected: '[\n  1\n]', actual: '{\n  "k": 2\n}' });
    assert.equal(expectedAndActual(result('a', 'x', 'fail', { details: { expected: 'a' } })), undefined);
    assert.equal(expectedAndActual(result('a', 'x', 'fail')), undefined);
  });
});
