import type { ModelConfig } from './modelConfig';
import { parseRetryAfter, type AttemptOutcome } from './retry';

/** What a judge is asked: an optional system instruction and one user message. */
export interface JudgePrompt {
  readonly system?: string;
  readonly user: string;
}

export type FetchLike = (url: string, init: { method: string; headers: Record<string, string>; body: string; signal: AbortSignal }) => Promise<Response>;

/**
 * One HTTP request to the judge's model: OpenAI chat completions (`POST <base_url>/chat/completions`)
 * or Anthropic messages (`POST <base_url>/v1/messages`). The key is read from the environment here,
 * at call time, and goes only into the request's header: never into an outcome's reason.
 */
export async function requestCompletion(
  config: ModelConfig,
  prompt: JudgePrompt,
  context: { readonly env: Readonly<Record<string, string | undefined>>; readonly fetch: FetchLike; readonly now: () => number; readonly signal: AbortSignal },
): Promise<AttemptOutcome<string>> {
  const key = config.apiKeyEnv === undefined ? undefined : context.env[config.apiKeyEnv];
  if (config.apiKeyEnv !== undefined && (key === undefined || key === '')) {
    return { kind: 'failed', reason: `the environment variable ${config.apiKeyEnv} (api_key_env of ${config.file}) is not set` };
  }
  const { url, headers, body } = config.provider === 'anthropic' ? anthropicRequest(config, prompt, key) : openAiRequest(config, prompt, key);
  const timeout = AbortSignal.timeout(config.timeoutMs);
  const signal = AbortSignal.any([context.signal, timeout]);
  let response: Response;
  let text: string;
  try {
    response = await context.fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal });
    text = await response.text();
  } catch (e) {
    if (context.signal.aborted) return { kind: 'failed', reason: 'the judge call was stopped' };
    if (timeout.aborted) return { kind: 'retry', reason: `the judge did not answer within ${config.timeoutMs} ms (timeout_ms of ${config.file})` };
    return { kind: 'retry', reason: `cannot reach the judge at ${url}: ${networkReason(e)}` };
  }
  const status = response.status;
  if (status === 429 || status >= 500) {
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), Date.now());
    const reason = `the judge answered HTTP ${status}${status === 429 ? ' (rate limited)' : ''}`;
    return retryAfterMs === undefined ? { kind: 'retry', reason } : { kind: 'retry', reason, retryAfterMs };
  }
  if (status === 401 || status === 403) {
    // Said without the API's message: providers quote part of the key they refused.
    const which = config.apiKeyEnv === undefined ? 'no key was sent (set api_key_env)' : `check the key in ${config.apiKeyEnv}`;
    return { kind: 'failed', reason: `the judge refused the request (HTTP ${status}): ${which}` };
  }
  if (status < 200 || status >= 300) return { kind: 'failed', reason: `the judge answered HTTP ${status}${withoutKey(apiError(text), key)}` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'failed', reason: `the judge's HTTP response is not JSON (${text.length} characters)` };
  }
  const answer = config.provider === 'anthropic' ? anthropicText(json) : openAiText(json);
  return answer === undefined
    ? { kind: 'failed', reason: `the judge's response has no answer text where the ${config.provider === 'anthropic' ? 'messages API puts it (content[].text)' : 'chat-completions protocol puts it (choices[0].message.content)'}` }
    : { kind: 'done', value: answer };
}

function openAiRequest(config: ModelConfig, prompt: JudgePrompt, key: string | undefined) {
  const messages = [...(prompt.system === undefined ? [] : [{ role: 'system', content: prompt.system }]), { role: 'user', content: prompt.user }];
  return {
    url: `${config.baseUrl}/chat/completions`,
    headers: { 'content-type': 'application/json', ...config.headers, ...(key === undefined ? {} : { authorization: `Bearer ${key}` }) },
    body: { model: config.model, messages, temperature: config.temperature, max_tokens: config.maxTokens },
  };
}

function anthropicRequest(config: ModelConfig, prompt: JudgePrompt, key: string | undefined) {
  return {
    url: `${config.baseUrl}/v1/messages`,
    headers: { 'content-type': 'application/json', 'anthropic-version': config.anthropicVersion, ...config.headers, ...(key === undefined ? {} : { 'x-api-key': key }) },
    body: {
      model: config.model,
      max_tokens: config.maxTokens,
      temperature: config.temperature,
      ...(prompt.system === undefined ? {} : { system: prompt.system }),
      messages: [{ role: 'user', content: prompt.user }],
    },
  };
}

function openAiText(json: unknown): string | undefined {
  const choice = field(field(json, 'choices'), 0);
  const content = field(field(choice, 'message'), 'content');
  return typeof content === 'string' ? content : undefined;
}

function anthropicText(json: unknown): string | undefined {
  const content = field(json, 'content');
  if (!Array.isArray(content)) return undefined;
  const texts = content.flatMap((block: unknown) => (field(block, 'type') === 'text' && typeof field(block, 'text') === 'string' ? [field(block, 'text') as string] : []));
  return texts.length === 0 ? undefined : texts.join('');
}

/** The API's own error message (OpenAI and Anthropic both send `{error: {message}}`), shortened. */
function apiError(text: string): string {
  try {
    const message = field(field(JSON.parse(text), 'error'), 'message');
    if (typeof message === 'string' && message !== '') return `: ${message.length > 200 ? `${message.slice(0, 200)}…` : message}`;
  } catch {
    // Not JSON: the status says enough.
  }
  return '';
}

function withoutKey(text: string, key: string | undefined): string {
  return key === undefined || key === '' ? text : text.split(key).join('<key>');
}

function networkReason(e: unknown): string {
  const cause = e instanceof Error && e.cause instanceof Error ? e.cause : e;
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? String((cause as { code: unknown }).code) : undefined;
  return code ?? (cause instanceof Error ? cause.message : String(cause));
}

function field(value: unknown, key: string | number): unknown {
  if (typeof key === 'number') return Array.isArray(value) ? (value[key] as unknown) : undefined;
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
}
