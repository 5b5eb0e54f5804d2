import { generateContentUsage } from '../usage';
import { generateContentAnswer, generateContentBody } from './generateContent';
import { pathSegment, type Provider } from './provider';

/**
 * Gemini on Vertex AI: `POST <host>/v1/projects/{project}/locations/{location}/publishers/google/models/{model}:generateContent`
 * with a Google access token (the host is `{location}-aiplatform.googleapis.com`, or
 * `aiplatform.googleapis.com` for `global`).
 */
export const vertexGeminiProvider: Provider = {
  request(config, prompt, credential) {
    const path = `/v1/projects/${pathSegment(config.project ?? '')}/locations/${pathSegment(config.location ?? '')}/publishers/google/models/${pathSegment(config.model)}:generateContent`;
    return {
      url: `${config.baseUrl}${path}`,
      headers: {
        'content-type': 'application/json',
        ...config.headers,
        ...(credential.kind === 'bearer' ? { authorization: `Bearer ${credential.value}` } : {}),
      },
      body: generateContentBody(config, prompt),
    };
  },
  answer: generateContentAnswer,
  usage: generateContentUsage,
};
