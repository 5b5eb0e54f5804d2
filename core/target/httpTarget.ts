import type { EvalCase } from '../case';
import { readBodyCapped } from '../text/responseBody';
import { maskThenCut } from '../../shared/text/secretMask';
import type { HttpTargetConfig } from './targetConfig';
import { casePayload, parseTemplate, renderJson, renderText, type TemplatePart, type TemplateScope } from './template';

/** Most bytes of a response body read: a larger answer is an error. */
export const RESPONSE_CAP_BYTES = 10 * 1024 * 1024;
/** Most characters of a status text a reason quotes (the server chooses it). */
const STATUS_TEXT_CHARS = 100;

/**
 * Calls an HTTP target for one case (Node's fetch) and resolves with the response body as text.
 * Rejects with an Error a person can read: the endpoint unreachable, a non-2xx status (its code and
 * status text; the body stays out of the reason, as any payload does), a body over the cap. Header
 * values, which may hold secrets, appear in no message; the URL is shown without its query.
 */
export async function callHttpTarget(
  config: HttpTargetConfig,
  evalCase: EvalCase,
  options: { env: Readonly<Record<string, string | undefined>>; signal: AbortSignal },
): Promise<string> {
  const scope: TemplateScope = { fields: casePayload(evalCase), env: options.env };
  const url = renderText(templateParts(config.url, false), scope, encodeURIComponent);
  const headers = new Headers();
  // What no reason may show: every header value (they carry {{env.…}} keys) and the URL's user-info and query.
  const secrets: string[] = [...urlSecrets(url)];
  for (const [name, template] of Object.entries(config.headers)) {
    const value = renderText(templateParts(template, true), scope);
    if (/[\r\n\0]/.test(value))
      throw new Error(`the value of header ${name} has a line break or a NUL character, which HTTP does not allow`);
    headers.set(name, value);
    secrets.push(value, ...value.split(/\s+/));
  }
  let body: string | undefined;
  if (config.method !== 'GET') {
    const rendered = config.body === undefined ? scope.fields : renderJson(config.body, scope);
    body = typeof rendered === 'string' ? rendered : JSON.stringify(rendered);
    if (!headers.has('content-type'))
      headers.set('content-type', typeof rendered === 'string' ? 'text/plain; charset=utf-8' : 'application/json');
  }
  let response: Response;
  try {
    response = await fetch(url, {
      method: config.method,
      headers,
      ...(body === undefined ? {} : { body }),
      signal: options.signal,
    });
  } catch (e) {
    if (options.signal.aborted) throw e;
    throw new Error(
      `the target at ${shownUrl(url)} could not be reached: ${maskThenCut(causeOf(e), STATUS_TEXT_CHARS * 2, secrets)}`,
    );
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    // The server chooses the status text and may echo a header: masked, then cut.
    const statusText = maskThenCut(response.statusText, STATUS_TEXT_CHARS, secrets);
    throw new Error(
      `the target at ${shownUrl(url)} answered HTTP ${response.status}${statusText === '' ? '' : ` ${statusText}`}`,
    );
  }
  return readCapped(response);
}

function templateParts(template: string, allowEnv: boolean): TemplatePart[] {
  const parsed = parseTemplate(template, allowEnv);
  // Every template was checked when the config loaded; this is for a config built another way.
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.parts;
}

/** The body as UTF-8 text, reading at most RESPONSE_CAP_BYTES (the request is ended past it). */
async function readCapped(response: Response): Promise<string> {
  const body = await readBodyCapped(response, RESPONSE_CAP_BYTES);
  if (!body.ok)
    throw new Error(
      `the target's response is larger than ${RESPONSE_CAP_BYTES} bytes (the cap on an HTTP target's response); the rest was not read`,
    );
  return body.text;
}

/** The user name, password and query values of a URL: each may be a key. */
function urlSecrets(url: string): string[] {
  try {
    const parsed = new URL(url);
    return [parsed.username, parsed.password, ...parsed.searchParams.values()];
  } catch {
    return [];
  }
}

/** Origin and path: a query or user info may carry a key, so they are not shown. */
function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return 'its URL';
  }
}

/** Why fetch failed: undici says "fetch failed" and puts the reason (ECONNREFUSED …) in `cause`. */
function causeOf(e: unknown): string {
  const cause = e instanceof Error && e.cause instanceof Error ? e.cause : e;
  return cause instanceof Error ? cause.message : String(cause);
}
