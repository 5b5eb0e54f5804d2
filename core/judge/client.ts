import type { GoogleTokenSource } from './googleCredentials';
import { usesGoogleCredentials, type ModelConfig, type ProviderName } from './modelConfig';
import { anthropicProvider } from './providers/anthropic';
import { geminiApiProvider } from './providers/geminiApi';
import { openAiProvider } from './providers/openAi';
import type { Credential, Provider } from './providers/provider';
import { vertexClaudeProvider } from './providers/vertexClaude';
import { vertexGeminiProvider } from './providers/vertexGemini';
import { parseRetryAfter, type AttemptOutcome } from './retry';
import { readBodyCapped } from '../text/responseBody';
import { maskSecretText, maskThenCut, readSecretEnv, rememberSecret } from '../../shared/text/secretMask';
import { parseJson } from '../text/jsonDepth';
import type { TokenUsage } from './usage';

/**
 * Most bytes of a judge's response read (answers and API errors are a few kilobytes): past it the
 * request is ended and the call fails saying so, so a server streaming an endless body cannot fill memory.
 */
export const JUDGE_RESPONSE_CAP_BYTES = 4 * 1024 * 1024;

/** What a judge is asked: an optional system instruction and one user message. */
export interface JudgePrompt {
  readonly system?: string;
  readonly user: string;
}

export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string; signal: AbortSignal },
) => Promise<Response>;

const PROVIDERS: Readonly<Record<ProviderName, Provider>> = {
  openai: openAiProvider,
  anthropic: anthropicProvider,
  gemini: geminiApiProvider,
  vertex_gemini: vertexGeminiProvider,
  vertex_anthropic: vertexClaudeProvider,
};

export interface CallContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly fetch: FetchLike;
  readonly now: () => number;
  readonly signal: AbortSignal;
  readonly googleToken: GoogleTokenSource;
  /** Waits for the rate limit's turn (once the credentials are known); a reason when it was stopped instead. */
  readonly waitTurn?: () => Promise<string | undefined>;
  /** Told just before a request is sent (a judge call that sends none was not made, for a budget). */
  readonly onRequest?: () => void;
  /** Told the tokens a response says its request used (a spend meter adds them up). */
  readonly onUsage?: (usage: TokenUsage) => void;
}

/**
 * One HTTP request to the judge's model, in its provider's protocol. The key (read from the
 * environment here, at call time) or the Google access token goes only into the request's header:
 * every text that could quote it is masked, and a 401/403 is said without the API's message.
 * Missing credentials are `skipped`: the judge is not called and the reason says what is missing.
 */
export async function requestCompletion(
  config: ModelConfig,
  prompt: JudgePrompt,
  context: CallContext,
): Promise<AttemptOutcome<string>> {
  const credential = await credentialFor(config, context);
  if ('skipped' in credential) return { kind: 'skipped', reason: credential.skipped };
  if ('failed' in credential) return { kind: 'failed', reason: credential.failed };
  const stopped = await context.waitTurn?.();
  if (stopped !== undefined) return { kind: 'failed', reason: stopped };
  // Every value a reason or an answer must not show: the credential, the project, and the endpoint's user-info and query values.
  const secrets = [
    credential.kind === 'none' ? undefined : credential.value,
    usesGoogleCredentials(config) ? config.project : undefined,
  ];
  const provider = PROVIDERS[config.provider];
  const { url, headers, body } = provider.request(config, prompt, credential);
  secrets.push(...urlSecrets(url));
  const timeout = AbortSignal.timeout(config.timeoutMs);
  const signal = AbortSignal.any([context.signal, timeout]);
  let response: Response;
  let text: string;
  try {
    context.onRequest?.();
    response = await context.fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal });
    const read = await readBodyCapped(response, JUDGE_RESPONSE_CAP_BYTES);
    if (!read.ok)
      return {
        kind: 'failed',
        reason: `the judge's response (HTTP ${response.status}) is larger than ${JUDGE_RESPONSE_CAP_BYTES} bytes (the cap on a judge's response); the request was ended after ${read.readBytes} bytes`,
      };
    text = read.text;
  } catch (e) {
    if (context.signal.aborted) return { kind: 'failed', reason: 'the judge call was stopped' };
    if (timeout.aborted)
      return {
        kind: 'retry',
        reason: `the judge did not answer within ${config.timeoutMs} ms (timeout_ms of ${config.file})`,
      };
    return {
      kind: 'retry',
      reason: `cannot reach the judge at ${where(config, url)}: ${maskSecretText(networkReason(e), secrets)}`,
    };
  }
  const status = response.status;
  if (status === 429 || status >= 500) {
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), Date.now());
    const reason = `the judge answered HTTP ${status}${status === 429 ? ' (rate limited)' : ''}`;
    return retryAfterMs === undefined ? { kind: 'retry', reason } : { kind: 'retry', reason, retryAfterMs };
  }
  if (status === 401 || status === 403) {
    // Said without the API's message: providers quote part of the key they refused.
    return { kind: 'failed', reason: `the judge refused the request (HTTP ${status}): ${refusalHint(config)}` };
  }
  if (status < 200 || status >= 300) {
    // Vertex's messages name the project, which may come from the environment: masked like the credential.
    const projectMasked =
      usesGoogleCredentials(config) && config.project !== undefined && config.project !== ''
        ? text.split(config.project).join('<project>')
        : text;
    return { kind: 'failed', reason: `the judge answered HTTP ${status}${apiError(projectMasked, secrets)}` };
  }
  let json: unknown;
  try {
    json = parseJson(text);
  } catch {
    return { kind: 'failed', reason: `the judge's HTTP response is not JSON (${text.length} characters)` };
  }
  const usage = provider.usage(json);
  if (usage !== undefined) context.onUsage?.(usage);
  const answer = provider.answer(json);
  // A judge can echo what it was sent: its answer (kept in details) is masked like any reason.
  return 'text' in answer
    ? { kind: 'done', value: maskSecretText(answer.text, secrets) }
    : { kind: 'failed', reason: maskSecretText(answer.reason, secrets) };
}

