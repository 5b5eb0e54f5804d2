import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { EvalCase, Json } from '../../../core/case';
import { readJson } from '../../../core/dataset/json';
import { agentSteps } from '../../../core/scorers/builtin/agentSteps';
import { effectiveBilledTokens } from '../../../core/scorers/builtin/effectiveBilledTokens';
import { endToEndLatency } from '../../../core/scorers/builtin/endToEndLatency';
import { tokenConsumption } from '../../../core/scorers/builtin/tokenConsumption';
import { tokensProcessed } from '../../../core/scorers/builtin/tokensProcessed';
import { toolCallLatency } from '../../../core/scorers/builtin/toolCallLatency';
import { trajectoryMatcher } from '../../../core/scorers/builtin/trajectoryMatcher';
import { turnCount } from '../../../core/scorers/builtin/turnCount';
import type { ScorerDefinition } from '../../../core/scorers/scorer';
import { toolCalls } from '../../../core/trace/trace';
import { traceOf } from '../../../core/trace/traceOf';
import { score } from '../../support/scoring';

/**
 * One recording per shape EvalBench has written (test/fixtures/evalbench/recordings/, written by
 * hand in EvalBench's text format: the eval output's `conversation_history` is
 * `json.dumps(history, indent=2)` of `{user, agent}` turns whose `agent` is the harness's stdout,
 * itself `json.dumps(final_obj, indent=2)`), read through the JSON dataset reader as EvalLens reads
 * an evalset with recordings.
 *
 * The expected numbers are EvalBench's, worked from its code:
 * - trajectory_matcher (`scorers/trajectorymatcher.py`) compares `expected_trajectory` with
 *   `accumulated_tools` (`work/agentscorework.py`), which `AgentEvaluator` builds turn by turn from each
 *   harness's `extract_tools`: `list(stats.tools.byName.keys())`, never from `tool_calls`. With
 *   `filter_native_tools` (default) only `<server>__<tool>` names stay, on both sides. Jaccard on sets
 *   × 100; with `enforce_order`, `max(0, 1 − lev/max(len)) × 100`.
 * - the counters: turn_count = len(history); agent_steps = Σ stats.tools.totalCalls (else
 *   len(tool_calls)); tool_call_latency = Σ stats.tools.totalDurationMs; end_to_end_latency = that +
 *   Σ models.*.api.totalLatencyMs; token_consumption = Σ tokens.total; tokens_processed = Σ (input +
 *   candidates + cached + cache_creation); effective_billed_tokens = Σ (input + 0.1·cached +
 *   1.25·cache_creation + 5·candidates).
 */
const RECORDINGS = join(__dirname, '..', '..', 'fixtures', 'evalbench', 'recordings');
const LI = 'cloud-sql__list_instances';
const ES = 'cloud-sql__execute_sql';

async function recording(file: string): Promise<EvalCase> {
  const cases: EvalCase[] = [];
  for await (const record of readJson({ path: join(RECORDINGS, file), format: 'json' })) {
    assert.ok(record.ok, `the fixture should read: ${record.ok ? '' : record.error.message}`);
    cases.push(record.value.case);
  }
  assert.equal(cases.length, 1);
  return cases[0]!;
}

/** The same case without the eval output's `accumulated_tools` / `accumulated_skills`: a bare recorded conversation. */
function historyOnly(evalCase: EvalCase): EvalCase {
  const trace = evalCase.trace as { [key: string]: Json };
  return { ...evalCase, trace: { conversation_history: trace['conversation_history'] ?? null } };
}

async function figure(definition: ScorerDefinition, evalCase: EvalCase): Promise<number | undefined> {
  const verdict = await score(definition, { threshold: 1e12, lower_is_better: true }, evalCase);
  return verdict.score;
}

async function trajectory(evalCase: EvalCase, enforceOrder: boolean): Promise<number | undefined> {
  return (await score(trajectoryMatcher, { enforce_order: enforceOrder }, evalCase)).score;
}

interface Expected {
  readonly file: string;
  /** trajectory_matcher: Jaccard (default), then with enforce_order. */
  readonly trajectory: readonly [number, number];
  readonly counters: { readonly [key: string]: number };
}

const COUNTERS: { readonly [key: string]: ScorerDefinition } = {
  turn_count: turnCount,
  agent_steps: agentSteps,
  tool_call_latency: toolCallLatency,
  end_to_end_latency: endToEndLatency,
  token_consumption: tokenConsumption,
  tokens_processed: tokensProcessed,
  effective_billed_tokens: effectiveBilledTokens,
};

