import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Json } from '../../../core/case';
import type { Trace } from '../../../core/trace/trace';
import { traceOf } from '../../../core/trace/traceOf';
import { withTrace } from './traceFixtures';

function read(trace: Json): Trace {
  const lookup = traceOf(withTrace(trace));
  assert.ok(lookup.ok, `expected a trace, got: ${lookup.ok ? '' : lookup.reason}`);
  return lookup.trace;
}

/** A Gemini CLI reply as EvalBench records it (JSON text). */
const agent = (reply: { [key: string]: Json }): string => JSON.stringify(reply);

const models = {
  'gemini-2.5-pro': {
    api: { totalRequests: 2, totalLatencyMs: 5321 },
    tokens: { input: 2222, prompt: 10234, candidates: 312, total: 10890, cached: 8012, thoughts: 344, tool: 0 },
  },
  'claude-sonnet-4': {
    api: { totalLatencyMs: 679 },
    tokens: { input: 1500, candidates: 40, total: 1560, cached: 0, cache_creation: 120 },
  },
};

const history = [
  {
    user: 'Which instances do we have?',
    agent: agent({
      response: 'orders-db and analytics-db.',
      tool_calls: [
        { name: 'mcp__cloud-sql__list_instances', args: { project: 'acme' }, result: 'two' },
        {
          name: 'call_mcp_tool',
          args: { ServerName: '"bigquery"', ToolName: '"list_datasets"', Arguments: '{"project":"acme"}' },
        },
        { name: 'glob', arguments: { pattern: '**/*.sql' }, error: { code: 'EACCES' } },
      ],
      stats: { models, tools: { totalCalls: 3, totalDurationMs: 480 } },
    }),
  },
  { user: 'And the orders?', agent: 'Error: 429 RESOURCE_EXHAUSTED' },
  {
    user: 'Count them.',
    agent: {
      response: '1204',
      skills: ['sql-analyst', { name: 'charts' }],
      tool_calls: [{ name: 'mcp_bigquery_run_query' }],
      stats: { tools: { totalCalls: 'one' } },
    },
  },
];

describe('traceOf: EvalBench conversation history', () => {
  it('gives each turn its user message, skills, tool calls and response, and skips a turn whose agent is not JSON', () => {
    const trace = read({ conversation_history: history });
    assert.deepEqual(trace.steps, [
      { kind: 'message', role: 'user', content: 'Which instances do we have?', turn: 0 },
      {
        kind: 'tool_call',
        name: 'cloud-sql__list_instances',
        recordedName: 'mcp__cloud-sql__list_instances',
        arguments: { project: 'acme' },
        result: 'two',
        turn: 0,
      },
      {
        kind: 'tool_call',
        name: 'bigquery__list_datasets',
        recordedName: 'call_mcp_tool',
        arguments: { project: 'acme' },
        turn: 0,
      },
      { kind: 'tool_call', name: 'glob', arguments: { pattern: '**/*.sql' }, error: '{"code":"EACCES"}', turn: 0 },
      { kind: 'message', role: 'assistant', content: 'orders-db and analytics-db.', turn: 0 },
      { kind: 'message', role: 'user', content: 'Count them.', turn: 2 },
      { kind: 'skill', name: 'sql-analyst', turn: 2 },
      { kind: 'skill', name: 'charts', turn: 2 },
      { kind: 'tool_call', name: 'bigquery__run_query', recordedName: 'mcp_bigquery_run_query', turn: 2 },
      { kind: 'message', role: 'assistant', content: '1204', turn: 2 },
    ]);
    assert.equal(trace.skippedTurns, 1);
    assert.equal(trace.hasTurns, true);
    assert.equal(trace.format, 'conversation_history');
  });

  it('sums tokens and model latency over the models of a turn; the call count is totalCalls when whole, else the tool_calls', () => {
    const { turns } = read({ conversation_history: history });
    assert.deepEqual(turns, [
      {
        tokens: {
          input: 3722,
          prompt: 10234,
          candidates: 352,
          total: 12450,
          cached: 8012,
          cacheCreation: 120,
          thoughts: 344,
          tool: 0,
        },
        modelLatencyMs: 6000,
        toolDurationMs: 480,
        toolCalls: 3,
      },
      {},
      { toolCalls: 1 },
    ]);
  });

  it('reads the history as JSON text, as a bare list of turns, and inside an eval-result record', () => {
    const fromList = read({ conversation_history: history });
    assert.deepEqual(read({ conversation_history: JSON.stringify(history) }), fromList);
    assert.deepEqual(read(history), fromList);
    const record = read({
      conversation_history: JSON.stringify(history),
      scenario: { id: 'x' },
      accumulated_tools: ['other__tool'],
      accumulated_skills: ['other'],
      latency_ms: 12000,
    });
    assert.deepEqual(
      record.steps,
      fromList.steps,
      'the turns record their calls and skills, so the accumulated lists are not read again',
    );
    assert.equal(record.latencyMs, 12000);
  });

  it('reads accumulated_tools and accumulated_skills when no turn records calls or skills', () => {
    const trace = read({
      conversation_history: [{ user: 'hi', agent: agent({ response: 'hello' }) }],
      accumulated_tools: ['mcp_bigquery_run_query'],
      accumulated_skills: ['sql-analyst'],
    });
    assert.deepEqual(trace.steps, [
      { kind: 'message', role: 'user', content: 'hi', turn: 0 },
      { kind: 'message', role: 'assistant', content: 'hello', turn: 0 },
      { kind: 'tool_call', name: 'bigquery__run_query', recordedName: 'mcp_bigquery_run_query' },
      { kind: 'skill', name: 'sql-analyst' },
    ]);
    assert.deepEqual(trace.turns, [{}]);
    assert.equal(trace.skippedTurns, 0);
    const listsOnly = read({ accumulated_tools: ['a__b'] });
    assert.equal(listsOnly.hasTurns, false);
    assert.equal(listsOnly.skippedTurns, undefined);
    assert.deepEqual(listsOnly.steps, [{ kind: 'tool_call', name: 'a__b' }]);
  });

  it('skips entries that are not objects and agents that are JSON of something else; an empty history is a conversation with no turns', () => {
    const trace = read({ conversation_history: ['hello', { user: 'x', agent: '[1, 2]' }, { user: 'y' }] });
    assert.deepEqual(trace.steps, []);
    assert.deepEqual(trace.turns, [{}, {}, {}]);
    assert.equal(trace.skippedTurns, 3);
    assert.deepEqual(read({ conversation_history: '[]' }), {
      steps: [],
      hasSteps: true,
      turns: [],
      hasTurns: true,
      skippedTurns: 0,
      format: 'conversation_history',
      trajectoryNames: [],
    });
  });

  it('says why a history cannot be read', () => {
    const reasonOf = (trace: Json): string => {
      const lookup = traceOf(withTrace(trace));
      assert.ok(!lookup.ok);
      return lookup.reason;
    };
    assert.equal(
      reasonOf({ conversation_history: 'not json' }),
      "the trace's `conversation_history` is text that is not JSON, not a list of turns",
    );
    assert.equal(
      reasonOf({ conversation_history: '{"user": "x"}' }),
      "the trace's `conversation_history` is JSON text of an object, not a list of turns",
    );
    assert.equal(
      reasonOf({ conversation_history: 5 }),
      "the trace's `conversation_history` is a number, not a list of turns",
    );
    assert.equal(reasonOf({ accumulated_tools: 'a,b' }), "the trace's `accumulated_tools` is a string, not a list");
  });
});
