import type { JudgePrompt } from '../client';
import type { ModelConfig } from '../modelConfig';
import { field, userText } from './provider';

/** The `generateContent` body Gemini takes on both the Gemini API and Vertex AI. */
export function generateContentBody(config: ModelConfig, prompt: JudgePrompt): unknown {
  return {
    contents: [{ role: 'user', parts: [{ text: userText(config, prompt) }] }],
    ...(prompt.system === undefined ? {} : { systemInstruction: { parts: [{ text: prompt.system }] } }),
    generationConfig: { temperature: config.temperature, maxOutputTokens: config.maxTokens },
  };
}

/** The first candidate's text parts, thoughts left out; a blocked prompt or a non-text finish says so. */
export function generateContentAnswer(json: unknown): { readonly text: string } | { readonly reason: string } {
  const candidate = field(field(json, 'candidates'), 0);
  const parts = field(field(candidate, 'content'), 'parts');
  const texts = Array.isArray(parts)
    ? parts.flatMap((p: unknown) =>
        typeof field(p, 'text') === 'string' && field(p, 'thought') !== true ? [field(p, 'text') as string] : [],
      )
    : [];
  if (texts.length > 0) return { text: texts.join('') };
  const blocked = field(field(json, 'promptFeedback'), 'blockReason');
  if (typeof blocked === 'string')
    return { reason: `the judge refused the prompt (promptFeedback.blockReason ${blocked})` };
  const finish = field(candidate, 'finishReason');
  const why = typeof finish === 'string' ? ` (finishReason ${finish})` : '';
  return {
    reason: `the judge's response has no answer text where generateContent puts it (candidates[0].content.parts[].text)${why}`,
  };
}
