import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseRunConfig } from '../../../../core/config/parseRunConfig';
import { UNTRUSTED_REASON } from '../../../../core/runner/scoreCase';
import { configYaml, ENV, judgeFixture, loadConfig, runConfig, type JudgeFixture } from './judgeHarness';

/** Every LLM judge scorer, each with the options it needs. */
export const EVERY_JUDGE = [
  '  llmrater: {model_config: judge.yaml}',
  '  analytics_scorer: {model_config: judge.yaml}',
  '  goal_completion: {model_config: judge.yaml, include_tool_calls: true}',
  '  behavioral_metrics: {model_config: judge.yaml}',
  '  parameter_analysis: {model_config: judge.yaml}',
  '  binary_rubric_scorer: {model_config: judge.yaml}',
  '  llm_consistency: {model_config: judge.yaml}',
  '  skills_best_practices: {model_config: judge.yaml, skills_dir: .}',
].join('\n');

describe('LLM judges and workspace trust', () => {
  let fixture: JudgeFixture;
  before(async () => {
    fixture = await judgeFixture({ fallback: () => ({ text: '{"verdict": "PASS"}' }) });
  });
  after(async () => {
    await fixture.close();
  });

  it('skips every judge in an untrusted workspace with "workspace is not trusted", and no socket is opened', async () => {
    const cases = [
      {
        id: 'a',
        input: 'q',
        output: 'x',
        trials: [{ output: 'x' }, { output: 'y' }],
        metadata: { binary_rubric: ['r1', 'r2'] },
        trace: { steps: [{ type: 'skill', name: 's' }] },
      },
    ];
    const config = loadConfig(
      fixture.dir,
      configYaml(`${EVERY_JUDGE}\n  contains: {value: x}`, cases, 'num_trials: 2\n'),
    );
    const { results } = await runConfig(config, { trusted: false });
    const judges = results.filter((r) => r.scorer !== 'contains');
    assert.equal(new Set(judges.map((r) => r.scorer)).size, 8);
    assert.ok(judges.every((r) => r.status === 'skipped' && r.reason === UNTRUSTED_REASON));
    // 7 per-trial judges × 2 trials, and llm_consistency once (trial 0).
    assert.equal(judges.length, 15);
    assert.deepEqual(
      results.filter((r) => r.scorer === 'contains').map((r) => r.status),
      ['pass', 'fail'],
      'scorers that reach nothing still run',
    );
    assert.equal(fixture.server.connections(), 0);
    assert.equal(fixture.server.requests.length, 0);
  });

  it('makes a missing or malformed model config a load error on the option, naming the file, line and column', () => {
    writeFileSync(join(fixture.dir, 'bad.yaml'), 'provider: openai\nmodel: m\ntemperature: hot\n');
    const file = join(fixture.dir, 'run.eval.yaml');
    const yaml =
      'cases: [{id: a, output: x}]\nscorers:\n  goal_completion: {model_config: bad.yaml}\n  behavioral_metrics: {model_config: nowhere.yaml}\n';
    const parsed = parseRunConfig(yaml, file, ENV, { fileExists: existsSync });
    assert.equal(parsed.config, undefined);
    assert.deepEqual(
      parsed.problems.map((p) => `${p.range.start.line + 1}:${p.range.start.column + 1} ${p.message}`),
      [
        `3:35 goal_completion: the model config is not valid: ${join(fixture.dir, 'bad.yaml')}:3:14: \`temperature\` must be a number, not the string "hot"`,
        `4:38 behavioral_metrics: the file ${join(fixture.dir, 'nowhere.yaml')} (model_config) does not exist (paths are relative to the config's folder)`,
      ],
    );
    assert.equal(fixture.server.connections(), 0, 'loading a config never connects');
  });

  it("refuses a judge's threshold off EvalBench's 0–100 scale, on the threshold", () => {
    writeFileSync(
      join(fixture.dir, 'judge-ok.yaml'),
      `provider: openai\nmodel: m\nbase_url: ${fixture.server.openAiBaseUrl}\n`,
    );
    const yaml =
      'cases: [{id: a, output: x}]\nscorers:\n  goal_completion: {model_config: judge-ok.yaml, threshold: 150}\n';
    const parsed = parseRunConfig(yaml, join(fixture.dir, 'threshold.eval.yaml'), ENV, { fileExists: existsSync });
    assert.deepEqual(
      parsed.problems.map((p) => `${p.range.start.line + 1}:${p.range.start.column + 1} ${p.message}`),
      [
        "3:61 goal_completion: the threshold must lie between 0 and 100: goal_completion scores from 0 to 100 (EvalBench's scale)",
      ],
    );
  });

  it("finds an EvalBench config's model_config from the repository root, as EvalBench (run from its root) does", () => {
    const root = mkdtempSync(join(tmpdir(), 'evallens-evalbench-root-'));
    try {
      mkdirSync(join(root, 'datasets', 'model_configs'), { recursive: true });
      mkdirSync(join(root, 'datasets', 'configs'), { recursive: true });
      writeFileSync(
        join(root, 'datasets', 'model_configs', 'judge.yaml'),
        `provider: openai\nmodel: m\nbase_url: ${fixture.server.openAiBaseUrl}\napi_key_env: JUDGE_KEY\n`,
      );
      writeFileSync(join(root, 'datasets', 'configs', 'cases.json'), '[]');
      const text =
        'dataset_config: datasets/configs/cases.json\nscorers:\n  goal_completion: {model_config: datasets/model_configs/judge.yaml}\n';
      const evalbench = parseRunConfig(text, join(root, 'datasets', 'configs', 'run.yaml'), ENV, {
        fileExists: existsSync,
      });
      assert.deepEqual(
        evalbench.problems.filter((p) => p.severity === 'error').map((p) => p.message),
        [],
      );
      // An EvalLens config keeps paths relative to its own folder.
      const own = parseRunConfig(
        'cases: [{id: a, output: x}]\nscorers:\n  goal_completion: {model_config: datasets/model_configs/judge.yaml}\n',
        join(root, 'datasets', 'configs', 'run.eval.yaml'),
        ENV,
        { fileExists: existsSync },
      );
      assert.equal(own.problems.find((p) => p.severity === 'error')?.code, 'missing-file');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
