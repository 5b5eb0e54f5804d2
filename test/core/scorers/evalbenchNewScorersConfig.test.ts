import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseRunConfig } from '../../../core/config/parseRunConfig';
import { openDataset } from '../../../core/dataset/open';
import { runEval } from '../../../core/runner/run';

const FILE = join(__dirname, '..', '..', 'fixtures', 'evalbench', 'run.eval.yaml');

// The scorers block of EvalBench's newer run configs (datasets/mcp_readability/run_config.yaml,
// datasets/mcp-compliance/example_run_config.yaml, agent configs with token scorers), in an EvalBench
// config (it has `dataset_config`).
const CONFIG = `dataset_config: datasets/agent/evalset.json
dataset_format: gemini-cli-format
scorers:
  non_final_output_tokens: {}
  mcp_tool_metrics:
    token_budget: 200000
  mcp_token_cost: {}
  mcp_compliance_check: {}
  mcp_style_readability:
    model_config: datasets/model_configs/gemini_2.5_pro_model.yaml
    style_guide: datasets/mcp_readability/style_guide.md
`;

describe('the newer EvalBench scorers in an EvalBench run config', () => {
  it('runs non_final_output_tokens, mcp_tool_metrics, mcp_token_cost and mcp_compliance_check, and leaves the LLM-judged mcp_style_readability out with a notice', () => {
    const parsed = parseRunConfig(CONFIG, FILE, {});
    const notices = parsed.problems.map((p) => `${p.range.start.line + 1} ${p.severity} ${p.code}`);
    assert.deepEqual(notices, ['9 information evalbench-scorer-not-run']);
    assert.deepEqual(
      parsed.config?.scorers.map((s) => [s.name, s.options['token_budget'] ?? null]),
      [
        ['non_final_output_tokens', null],
        ['mcp_tool_metrics', 200000],
        ['mcp_token_cost', null],
        ['mcp_compliance_check', null],
      ],
    );
  });
});

describe('non_final_output_tokens in an EvalBench run over recorded Gemini CLI conversations', () => {
  it('scores each recorded scenario of the evalset as EvalBench does', async () => {
    const yaml =
      'dataset_config: recordings/non-final-output.json\ndataset_format: gemini-cli-format\nscorers:\n  non_final_output_tokens: {}\n';
    const parsed = parseRunConfig(yaml, FILE, {}, { fileExists: existsSync });
    assert.deepEqual(parsed.problems, []);
    assert.ok(parsed.config !== undefined && parsed.datasetSource !== undefined);
    const scores: { [id: string]: unknown } = {};
    await runEval(parsed.config, openDataset(parsed.datasetSource), {
      runId: 'r1',
      concurrency: 1,
      onEvent: (event) => {
        if (event.type === 'result')
          scores[event.result.caseId] = event.result.status === 'measured' ? event.result.score : event.result.status;
      },
    });
    // Worked out in nonFinalOutputTokens.test.ts: 352 − 30 (+ 0 + 0), 150 − 2, 50 − 1; no conversation: unsupported.
    assert.deepEqual(scores, {
      'verbose-table': 322,
      'terse-reply': 148,
      'emoji-reply': 49,
      'no-history': 'unsupported',
    });
  });
});
