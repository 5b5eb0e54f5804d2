import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ScorerResult } from '../../core/result';
import {
  caseFields,
  detailEntries,
  expectedOutputDiff,
  jsonText,
  MAX_SHOWN_CHARS,
  shownText,
} from '../../webview/model/caseView';

describe('detail pane data', () => {
  it('shows strings as they are and other JSON indented', () => {
    assert.equal(jsonText('<img src=x onerror=alert(1)>'), '<img src=x onerror=alert(1)>');
    assert.equal(jsonText({ a: [1, 2] }), '{\n  "a": [\n    1,\n    2\n  ]\n}');
    assert.equal(jsonText(null), 'null');
    assert.equal(jsonText(undefined), '');
  });

  it("shows a recorded trial its own output and trace over the case's, and its error", () => {
    const data = {
      id: 'c',
      input: 'q',
      output: 'case output',
      expected: 'e',
      trace: ['search'],
      trials: [{ output: 'first' }, { error: 'timed out', trace: ['fetch'] }],
    };
    assert.deepEqual(caseFields(data, 1), { input: 'q', output: 'first', expected: 'e', trace: ['search'] });
    assert.deepEqual(caseFields(data, 2), {
      input: 'q',
      output: 'case output',
      expected: 'e',
      trace: ['fetch'],
      trialError: 'timed out',
      traceOfTrial: true,
    });
    assert.deepEqual(caseFields(data, 3), { input: 'q', output: 'case output', expected: 'e', trace: ['search'] });
    assert.deepEqual(caseFields({ id: 'bare' }, 1), {});
  });

  it('diffs expected against output only when the case has both', () => {
    const diff = expectedOutputDiff({ output: 'a b', expected: 'a c' });
    assert.ok(diff?.ok === true && diff.pieces.some((p) => p.kind === 'insert' && p.text === 'b'));
    assert.equal(expectedOutputDiff({ output: 'a' }), undefined);
  });

  it("compares like with like: no diff of an agent case's whole expected object with its whole output", () => {
    const agent = { expected: { trajectory: ['search', 'refund'] }, output: { text: 'done', tools: ['search'] } };
    assert.equal(expectedOutputDiff(agent), undefined);
    const trajectory: ScorerResult = {
      caseId: 'c',
      scorer: 'trajectory_matcher',
      trial: 1,
      status: 'fail',
      score: 0.5,
      reason: 'order',
      durationMs: 1,
      details: { expected: ['search', 'refund'], actual: ['search'] },
    };
    const diff = expectedOutputDiff(agent, trajectory, 'trajectory_matcher');
    assert.ok(diff?.ok === true);
    assert.ok(
      diff.pieces.some((p) => p.kind === 'delete' && p.text.includes('refund')),
      JSON.stringify(diff.pieces),
    );
    // A result without comparable sides falls back to nothing for objects (no whole-object diff).
    const judged: ScorerResult = { ...trajectory, scorer: 'goal_completion', details: { reasoning: 'partly' } };
    assert.equal(expectedOutputDiff(agent, judged, 'goal_completion'), undefined);
  });

  it("lists a result's details generically, judge reasoning first", () => {
    const result: ScorerResult = {
      caseId: 'c',
      scorer: 'judge',
      trial: 1,
      status: 'fail',
      score: 2,
      reason: 'the judge scored 2 of 5',
      durationMs: 1,
      details: {
        model: 'm',
        scores: { relevance: 2 },
        Reasoning: 'The answer cites a policy that does not exist and the refund window is wrong by two weeks.',
      },
    };
    assert.deepEqual(detailEntries(result), [
      {
        label: 'Reasoning',
        text: 'The answer cites a policy that does not exist and the refund window is wrong by two weeks.',
        block: true,
      },
      { label: 'model', text: 'm', block: false },
      { label: 'scores', text: '{\n  "relevance": 2\n}', block: true },
    ]);
    assert.deepEqual(detailEntries({ ...result, details: undefined } as unknown as ScorerResult), []);
  });
});

describe('a very long case field in the detail pane', () => {
  it('shows the first 200,000 characters of a 50 MB output and says how long it is', () => {
    const output = 'z'.repeat(50 * 1024 * 1024);
    assert.equal(
      shownText(output),
      `${'z'.repeat(MAX_SHOWN_CHARS)}\n… (${output.length} characters; the first ${MAX_SHOWN_CHARS} are shown)`,
    );
    assert.equal(shownText('short'), 'short');
    assert.equal(shownText({ a: 1 }), '{\n  "a": 1\n}');
  });
});