type CredentialOutcome = Credential | { readonly skipped: string } | { readonly failed: string };

async function credentialFor(config: ModelConfig, context: CallContext): Promise<CredentialOutcome> {
  const help = config.credentialsHelp === undefined ? '' : ` (${config.credentialsHelp})`;
  if (usesGoogleCredentials(config)) {
    if (config.project === undefined || config.location === undefined)
      return { skipped: `missing settings for ${config.model} on Vertex AI${help}` };
    const token = await context.googleToken(context.env, config.project);
    if (token.kind === 'missing')
      return { skipped: `missing credentials for ${config.model} on Vertex AI: ${token.reason}` };
    if (token.kind === 'failed') return { failed: token.reason };
    rememberSecret(token.token);
    return { kind: 'bearer', value: token.token };
  }
  if (config.apiKeyEnv === undefined) return { kind: 'none' };
  const key = readSecretEnv(context.env, config.apiKeyEnv);
  if (key === undefined || key === '')
    return {
      skipped: `missing credentials for ${config.model}: the environment variable ${config.apiKeyEnv} is not set (model config ${config.file})${help}`,
    };
  return { kind: 'key', value: key };
}

function refusalHint(config: ModelConfig): string {
  if (usesGoogleCredentials(config))
    return `check that the Google account of the application-default credentials may use ${config.model} on Vertex AI in the project of ${config.file}`;
  return config.apiKeyEnv === undefined ? 'no key was sent (set api_key_env)' : `check the key in ${config.apiKeyEnv}`;
}

/**
 * The API's own error message (OpenAI, Anthropic and Google all send `{error: {message}}`), masked and
 * then shortened: masked after JSON decoding (a key written with \u escapes is the key again) and
 * before the cut (a key across the cut would otherwise survive in part).
 */
function apiError(text: string, secrets: readonly (string | undefined)[]): string {
  try {
    const parsed: unknown = parseJson(text);
    const error: unknown = Array.isArray(parsed) ? parsed[0] : parsed;
    const message = (error as { error?: { message?: unknown } } | null)?.error?.message;
    if (typeof message === 'string' && message !== '') return `: ${maskThenCut(message, 200, secrets)}`;
  } catch {
    // Not JSON: the status says enough.
  }
  return '';
}

/** The user name, password and query values of a URL: each may be a key. */
function urlSecrets(url: string): string[] {
  try {
    const parsed = new URL(url);
    return [
      parsed.username,
      parsed.password,
      decodeURIComponent(parsed.username),
      decodeURIComponent(parsed.password),
      ...[...parsed.searchParams.values()],
    ];
  } catch {
    return [];
  }
}

/**
 * Where the judge is, as a reason may say it: origin and path only (user-info and a query can carry a
 * key); for Vertex AI not the URL, whose project and region may come from the environment.
 */
function where(config: ModelConfig, url: string): string {
  if (usesGoogleCredentials(config)) return `Vertex AI (model config ${config.file})`;
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return `the base_url of ${config.file}`;
  }
}

function networkReason(e: unknown): string {
  const cause = e instanceof Error && e.cause instanceof Error ? e.cause : e;
  const code =
    typeof cause === 'object' && cause !== null && 'code' in cause
      ? String((cause as { code: unknown }).code)
      : undefined;
  return code ?? (cause instanceof Error ? cause.message : String(cause));
}
