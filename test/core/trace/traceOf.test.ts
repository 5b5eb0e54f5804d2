import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Json } from '../../../core/case';
import type { Trace } from '../../../core/trace/trace';
import { traceOf } from '../../../core/trace/traceOf';
import { traceJson, withTrace } from './traceFixtures';

function read(trace: Json | undefined): Trace {
  const lookup = traceOf(withTrace(trace));
  assert.ok(lookup.ok, `expected a trace, got: ${lookup.ok ? '' : lookup.reason}`);
  return lookup.trace;
}

function reason(trace: Json | undefined): string {
  const lookup = traceOf(withTrace(trace));
  assert.ok(!lookup.ok, 'expected no trace');
  return lookup.reason;
}

describe('traceOf: native steps', () => {
  it('reads every step type in order, with canonical names, times, turns and figures', () => {
    const trace = read({
      steps: [
        { type: 'message', role: 'user', content: 'Find the failing build', turn: 0 },
        { type: 'skill', name: 'ci-triage', turn: 0 },
        {
          type: 'tool_call',
          id: 'c1',
          name: 'mcp__github__list_runs',
          arguments: { repo: 'acme/web' },
          result: [{ id: 7 }],
          start_ms: 1000,
          end_ms: 1250,
          turn: 0,
        },
        {
          type: 'tool_call',
          id: 2,
          name: 'read_file',
          arguments: {},
          error: 'ENOENT',
          started_at: '2026-05-01T10:00:00.000Z',
          ended_at: '2026-05-01T10:00:00.040Z',
          duration_ms: 35,
        },
        { type: 'retrieval', document_ids: ['doc-3', 9], query: 'build failure' },
        { type: 'handoff', from: 'triage', to: 'fixer' },
        { type: 'message', role: 'assistant', content: null },
      ],
      turns: [
        {
          tokens: { input: 10, output: 4, cached: 2, cache_creation: 1 },
          model_latency_ms: 800,
          tool_duration_ms: 285,
          tool_calls: 2,
        },
        {},
      ],
      latency_ms: 1500,
      citations: ['doc-3', 4],
    });
    const start = Date.parse('2026-05-01T10:00:00.000Z');
    assert.deepEqual(trace, {
      steps: [
        { kind: 'message', role: 'user', content: 'Find the failing build', turn: 0 },
        { kind: 'skill', name: 'ci-triage', turn: 0 },
        {
          kind: 'tool_call',
          name: 'github__list_runs',
          recordedName: 'mcp__github__list_runs',
          arguments: { repo: 'acme/web' },
          result: [{ id: 7 }],
          startMs: 1000,
          endMs: 1250,
          durationMs: 250,
          turn: 0,
          id: 'c1',
        },
        {
          kind: 'tool_call',
          name: 'read_file',
          arguments: {},
          error: 'ENOENT',
          startMs: start,
          endMs: start + 40,
          durationMs: 35,
          id: '2',
        },
        { kind: 'retrieval', documentIds: ['doc-3', '9'], query: 'build failure' },
        { kind: 'handoff', from: 'triage', to: 'fixer' },
        { kind: 'message', role: 'assistant', content: null },
      ],
      hasSteps: true,
      turns: [
        {
          tokens: { input: 10, candidates: 4, cached: 2, cacheCreation: 1 },
          modelLatencyMs: 800,
          toolDurationMs: 285,
          toolCalls: 2,
        },
        {},
      ],
      hasTurns: true,
      format: 'native',
      latencyMs: 1500,
      citations: ['doc-3', '4'],
    });
  });

  it('keeps arguments absent when the recording did not keep them, which differs from {}', () => {
    const [absent, empty, nulled] = read({
      steps: [
        { type: 'tool_call', name: 'a' },
        { type: 'tool_call', name: 'b', arguments: {} },
        { type: 'tool_call', name: 'c', arguments: null },
      ],
    }).steps;
    assert.ok(absent?.kind === 'tool_call' && empty?.kind === 'tool_call' && nulled?.kind === 'tool_call');
    assert.equal('arguments' in absent, false);
    assert.deepEqual(empty.arguments, {});
    assert.equal(nulled.arguments, null);
  });

  it('reads a trace of figures only: no steps recorded, which differs from an empty list of steps', () => {
    assert.deepEqual(read({ latency_ms: 900 }), {
      steps: [],
      hasSteps: false,
      turns: [],
      hasTurns: false,
      format: 'native',
      latencyMs: 900,
    });
    assert.deepEqual(read({ steps: [] }), { steps: [], hasSteps: true, turns: [], hasTurns: false, format: 'native' });
    assert.deepEqual(read({ tokens: { input: 5, candidates: 2 } }).turns, [{ tokens: { input: 5, candidates: 2 } }]);
    assert.deepEqual(read({ turns: [] }), { steps: [], hasSteps: false, turns: [], hasTurns: true, format: 'native' });
  });

  it('says which step is wrong and how, never quoting its values', () => {
    assert.equal(
      reason({
        steps: [
          { type: 'tool_call', name: 'a' },
          { type: 'tool-call', name: 'secret' },
        ],
      }),
      "trace step 2 has a `type` EvalLens does not know; a step's type is one of tool_call, message, handoff, retrieval, skill",
    );
    assert.equal(
      reason({ steps: [{ name: 'a' }] }),
      "trace step 1 has no `type`; a step's type is one of tool_call, message, handoff, retrieval, skill",
    );
    assert.equal(reason({ steps: [{ type: 'tool_call' }] }), 'trace step 1 has no `name`');
    assert.equal(reason({ steps: [{ type: 'retrieval' }] }), 'trace step 1 (a retrieval) has no `document_ids`');
    assert.equal(
      reason({ steps: [{ type: 'tool_call', name: 'a', started_at: 'yesterday' }] }),
      'trace step 1 has a `started_at` that is not an ISO 8601 time',
    );
    assert.equal(
      reason({ steps: [{ type: 'tool_call', name: 'a', duration_ms: -1 }] }),
      'trace step 1 has a `duration_ms` that is a negative number, not a number of at least 0',
    );
    assert.equal(reason({ steps: 'many' }), "the trace's `steps` is a string, not a list");
    assert.equal(
      reason({ steps: [], turns: [{ tokens: { total: 'lots' } }] }),
      'the `tokens` of trace turn 1 has a `total` that is a string, not a number of at least 0',
    );
    assert.equal(
      reason({ steps: [], citations: [{ id: 1 }] }),
      "item 1 of the trace's `citations` is an object, not a string",
    );
    assert.equal(
      reason({ steps: [], latency_ms: 'slow' }),
      'the trace has a `latency_ms` that is a string, not a number of at least 0',
    );
  });
});