const TWO_THIRDS = (2 / 3) * 100; // Jaccard 2 of 3: 66.66666666666666
const ONE_EDIT_OF_THREE = (1 - 1 / 3) * 100; // 66.66666666666667

const EXPECTED: readonly Expected[] = [
  {
    // Gemini CLI `--output-format json`: no tool_calls; byName keys mcp_cloud-sql_list_instances,
    // read_file | mcp_cloud-sql_execute_sql, canonical li, read_file | es → [li, es] vs [li, es]: 100, 100.
    // Turns: calls 3 + 1 = 4; tool ms 420 + 150 = 570; + model ms 5000 + 2000 = 7570; total 1280 + 1640 = 2920;
    // processed (800+80+500) + (300+40+1300) = 3020; billed (800+50+400) + (300+130+200) = 1880.
    file: 'gemini-cli-json-2025.json',
    trajectory: [100, 100],
    counters: {
      turn_count: 2,
      agent_steps: 4,
      tool_call_latency: 570,
      end_to_end_latency: 7570,
      token_consumption: 2920,
      tokens_processed: 3020,
      effective_billed_tokens: 1880,
    },
  },
  {
    // tool_calls {tool_name, parameters} es, read_file, li, es; byName keys es, read_file, li → [es, li]
    // vs [li, es]: Jaccard 100; lev([li, es], [es, li]) = 2 of 2 → 0 (the calls' own order would give 66.67).
    // calls 4; tool ms 250+100+300+350 = 1000; + 9000 = 10000; total 5700; 5000+200+400 = 5600; 5000+40+1000 = 6040.
    file: 'gemini-cli-stream-2026-06.json',
    trajectory: [100, 0],
    counters: {
      turn_count: 1,
      agent_steps: 4,
      tool_call_latency: 1000,
      end_to_end_latency: 10000,
      token_consumption: 5700,
      tokens_processed: 5600,
      effective_billed_tokens: 6040,
    },
  },
  {
    // byName keys ToolSearch, li, Read, es → [li, es] vs [li, es, gi]: Jaccard 2/3; lev 1 of 3.
    // calls 5; tool ms 0 (Claude Code records none); 12000; total 940; 40+900+30000+2500 = 33440;
    // 40 + 3000 + 3125 + 4500 = 10665.
    file: 'claude-code-stream-2026-06.json',
    trajectory: [TWO_THIRDS, ONE_EDIT_OF_THREE],
    counters: {
      turn_count: 1,
      agent_steps: 5,
      tool_call_latency: 0,
      end_to_end_latency: 12000,
      token_consumption: 940,
      tokens_processed: 33440,
      effective_billed_tokens: 10665,
    },
  },
  {
    // Two turns: li, shell | gi → [li, gi] vs [li, gi, es]: Jaccard 2/3; lev 1 of 3.
    // calls 2 + 1 = 3; tool ms 600 + 200 = 800; + 7000 + 3000 = 10800; total 3150 + 3500 = 6650;
    // (3000+150+1000) + (3400+100+3000) = 10650; (3000+100+750) + (3400+300+500) = 8050.
    file: 'codex-stream-2026-06.json',
    trajectory: [TWO_THIRDS, ONE_EDIT_OF_THREE],
    counters: {
      turn_count: 2,
      agent_steps: 3,
      tool_call_latency: 800,
      end_to_end_latency: 10800,
      token_consumption: 6650,
      tokens_processed: 10650,
      effective_billed_tokens: 8050,
    },
  },
  {
    // agy: no tool_calls; byName activate_skill, view_file, es, li → [es, li] vs [li, es]: 100; lev 2 of 2 → 0.
    // calls 5; tool ms 2100; + 15000 = 17100; agy records no tokens: 0, 0, 0.
    file: 'agy-2026-06.json',
    trajectory: [100, 0],
    counters: {
      turn_count: 1,
      agent_steps: 5,
      tool_call_latency: 2100,
      end_to_end_latency: 17100,
      token_consumption: 0,
      tokens_processed: 0,
      effective_billed_tokens: 0,
    },
  },
  {
    // tool_calls {name, args} with Claude's own names and no byName (EvalBench's extract_tools would find
    // nothing here; EvalLens reads the calls): li, Bash, es → [li, es] vs [es, li]: 100; lev 2 of 2 → 0.
    // calls 3; tool ms 700; + 4000 = 4700; total 400; 100+300+2000 = 2400; 100+200+1500 = 1800.
    file: 'name-args-2025.json',
    trajectory: [100, 0],
    counters: {
      turn_count: 1,
      agent_steps: 3,
      tool_call_latency: 700,
      end_to_end_latency: 4700,
      token_consumption: 400,
      tokens_processed: 2400,
      effective_billed_tokens: 1800,
    },
  },
];

