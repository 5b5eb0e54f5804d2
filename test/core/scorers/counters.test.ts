import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Json } from '../../../core/case';
import { agentSteps } from '../../../core/scorers/builtin/agentSteps';
import { effectiveBilledTokens } from '../../../core/scorers/builtin/effectiveBilledTokens';
import { endToEndLatency } from '../../../core/scorers/builtin/endToEndLatency';
import { tokenConsumption } from '../../../core/scorers/builtin/tokenConsumption';
import { tokensProcessed } from '../../../core/scorers/builtin/tokensProcessed';
import { toolCallLatency } from '../../../core/scorers/builtin/toolCallLatency';
import { turnCount } from '../../../core/scorers/builtin/turnCount';
import type { ScorerDefinition } from '../../../core/scorers/scorer';
import { schemaErrors, score } from '../../support/scoring';

/**
 * Two turns, each served by two models. The importer sums a turn's tokens over its models, so the
 * native format carries per-turn totals:
 *   turn 1: model A {input 100, prompt 150, candidates 20, total 200, cached 50, cache_creation 10, thoughts 25, tool 5}
 *         + model B {input  40, prompt  40, candidates 10, total  55, cached  0, cache_creation  0, thoughts  5, tool 0}
 *   turn 2: model A {input  50, prompt 420, candidates 30, total 470, cached 370, cache_creation 0, thoughts 15, tool 0}
 *         + model B {input  10, prompt  40, candidates 10, total  50, cached  30, cache_creation 0, thoughts  5, tool 0}
 */
const TWO_TURNS: Json = {
  steps: [
    { type: 'tool_call', name: 'db__query', duration_ms: 200 },
    { type: 'tool_call', name: 'db__describe', duration_ms: 100 },
    { type: 'tool_call', name: 'db__query', duration_ms: 150, error: 'permission denied' },
  ],
  turns: [
    {
      tokens: {
        input: 140,
        prompt: 190,
        candidates: 30,
        total: 255,
        cached: 50,
        cache_creation: 10,
        thoughts: 30,
        tool: 5,
      },
      model_latency_ms: 1200,
      tool_duration_ms: 300,
      tool_calls: 2,
    },
    {
      tokens: {
        input: 60,
        prompt: 460,
        candidates: 40,
        total: 520,
        cached: 400,
        cache_creation: 0,
        thoughts: 20,
        tool: 0,
      },
      model_latency_ms: 800,
      tool_duration_ms: 150,
      tool_calls: 1,
    },
  ],
};

/** The same two turns as EvalBench records them: a conversation history with per-model Gemini CLI stats. */
function agentReply(
  models: { [name: string]: { tokens: { [key: string]: number }; latency: number } },
  tools: { totalDurationMs: number; totalCalls: number },
): string {
  const stats = {
    models: Object.fromEntries(
      Object.entries(models).map(([name, m]) => [name, { tokens: m.tokens, api: { totalLatencyMs: m.latency } }]),
    ),
    tools,
  };
  return JSON.stringify({ stats, tool_calls: [], response: 'done' });
}

const HISTORY: Json = {
  conversation_history: [
    {
      user: 'first question',
      agent: agentReply(
        {
          'model-a': {
            tokens: {
              input: 100,
              prompt: 150,
              candidates: 20,
              total: 200,
              cached: 50,
              cache_creation: 10,
              thoughts: 25,
              tool: 5,
            },
            latency: 700,
          },
          'model-b': {
            tokens: {
              input: 40,
              prompt: 40,
              candidates: 10,
              total: 55,
              cached: 0,
              cache_creation: 0,
              thoughts: 5,
              tool: 0,
            },
            latency: 500,
          },
        },
        { totalDurationMs: 300, totalCalls: 2 },
      ),
    },
    {
      user: 'second question',
      agent: agentReply(
        {
          'model-a': {
            tokens: {
              input: 50,
              prompt: 420,
              candidates: 30,
              total: 470,
              cached: 370,
              cache_creation: 0,
              thoughts: 15,
              tool: 0,
            },
            latency: 600,
          },
          'model-b': {
            tokens: {
              input: 10,
              prompt: 40,
              candidates: 10,
              total: 50,
              cached: 30,
              cache_creation: 0,
              thoughts: 5,
              tool: 0,
            },
            latency: 200,
          },
        },
        { totalDurationMs: 150, totalCalls: 1 },
      ),
    },
  ],
};

