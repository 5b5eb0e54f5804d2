import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { estimateText, parsePlan } from '../../extension/runner/plan';
import { runProgressText } from '../../extension/runProgressText';
import { runDecision } from '../../extension/testing/runDecision';

const plan = {
  cases: 3,
  trials: 1,
  judgeCalls: 9,
  scorers: [{ name: 'goal_completion', key: 'goal_completion', reaches: 'network', judgeCalls: 9 }],
  target: false,
  reaches: [],
};

describe("the run confirmation's estimate", () => {
  it('reads the estimate of `evallens plan --json` and says it in the confirmation', () => {
    const answer = parsePlan(
      JSON.stringify({ ...plan, estimate: { inputTokens: 1340, outputTokens: 3600, cost: 0.002361, unpriced: [] } }),
    );
    assert.ok(answer.ok);
    const decision = runDecision(
      {
        configName: 'a.eval.yaml',
        fromSave: false,
        trusted: true,
        costlyScorersOnSave: false,
        confirmJudgeCallsAbove: 5,
      },
      undefined,
      answer.plan,
    );
    assert.equal(decision.kind, 'confirm');
    assert.match(
      decision.kind === 'confirm' ? decision.detail : '',
      /^Estimated: about 1,340 prompt tokens and at most 3,600 answer tokens, costing up to about 0\.0024 at the model configs' prices\.\n\nRuns that need more than 5/,
    );
  });

  it('says there is no cost figure without prices, and a plan without an estimate stands as before', () => {
    assert.equal(
      estimateText({ inputTokens: 10, outputTokens: 20, unpriced: ['goal_completion'] }),
      'Estimated: about 10 prompt tokens and at most 20 answer tokens; no cost figure (goal_completion: no price_per_million_* in the model config).',
    );
    const older = parsePlan(JSON.stringify(plan));
    assert.ok(older.ok && older.plan.estimate === undefined);
    const bad = parsePlan(JSON.stringify({ ...plan, estimate: { inputTokens: -1 } }));
    assert.ok(bad.ok && bad.plan.estimate === undefined);
  });
});

describe("the status bar's progress", () => {
  it('shows cases done of the total and the failures so far', () => {
    assert.deepEqual(runProgressText({ config: 'a.eval.yaml', done: 12, total: 40, failed: 2, errored: 1 }), {
      text: '$(sync~spin) EvalLens 12/40 $(error) 3',
      tooltip: 'Running a.eval.yaml: 12 of 40 cases done, 2 failed, 1 errored',
    });
    assert.deepEqual(runProgressText({ config: 'a.eval.yaml', done: 1, total: undefined, failed: 0, errored: 0 }), {
      text: '$(sync~spin) EvalLens 1',
      tooltip: 'Running a.eval.yaml: 1 case done',
    });
  });
});