describe('EvalBench recordings: every shape EvalBench has written scores as EvalBench scores it', () => {
  for (const expected of EXPECTED) {
    it(`${expected.file}: trajectory_matcher ${expected.trajectory.map((n) => Math.round(n * 100) / 100).join(' / ')} and the counters`, async () => {
      const evalCase = await recording(expected.file);
      assert.deepEqual([await trajectory(evalCase, false), await trajectory(evalCase, true)], expected.trajectory);
      const counters: { [key: string]: number | undefined } = {};
      for (const [key, definition] of Object.entries(COUNTERS)) counters[key] = await figure(definition, evalCase);
      assert.deepEqual(counters, expected.counters);
    });

    it(`${expected.file}: without the eval output's accumulated_tools, the conversation alone gives the same numbers`, async () => {
      const evalCase = historyOnly(await recording(expected.file));
      assert.deepEqual([await trajectory(evalCase, false), await trajectory(evalCase, true)], expected.trajectory);
      assert.equal(await figure(agentSteps, evalCase), expected.counters['agent_steps']);
    });
  }

  it('reads the 2026-06 call fields: tool_name, parameters, status and response, tool_id, and the timestamps as the duration', async () => {
    const steps = toolCalls(lookup(await recording('gemini-cli-stream-2026-06.json')));
    assert.deepEqual(
      steps.map((step) => [step.name, step.arguments, step.id, step.durationMs]),
      [
        [ES, { sql: 'SELECT 1' }, `${ES}-1`, 250],
        ['read_file', { absolute_path: '/w/README.md' }, 'read_file-2', 100],
        [LI, { project: 'acme' }, `${LI}-3`, 300],
        [ES, { sql: 'SELECT count(*) FROM orders' }, `${ES}-4`, 350],
      ],
    );
    const claude = toolCalls(lookup(await recording('claude-code-stream-2026-06.json')));
    assert.equal(claude[3]?.error, 'status error');
    assert.equal(claude[3]?.result, 'syntax error at or near "SELEC"');
    assert.equal(claude[4]?.error, undefined);
  });

  it('reads byName alone (agy, Gemini CLI json) as count calls per name with their recorded parameters, and its activated skills', async () => {
    const trace = lookup(historyOnly(await recording('agy-2026-06.json')));
    assert.deepEqual(
      toolCalls(trace).map((step) => [step.name, step.arguments]),
      [
        ['activate_skill', { skill_name: 'cloud-sql-basics' }],
        ['view_file', { AbsolutePath: '/w/README.md' }],
        [ES, { sql: 'SELECT 1' }],
        [ES, { sql: 'SELECT count(*) FROM orders' }],
        [LI, { project: 'acme' }],
      ],
    );
    assert.deepEqual(
      trace.steps.filter((step) => step.kind === 'skill').map((step) => step.name),
      ['cloud-sql-basics'],
    );
  });

  it('reads calls wrapped as Gemini API functionCall parts and OpenAI function calls (arguments as JSON text)', () => {
    const agent = JSON.stringify({
      tool_calls: [
        { functionCall: { name: 'mcp_bq_run_query', args: { q: 1 } } },
        { id: 'call_1', type: 'function', function: { name: 'bq__list', arguments: '{"p":"acme"}' } },
      ],
    });
    const trace = lookup({ id: 'c', trace: { conversation_history: [{ user: 'u', agent }] } });
    assert.deepEqual(
      toolCalls(trace).map((step) => [step.name, step.arguments, step.id]),
      [
        ['bq__run_query', { q: 1 }, undefined],
        ['bq__list', { p: 'acme' }, 'call_1'],
      ],
    );
  });
});

function lookup(evalCase: EvalCase) {
  const found = traceOf(evalCase);
  assert.ok(found.ok, found.ok ? '' : found.reason);
  return found.trace;
}
