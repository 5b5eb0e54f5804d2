import type { ModelConfig } from './modelConfig';

/**
 * Where a Google credential may go. A Google access token opens every Google Cloud API the person
 * can use, and a Gemini key bills them: neither is sent to a host a config file chose unless it is
 * Google's own (`https://*.googleapis.com`) or this machine (a loopback address: a local proxy or a
 * test double). Any other `base_url` for those providers is a load error, before any request.
 */
export function endpointProblem(config: Pick<ModelConfig, 'provider' | 'baseUrl'>): string | undefined {
  if (config.provider !== 'gemini' && config.provider !== 'vertex_gemini' && config.provider !== 'vertex_anthropic')
    return undefined;
  let url: URL;
  try {
    url = new URL(config.baseUrl);
  } catch {
    return `base_url is not a URL (expected e.g. https://…googleapis.com; the value is not shown, as it may hold a key)`;
  }
  if (isLoopback(url.hostname)) return undefined;
  if (url.protocol === 'https:' && (url.hostname === 'googleapis.com' || url.hostname.endsWith('.googleapis.com')))
    return undefined;
  return `base_url must be an https://…googleapis.com address or a loopback address (127.0.0.1, [::1], localhost) for provider ${config.provider}: Google credentials are sent there; saw ${url.protocol}//${url.host}`;
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
