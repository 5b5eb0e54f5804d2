import { isObject } from '../../shared/isObject';

/** The tokens one judge request was billed for, as the provider's response says. */
export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/**
 * Where each protocol reports what a request used: OpenAI's chat completions `usage.prompt_tokens`
 * and `usage.completion_tokens`; Anthropic's messages API (and Claude on Vertex) `usage.input_tokens`
 * and `usage.output_tokens`; Gemini's generateContent `usageMetadata.promptTokenCount` and
 * `candidatesTokenCount` plus `thoughtsTokenCount` (thinking is billed as output). Absent or malformed
 * figures count as no usage reported, never as a guess.
 */
export function openAiUsage(json: unknown): TokenUsage | undefined {
  const usage = isObject(json) ? json['usage'] : undefined;
  return isObject(usage) ? usageOf(usage['prompt_tokens'], usage['completion_tokens']) : undefined;
}

export function anthropicUsage(json: unknown): TokenUsage | undefined {
  const usage = isObject(json) ? json['usage'] : undefined;
  return isObject(usage) ? usageOf(usage['input_tokens'], usage['output_tokens']) : undefined;
}

export function generateContentUsage(json: unknown): TokenUsage | undefined {
  const usage = isObject(json) ? json['usageMetadata'] : undefined;
  if (!isObject(usage)) return undefined;
  const thoughts = count(usage['thoughtsTokenCount']) ?? 0;
  const candidates = count(usage['candidatesTokenCount']);
  return usageOf(usage['promptTokenCount'], candidates === undefined ? undefined : candidates + thoughts);
}

function usageOf(input: unknown, output: unknown): TokenUsage | undefined {
  const inputTokens = count(input);
  const outputTokens = count(output);
  if (inputTokens === undefined && outputTokens === undefined) return undefined;
  return { inputTokens: inputTokens ?? 0, outputTokens: outputTokens ?? 0 };
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}