describe('traceOf: a plain list of tool names', () => {
  it('gives tool calls with canonical names, no arguments and no turns', () => {
    const trace = read(traceJson('tool-names.json'));
    assert.deepEqual(trace, {
      steps: [
        { kind: 'tool_call', name: 'cloud-sql__list_instances', recordedName: 'mcp__cloud-sql__list_instances' },
        { kind: 'tool_call', name: 'bigquery__run_query', recordedName: 'mcp_bigquery_run_query' },
        { kind: 'tool_call', name: 'read_file' },
        { kind: 'tool_call', name: 'github__search_issues' },
      ],
      hasSteps: true,
      turns: [],
      hasTurns: false,
      format: 'tool_names',
    });
  });

  it('reads an empty list as no tool calls', () => {
    assert.deepEqual(read([]), { steps: [], hasSteps: true, turns: [], hasTurns: false, format: 'tool_names' });
  });

  it('refuses a list that mixes names with other values', () => {
    assert.equal(reason(['a', 3]), "trace item 2 is a number, not a tool name (the trace's first item is one)");
    assert.equal(reason(['a', '']), "trace item 2 is an empty string, not a tool name (the trace's first item is one)");
  });
});

describe('traceOf: shapes it does not read', () => {
  it('says the case has no trace', () => {
    assert.equal(reason(undefined), 'the case has no trace');
    assert.equal(reason(null), 'the case has no trace');
  });

  it('names the kind of value or the fields it saw, never the values', () => {
    assert.match(
      reason('mcp__a__b, read_file'),
      /^the trace is a string; a trace is an object \(with steps, messages or conversation_history\) or a list/,
    );
    assert.match(reason(42), /^the trace is a number;/);
    assert.equal(
      reason({ artifacts: [], spans: [], a: 1, b: 2, c: 3, d: 4 }),
      'the trace is an object with none of steps, messages, conversation_history, turns, latency_ms or citations (its fields: artifacts, spans, a, b, c, and 1 more)',
    );
    assert.equal(
      reason({}),
      'the trace is an object with none of steps, messages, conversation_history, turns, latency_ms or citations (it has no fields)',
    );
    assert.match(
      reason([{ span: 'x' }]),
      /^the trace is a list whose first item is an object with neither `role` nor `user`\/`agent`;/,
    );
    assert.match(reason([3]), /^the trace is a list whose first item is a number;/);
    assert.equal(reason({ messages: 'hi' }), "the trace's `messages` is a string, not a list of chat messages");
  });
});

describe('traceOf: cache', () => {
  it('computes the lookup once per case object and returns the same object', () => {
    const evalCase = withTrace({ steps: [{ type: 'tool_call', name: 'a' }] });
    const first = traceOf(evalCase);
    assert.equal(traceOf(evalCase), first);
    assert.notEqual(traceOf(withTrace({ steps: [{ type: 'tool_call', name: 'a' }] })), first);
    const missing = withTrace(undefined);
    assert.equal(traceOf(missing), traceOf(missing));
  });
});
