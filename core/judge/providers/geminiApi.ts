import { generateContentUsage } from '../usage';
import { generateContentAnswer, generateContentBody } from './generateContent';
import { pathSegment, type Provider } from './provider';

/** The Gemini API: `POST <base_url>/v1beta/models/{model}:generateContent` with the key in `x-goog-api-key`. */
export const geminiApiProvider: Provider = {
  request(config, prompt, credential) {
    return {
      url: `${config.baseUrl}/v1beta/models/${pathSegment(config.model)}:generateContent`,
      headers: {
        'content-type': 'application/json',
        ...config.headers,
        ...(credential.kind === 'key' ? { 'x-goog-api-key': credential.value } : {}),
      },
      body: generateContentBody(config, prompt),
    };
  },
  answer: generateContentAnswer,
  usage: generateContentUsage,
};
