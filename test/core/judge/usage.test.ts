import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { anthropicUsage, generateContentUsage, openAiUsage } from '../../../core/judge/usage';
import { SpendMeter } from '../../../core/judge/budget';
import type { ModelConfig } from '../../../core/judge/modelConfig';

describe("token usage from each provider's response", () => {
  it('reads OpenAI usage, Anthropic usage and Gemini usageMetadata (thinking billed as output)', () => {
    assert.deepEqual(openAiUsage({ usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 } }), {
      inputTokens: 12,
      outputTokens: 3,
    });
    assert.deepEqual(anthropicUsage({ usage: { input_tokens: 20, output_tokens: 7 } }), {
      inputTokens: 20,
      outputTokens: 7,
    });
    assert.deepEqual(
      generateContentUsage({
        usageMetadata: { promptTokenCount: 30, candidatesTokenCount: 5, thoughtsTokenCount: 40 },
      }),
      { inputTokens: 30, outputTokens: 45 },
    );
  });

  it('counts nothing from a response without usage or with malformed figures', () => {
    assert.equal(openAiUsage({ choices: [] }), undefined);
    assert.equal(anthropicUsage({ usage: { input_tokens: 'many', output_tokens: -1 } }), undefined);
    assert.equal(generateContentUsage({ usageMetadata: null }), undefined);
  });
});

describe('the spend meter', () => {
  const priced = { file: 'p.yaml', pricePerMillionInputTokens: 2, pricePerMillionOutputTokens: 8 } as ModelConfig;

  it('never admits more calls than --max-judge-calls; a call that sent nothing gives its place back', () => {
    const meter = new SpendMeter({ maxJudgeCalls: 2 });
    assert.equal(meter.admit(priced), undefined);
    assert.equal(meter.admit(priced), undefined);
    assert.match(meter.admit(priced) ?? '', /^budget reached: 2 judge calls made \(--max-judge-calls 2\)/);
    meter.release();
    assert.equal(meter.admit(priced), undefined);
    meter.addUsage(priced, { inputTokens: 1000, outputTokens: 500 });
    assert.deepEqual(meter.spend(1), {
      judge_calls: 2,
      input_tokens: 1000,
      output_tokens: 500,
      cost: 0.006,
      skipped_for_budget: 1,
      max_judge_calls: 2,
    });
  });

  it('with --max-cost, refuses an unpriced judge and any call once the cost is reached', () => {
    const meter = new SpendMeter({ maxCost: 0.01 });
    assert.match(
      meter.admit({ file: 'free.yaml', pricePerMillionInputTokens: 2 } as ModelConfig) ?? '',
      /free\.yaml has no price/,
    );
    assert.equal(meter.admit(priced), undefined);
    meter.addUsage(priced, { inputTokens: 1000, outputTokens: 500 });
    assert.equal(meter.admit(priced), undefined);
    meter.addUsage(priced, { inputTokens: 0, outputTokens: 1000 });
    assert.match(meter.admit(priced) ?? '', /^budget reached: 0\.014 spent \(--max-cost 0\.01\)/);
  });

  it('says the cost only when every call was priced', () => {
    const meter = new SpendMeter();
    meter.admit({ file: 'free.yaml' } as ModelConfig);
    assert.deepEqual(meter.spend(0), {
      judge_calls: 1,
      input_tokens: 0,
      output_tokens: 0,
      unpriced_model_configs: ['free.yaml'],
      skipped_for_budget: 0,
    });
  });
});
