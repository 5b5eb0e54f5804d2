import { anthropicUsage } from '../usage';
import { anthropicText, pathSegment, userText, type Provider } from './provider';

/** The body version Vertex AI's Anthropic endpoint requires in place of the `anthropic-version` header. */
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

/**
 * Claude on Vertex AI: `POST <host>/v1/projects/{project}/locations/{location}/publishers/anthropic/models/{model}:rawPredict`
 * with a Google access token; the body is Anthropic's messages body without `model` (the URL names it).
 */
export const vertexClaudeProvider: Provider = {
  request(config, prompt, credential) {
    const path = `/v1/projects/${pathSegment(config.project ?? '')}/locations/${pathSegment(config.location ?? '')}/publishers/anthropic/models/${pathSegment(config.model)}:rawPredict`;
    return {
      url: `${config.baseUrl}${path}`,
      headers: {
        'content-type': 'application/json',
        ...config.headers,
        ...(credential.kind === 'bearer' ? { authorization: `Bearer ${credential.value}` } : {}),
      },
      body: {
        anthropic_version: VERTEX_ANTHROPIC_VERSION,
        max_tokens: config.maxTokens,
        temperature: config.temperature,
        ...(prompt.system === undefined ? {} : { system: prompt.system }),
        messages: [{ role: 'user', content: userText(config, prompt) }],
      },
    };
  },
  answer: anthropicText,
  usage: anthropicUsage,
};
