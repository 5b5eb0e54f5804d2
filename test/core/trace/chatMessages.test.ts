import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Json } from '../../../core/case';
import type { Trace } from '../../../core/trace/trace';
import { traceOf } from '../../../core/trace/traceOf';
import { traceJson, withTrace } from './traceFixtures';

function read(trace: Json): Trace {
  const lookup = traceOf(withTrace(trace));
  assert.ok(lookup.ok, `expected a trace, got: ${lookup.ok ? '' : lookup.reason}`);
  return lookup.trace;
}

describe('traceOf: OpenAI chat messages', () => {
  it('reads a transcript: tool calls after their assistant message, joined to their tool messages, a turn per user message', () => {
    const trace = read(traceJson('openai-chat.json'));
    assert.deepEqual(trace, {
      steps: [
        { kind: 'message', role: 'system', content: 'You are a database assistant.', turn: 0 },
        {
          kind: 'message',
          role: 'user',
          content: 'Which Cloud SQL instances do we have, and what is in the README?',
          turn: 0,
        },
        {
          kind: 'tool_call',
          name: 'cloud-sql__list_instances',
          recordedName: 'mcp__cloud-sql__list_instances',
          arguments: { project: 'acme-prod' },
          result: '[{"name":"orders-db"},{"name":"analytics-db"}]',
          turn: 0,
          id: 'call_9pXw1',
        },
        {
          kind: 'tool_call',
          name: 'read_file',
          arguments: { path: 'README.md' },
          result: '# Acme',
          turn: 0,
          id: 'call_Q2b7k',
        },
        {
          kind: 'message',
          role: 'assistant',
          content: 'You have orders-db and analytics-db; the README is a title only.',
          turn: 0,
        },
        { kind: 'message', role: 'user', content: 'Thanks!', turn: 1 },
        { kind: 'message', role: 'assistant', content: "You're welcome.", turn: 1 },
      ],
      hasSteps: true,
      turns: [{ toolCalls: 2 }, { toolCalls: 0 }],
      hasTurns: true,
      format: 'chat',
    });
  });

  it('reads a bare list of messages the same as {messages}, and passes latency and citations through', () => {
    const { messages } = traceJson('openai-chat.json') as { messages: Json[] };
    assert.deepEqual(read(messages).steps, read({ messages }).steps);
    const wrapped = read({ messages, latency_ms: 4200, citations: ['kb-1'] });
    assert.equal(wrapped.latencyMs, 4200);
    assert.deepEqual(wrapped.citations, ['kb-1']);
  });

  it('keeps arguments that are not JSON text as the string recorded, and an assistant message with text before its calls', () => {
    const trace = read([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: 'Looking.',
        tool_calls: [{ id: 'a', type: 'function', function: { name: 'search', arguments: '{"q": "x"' } }],
      },
      { role: 'assistant', content: '', tool_calls: [{ id: 'b', type: 'function', function: { name: 'noop' } }] },
    ]);
    assert.deepEqual(trace.steps, [
      { kind: 'message', role: 'user', content: 'go', turn: 0 },
      { kind: 'message', role: 'assistant', content: 'Looking.', turn: 0 },
      { kind: 'tool_call', name: 'search', arguments: '{"q": "x"', turn: 0, id: 'a' },
      { kind: 'tool_call', name: 'noop', turn: 0, id: 'b' },
    ]);
    assert.deepEqual(trace.turns, [{ toolCalls: 2 }]);
  });

  it('keeps a tool message that answers no call as a message, and an empty transcript as a conversation with no turns', () => {
    const trace = read({ messages: [{ role: 'tool', tool_call_id: 'zz', content: 'orphan' }] });
    assert.deepEqual(trace.steps, [{ kind: 'message', role: 'tool', content: 'orphan', turn: 0 }]);
    assert.deepEqual(read({ messages: [] }), { steps: [], hasSteps: true, turns: [], hasTurns: true, format: 'chat' });
  });

  it('says which message or call is malformed', () => {
    const reasonOf = (trace: Json): string => {
      const lookup = traceOf(withTrace(trace));
      assert.ok(!lookup.ok);
      return lookup.reason;
    };
    assert.equal(reasonOf({ messages: [{ role: 'user' }, { content: 'x' }] }), 'trace message 2 has no `role`');
    assert.equal(
      reasonOf([{ role: 'assistant', tool_calls: [{ id: 'a' }] }]),
      'tool call 1 of trace message 1 has no `function`; it needs {name, arguments}',
    );
    assert.equal(
      reasonOf([{ role: 'assistant', tool_calls: [{ function: { arguments: '{}' } }] }]),
      'the function of tool call 1 of trace message 1 has no `name`',
    );
    assert.equal(
      reasonOf([{ role: 'assistant', tool_calls: 'x' }]),
      'trace message 1 has `tool_calls` that is a string, not a list',
    );
  });
});
