import { anthropicUsage } from '../usage';
import { anthropicText, userText, type Provider } from './provider';

/** Anthropic's messages API: `POST <base_url>/v1/messages` with `x-api-key` and `anthropic-version`. */
export const anthropicProvider: Provider = {
  request(config, prompt, credential) {
    return {
      url: `${config.baseUrl}/v1/messages`,
      headers: {
        'content-type': 'application/json',
        'anthropic-version': config.anthropicVersion,
        ...config.headers,
        ...(credential.kind === 'key' ? { 'x-api-key': credential.value } : {}),
      },
      body: {
        model: config.model,
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