async function measure(definition: ScorerDefinition, trace: Json | undefined, options: { [key: string]: Json } = {}) {
  return score(definition, options, trace === undefined ? {} : { trace });
}

// Each expected figure is EvalBench's formula worked by hand over TWO_TURNS.
describe('EvalBench counter scorers', () => {
  it('turn_count counts the turns: 2', async () => {
    const v = await measure(turnCount, TWO_TURNS);
    assert.equal(v.status, 'measured');
    assert.equal(v.score, 2);
    assert.equal(v.reason, '2 turns');
  });

  it('agent_steps sums the tool calls of each turn: 2 + 1 = 3', async () => {
    const v = await measure(agentSteps, TWO_TURNS);
    assert.equal(v.status, 'measured');
    assert.equal(v.score, 3);
    assert.equal(v.reason, '3 tool calls over 2 turns');
    assert.deepEqual(v.details?.['per_turn'], [2, 1]);
  });

  it('end_to_end_latency adds tool and model time: (300 + 150) + (1200 + 800) = 2450 ms', async () => {
    const v = await measure(endToEndLatency, TWO_TURNS);
    assert.equal(v.status, 'measured');
    assert.equal(v.score, 2450);
    assert.deepEqual(v.details?.['parts'], { model_latency_ms: 2000, tool_duration_ms: 450 });
  });

  it('tool_call_latency sums tool time: 300 + 150 = 450 ms', async () => {
    const v = await measure(toolCallLatency, TWO_TURNS);
    assert.equal(v.status, 'measured');
    assert.equal(v.score, 450);
  });

  it('token_consumption sums tokens.total: 255 + 520 = 775', async () => {
    const v = await measure(tokenConsumption, TWO_TURNS);
    assert.equal(v.status, 'measured');
    assert.equal(v.score, 775);
  });

  it('tokens_processed sums input + candidates + cached + cache_creation, without prompt, thoughts or tool: 230 + 500 = 730', async () => {
    const v = await measure(tokensProcessed, TWO_TURNS);
    assert.equal(v.status, 'measured');
    // turn 1: 140 + 30 + 50 + 10 = 230; turn 2: 60 + 40 + 400 + 0 = 500.
    assert.equal(v.score, 730);
    assert.deepEqual(v.details?.['per_turn'], [230, 500]);
  });

  it('effective_billed_tokens weighs input 1.0, cached 0.1, cache writes 1.25, output 5.0 by default: 307.5 + 300 = 607.5', async () => {
    const v = await measure(effectiveBilledTokens, TWO_TURNS);
    assert.equal(v.status, 'measured');
    // turn 1: 140 + 5 + 12.5 + 150 = 307.5; turn 2: 60 + 40 + 0 + 200 = 300.
    assert.equal(v.score, 607.5);
    assert.deepEqual(v.details?.['weights'], {
      input_weight: 1,
      cached_weight: 0.1,
      cache_write_weight: 1.25,
      output_weight: 5,
    });
    assert.deepEqual(v.details?.['parts'], { input: 200, cached: 450, cache_creation: 10, candidates: 70 });
  });

  it('effective_billed_tokens takes overridden weights: 405 + 440 = 845', async () => {
    const v = await measure(effectiveBilledTokens, TWO_TURNS, {
      input_weight: 2,
      cached_weight: 0.5,
      cache_write_weight: 1,
      output_weight: 3,
    });
    // turn 1: 280 + 25 + 10 + 90 = 405; turn 2: 120 + 200 + 0 + 120 = 440.
    assert.equal(v.score, 845);
    // One weight alone keeps the other defaults: output 0 leaves 140 + 5 + 12.5 + 60 + 40 = 257.5.
    assert.equal((await measure(effectiveBilledTokens, TWO_TURNS, { output_weight: 0 })).score, 257.5);
  });

  it('effective_billed_tokens counts missing token keys as 0', async () => {
    const v = await measure(effectiveBilledTokens, { steps: [], turns: [{ tokens: { input: 10, candidates: 2 } }] });
    assert.equal(v.score, 20);
  });

  it('gives the same figures for the same turns recorded as an EvalBench conversation history with two models per turn', async () => {
    const expected: [ScorerDefinition, number][] = [
      [turnCount, 2],
      [agentSteps, 3],
      [endToEndLatency, 2450],
      [toolCallLatency, 450],
      [tokenConsumption, 775],
      [tokensProcessed, 730],
      [effectiveBilledTokens, 607.5],
    ];
    for (const [definition, figure] of expected) {
      const v = await measure(definition, HISTORY);
      assert.equal(v.status, 'measured', definition.key);
      assert.equal(v.score, figure, definition.key);
    }
  });

  it('counts a history turn that cannot be read as a turn adding 0, as EvalBench does, and says so', async () => {
    const history = {
      conversation_history: [
        ...(HISTORY as { conversation_history: Json[] }).conversation_history,
        { user: 'third', agent: 'not json' },
      ],
    };
    const turns = await measure(turnCount, history);
    assert.equal(turns.score, 3);
    assert.match(turns.reason, /1 of them could not be read \(counted all the same, as in EvalBench\)/);
    const tokens = await measure(tokenConsumption, history);
    assert.equal(tokens.score, 775);
    assert.equal(tokens.details?.['skipped_turns'], 1);
    assert.equal(tokens.reason, '775 tokens over 3 turns; 1 of them could not be read (adding 0, as in EvalBench)');
  });

  it('refuses negative weights in the schema', () => {
    assert.notDeepEqual(schemaErrors(effectiveBilledTokens, { cached_weight: -0.1 }), []);
  });

  const ALL = [
    turnCount,
    agentSteps,
    endToEndLatency,
    toolCallLatency,
    tokenConsumption,
    tokensProcessed,
    effectiveBilledTokens,
  ];

  it('answers measured (no pass or fail) even when the config sets a threshold: the runner decides', async () => {
    for (const definition of ALL) {
      const v = await measure(definition, TWO_TURNS, { threshold: 1, lower_is_better: true });
      assert.equal(v.status, 'measured', definition.key);
    }
  });

  it('scores an explicit empty list of turns 0, as EvalBench does', async () => {
    for (const definition of ALL) {
      const v = await measure(definition, { steps: [], turns: [] });
      assert.equal(v.status, 'measured', definition.key);
      assert.equal(v.score, 0, definition.key);
      assert.match(v.reason, /no turns/);
    }
  });

  it('is unsupported when the case has no trace, or its trace records no turns', async () => {
    for (const definition of ALL) {
      assert.equal((await measure(definition, undefined)).status, 'unsupported', definition.key);
      const noTurns = await measure(definition, { steps: [{ type: 'tool_call', name: 'db__query' }] });
      assert.equal(noTurns.status, 'unsupported', definition.key);
      assert.match(noTurns.reason, /no conversation turns/);
    }
  });

  it('counts a turn that lacks the figure as 0, and says how many did', async () => {
    const trace = { steps: [], turns: [{ tokens: { total: 100 }, tool_calls: 1 }, { model_latency_ms: 50 }] };
    const tokens = await measure(tokenConsumption, trace);
    assert.equal(tokens.score, 100);
    assert.equal(tokens.details?.['turns_without_figure'], 1);
    assert.match(tokens.reason, /1 of them records no total token count \(counted as 0, as in EvalBench\)/);
    const tools = await measure(toolCallLatency, trace);
    assert.equal(tools.score, 0);
    assert.match(tools.reason, /no turn records any tool duration/);
  });

  it('has count scales with the units EvalBench reports', () => {
    assert.deepEqual(
      ALL.map((d) => [d.key, d.scale, d.origin]),
      [
        ['turn_count', { kind: 'count', unit: 'turns' }, 'EvalBench'],
        ['agent_steps', { kind: 'count', unit: 'steps' }, 'EvalBench'],
        ['end_to_end_latency', { kind: 'count', unit: 'ms' }, 'EvalBench'],
        ['tool_call_latency', { kind: 'count', unit: 'ms' }, 'EvalBench'],
        ['token_consumption', { kind: 'count', unit: 'tokens' }, 'EvalBench'],
        ['tokens_processed', { kind: 'count', unit: 'tokens' }, 'EvalBench'],
        ['effective_billed_tokens', { kind: 'count', unit: 'weighted tokens' }, 'EvalBench'],
      ],
    );
  });
});
