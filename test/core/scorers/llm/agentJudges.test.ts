import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { configYaml, judgeFixture, loadConfig, runConfig, SECRET_KEY, type JudgeFixture } from './judgeHarness';

const trace = {
  steps: [
    { type: 'message', role: 'user', content: 'Cancel order 42 and refund it' },
    { type: 'tool_call', name: 'shop__cancel_order', arguments: { order_id: 42 }, result: { ok: true } },
    { type: 'message', role: 'assistant', content: 'Order 42 is cancelled; the refund is on its way.' },
  ],
};
const scenario = {
  id: 's1',
  input: 'Cancel order 42',
  output: 'done',
  trace,
  metadata: {
    conversation_plan: 'Ask the agent to cancel order 42 and refund it.',
    binary_rubric: ['Cancels the order', 'Confirms the refund'],
  },
};

describe('agent LLM judges against the OpenAI protocol test double', () => {
  let fixture: JudgeFixture;
  before(async () => {
    fixture = await judgeFixture();
  });
  after(async () => {
    await fixture.close();
  });
  beforeEach(() => {
    fixture.server.requests.length = 0;
  });

  it('goal_completion: PASS is 100, the prompt holds the plan and the conversation, tool calls only with include_tool_calls', async () => {
    fixture.server.enqueue({
      text: '{"verdict": "PASS", "sub_goals": [{"goal": "cancel", "met": true, "reasoning": "r"}], "summary": "done"}',
    });
    fixture.server.enqueue({ text: '```json\n{"verdict": "FAIL", "sub_goals": [], "summary": "no"}\n```' });
    const config = loadConfig(
      fixture.dir,
      configYaml(
        '  - type: goal_completion\n    model_config: judge.yaml\n  - type: goal_completion\n    name: with_tools\n    model_config: judge.yaml\n    include_tool_calls: true',
        [scenario],
      ),
    );
    const { results } = await runConfig(config);
    assert.deepEqual(
      results.map((r) => [r.scorer, r.status, r.score]),
      [
        ['goal_completion', 'pass', 100],
        ['with_tools', 'fail', 0],
      ],
    );
    assert.match(results[0]?.reason ?? '', /1 of 1 sub-goal met/);
    const [plain, withTools] = fixture.server.requests;
    assert.match(plain?.prompt ?? '', /Ask the agent to cancel order 42 and refund it\./);
    assert.match(plain?.prompt ?? '', /assistant: Order 42 is cancelled/);
    assert.doesNotMatch(plain?.prompt ?? '', /shop__cancel_order/);
    assert.match(withTools?.prompt ?? '', /\[tool call\] shop__cancel_order\(\{"order_id":42\}\) → \{"ok":true\}/);
    assert.equal(plain?.path, '/v1/chat/completions');
    assert.equal(plain?.headers['authorization'], `Bearer ${SECRET_KEY}`);
    assert.deepEqual((plain?.body as { model: string; temperature: number }).model, 'test-judge');
  });

  it('behavioral_metrics: 100 − 50 per hallucination − 20 per unnecessary clarification', async () => {
    fixture.server.enqueue({
      text: 'Here is my review.\n{"hallucinations": 1, "unnecessary_clarifications": 1, "explanation": "x"}\nThanks!',
    });
    const { results } = await runConfig(
      loadConfig(fixture.dir, configYaml('  behavioral_metrics: {model_config: judge.yaml}', [scenario])),
    );
    assert.equal(results[0]?.score, 30);
    assert.equal(results[0]?.status, 'fail');
    assert.deepEqual(
      [results[0]?.details?.['hallucinations'], results[0]?.details?.['unnecessary_clarifications']],
      [1, 1],
    );
  });

  it('parameter_analysis always scores 100 with the feedback in details, and sees every tool call with its arguments', async () => {
    fixture.server.enqueue({
      text: '{"calls": [{"call": 1, "tool": "shop__cancel_order", "assessment": "appropriate", "feedback": "ok"}], "summary": "fine"}',
    });
    const { results } = await runConfig(
      loadConfig(
        fixture.dir,
        configYaml('  parameter_analysis: {model_config: judge.yaml}', [
          scenario,
          { id: 'no-tools', output: 'x', trace: { steps: [] } },
        ]),
      ),
    );
    assert.deepEqual(
      results.map((r) => [r.caseId, r.status, r.score]),
      [
        ['s1', 'pass', 100],
        ['no-tools', 'unsupported', undefined],
      ],
    );
    assert.equal(results[0]?.details?.['summary'], 'fine');
    assert.match(fixture.server.requests[0]?.prompt ?? '', /1\. shop__cancel_order\(\{"order_id":42\}\)/);
    assert.equal(fixture.server.requests.length, 1, 'no judge call for a trace without tool calls');
  });

  it('binary_rubric_scorer: one result per rubric item, binary_rubric_scorer_<i>, each with its own aggregate; no rubric is one unindexed unsupported result', async () => {
    fixture.server.enqueue(
      { text: '{"verdict": "PASS", "reason": "cancelled"}' },
      { text: '{"verdict": "FAIL", "reason": "no refund"}' },
      { text: '{"verdict": "PASS", "reason": "ok"}' },
      { text: '{"verdict": "PASS", "reason": "ok"}' },
    );
    const second = { ...scenario, id: 's2' };
    const none = { id: 's3', output: 'x', trace };
    const { results, outcome, events } = await runConfig(
      loadConfig(
        fixture.dir,
        configYaml('  binary_rubric_scorer: {model_config: judge.yaml}', [scenario, second, none]),
      ),
    );
    assert.deepEqual(
      results.map((r) => `${r.caseId} ${r.scorer} ${r.status}`),
      [
        's1 binary_rubric_scorer_0 pass',
        's1 binary_rubric_scorer_1 fail',
        's2 binary_rubric_scorer_0 pass',
        's2 binary_rubric_scorer_1 pass',
        's3 binary_rubric_scorer unsupported',
      ],
    );
    assert.match(fixture.server.requests[0]?.prompt ?? '', /Criterion:\nCancels the order/);
    assert.match(fixture.server.requests[1]?.prompt ?? '', /Criterion:\nConfirms the refund/);
    assert.equal(fixture.server.requests.length, 4);
    assert.deepEqual(
      outcome.scorers.map((a) => [a.name, a.passRate]),
      [
        ['binary_rubric_scorer', undefined],
        ['binary_rubric_scorer_0', 1],
        ['binary_rubric_scorer_1', 0.5],
      ],
    );
    const start = events[0];
    assert.ok(start?.type === 'run/start');
    assert.equal(start.scorers[0]?.itemized, true);
  });

  it('a judge that rambles without JSON, or answers JSON without the field asked for, is an error with the reason, never a 0', async () => {
    fixture.server.enqueue(
      { text: 'I think the agent did quite well overall, PASS.' },
      { text: '{"verdict": "MAYBE"}' },
      { text: '{"verdict": "PASS"} and also {"verdict": "FAIL"}' },
    );
    const { results } = await runConfig(
      loadConfig(
        fixture.dir,
        configYaml('  goal_completion: {model_config: judge.yaml}', [
          scenario,
          { ...scenario, id: 's2' },
          { ...scenario, id: 's3' },
        ]),
      ),
    );
    assert.deepEqual(
      results.map((r) => r.status),
      ['error', 'error', 'error'],
    );
    assert.deepEqual(
      results.map((r) => r.score),
      [undefined, undefined, undefined],
    );
    assert.match(results[0]?.reason ?? '', /holds no JSON object/);
    assert.match(results[1]?.reason ?? '', /"verdict" is not one of PASS, FAIL/);
    assert.match(results[2]?.reason ?? '', /2 different JSON objects/);
    assert.equal(results[0]?.details?.['judge_answer'], 'I think the agent did quite well overall, PASS.');
  });

  it('never puts the key in a result, a reason or details, even when the server refuses it', async () => {
    fixture.server.enqueue(
      { status: 401, body: JSON.stringify({ error: { message: `Incorrect API key provided: ${SECRET_KEY}` } }) },
      { text: '{"verdict": "PASS"}' },
    );
    const { results } = await runConfig(
      loadConfig(
        fixture.dir,
        configYaml('  goal_completion: {model_config: judge.yaml}', [scenario, { ...scenario, id: 's2' }]),
      ),
    );
    assert.equal(results[0]?.status, 'error');
    assert.match(results[0]?.reason ?? '', /HTTP 401.*EVALLENS_TEST_JUDGE_KEY/);
    assert.equal(results[1]?.status, 'pass');
    assert.ok(!JSON.stringify(results).includes(SECRET_KEY));
  });
});
