import type { JudgePrompt } from '../client';
import type { ModelConfig } from '../modelConfig';
import type { TokenUsage } from '../usage';
import { isObject } from '../../../shared/isObject';

/** What a request carries to prove who asks: nothing (a local server), an API key, or a Google access token. */
export type Credential =
  | { readonly kind: 'none' }
  | { readonly kind: 'key'; readonly value: string }
  | { readonly kind: 'bearer'; readonly value: string };

export interface ProviderRequest {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

/**
 * One protocol: how a prompt becomes an HTTP request and where the answer's text is in the response.
 * Retries, rate limits, time limits and status handling are shared (client.ts), not per provider.
 */
export interface Provider {
  request(config: ModelConfig, prompt: JudgePrompt, credential: Credential): ProviderRequest;
  /** The answer's text, or why there is none (said without quoting the response). */
  answer(json: unknown): { readonly text: string } | { readonly reason: string };
  /** The tokens the response says the request used (core/judge/usage.ts), if it says. */
  usage(json: unknown): TokenUsage | undefined;
}

/** The prompt's user text with EvalBench's `base_prompt` before it, as EvalBench sends it. */
export function userText(config: ModelConfig, prompt: JudgePrompt): string {
  return config.basePrompt === undefined ? prompt.user : config.basePrompt + prompt.user;
}

export function field(value: unknown, key: string | number): unknown {
  if (typeof key === 'number') return Array.isArray(value) ? (value[key] as unknown) : undefined;
  return isObject(value) ? value[key] : undefined;
}

/** Anthropic's content blocks (messages API and Vertex rawPredict): the text blocks joined. */
export function anthropicText(json: unknown): { readonly text: string } | { readonly reason: string } {
  const content = field(json, 'content');
  const texts = Array.isArray(content)
    ? content.flatMap((block: unknown) =>
        field(block, 'type') === 'text' && typeof field(block, 'text') === 'string'
          ? [field(block, 'text') as string]
          : [],
      )
    : [];
  return texts.length === 0
    ? { reason: "the judge's response has no answer text where the messages API puts it (content[].text)" }
    : { text: texts.join('') };
}

/** A URL path segment; `@` stays as it is (Vertex names model versions `claude-…@20241022`). */
export function pathSegment(value: string): string {
  return encodeURIComponent(value).replace(/%40/g, '@');
}
