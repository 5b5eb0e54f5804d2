import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { configYaml, judgeFixture, loadConfig, runConfig, type JudgeFixture } from '../scorers/llm/judgeHarness';

/** Judge scorers that call their judge on this case (llmrater and analytics_scorer need executed SQL). */
const JUDGES = [
  '  goal_completion: {model_config: judge.yaml, include_tool_calls: true}',
  '  behavioral_metrics: {model_config: judge.yaml}',
  '  parameter_analysis: {model_config: judge.yaml}',
  '  binary_rubric_scorer: {model_config: judge.yaml}',
  '  llm_consistency: {model_config: judge.yaml}',
  '  skills_best_practices: {model_config: judge.yaml, skills_dir: .}',
].join('\n');

describe('every judge scorer when its key is not set', () => {
  let fixture: JudgeFixture;
  before(async () => {
    fixture = await judgeFixture({ fallback: () => ({ text: '{"verdict": "PASS"}' }) });
  });
  after(async () => {
    await fixture.close();
  });

  it('answers skipped with the reason (never error), the other scorers run, and the run summary counts them', async () => {
    const cases = [
      {
        id: 'a',
        input: 'q',
        output: 'x',
        trials: [{ output: 'x' }, { output: 'y' }],
        metadata: { binary_rubric: ['r1', 'r2'] },
        trace: {
          steps: [
            { type: 'skill', name: 's' },
            { type: 'tool_call', name: 'lookup', arguments: { id: 1 } },
          ],
        },
      },
    ];
    mkdirSync(join(fixture.dir, 's'), { recursive: true });
    writeFileSync(join(fixture.dir, 's', 'SKILL.md'), '---\nname: s\n---\nSteps.');
    // The config loads without the key: it is needed to call the judge, not to load.
    const config = loadConfig(
      fixture.dir,
      configYaml(`${JUDGES}\n  contains: {value: x}`, cases, 'num_trials: 2\n'),
      {},
    );
    const { results, outcome } = await runConfig(config);
    const judges = results.filter((r) => r.scorer !== 'contains');
    assert.deepEqual([...new Set(judges.map((r) => r.status))], ['skipped']);
    // 4 per-trial judges and binary_rubric_scorer's 2 items, × 2 trials; llm_consistency once.
    assert.equal(judges.length, 13);
    const reason =
      'the judge was not called: missing credentials for test-judge: the environment variable EVALLENS_TEST_JUDGE_KEY is not set';
    for (const r of judges) assert.ok(r.reason.includes(reason), `${r.scorer}: ${r.reason}`);
    assert.deepEqual(
      results.filter((r) => r.scorer === 'contains').map((r) => r.status),
      ['pass', 'fail'],
    );
    assert.equal(outcome.summary.missingCredentials?.results, 13);
    assert.deepEqual(
      outcome.summary.missingCredentials?.reasons.map((r) => r.slice(0, 40)),
      ['the judge was not called: missing creden', 'skill s: the judge was not called: missi'],
    );
    assert.equal(fixture.server.connections(), 0);
  });
});
