import { openAiUsage } from '../usage';
import { field, userText, type Provider } from './provider';

/** OpenAI chat completions, which OpenAI, vLLM, Ollama and llama.cpp serve: `POST <base_url>/chat/completions`. */
export const openAiProvider: Provider = {
  request(config, prompt, credential) {
    const messages = [
      ...(prompt.system === undefined ? [] : [{ role: 'system', content: prompt.system }]),
      { role: 'user', content: userText(config, prompt) },
    ];
    return {
      url: `${config.baseUrl}/chat/completions`,
      headers: {
        'content-type': 'application/json',
        ...config.headers,
        ...(credential.kind === 'key' ? { authorization: `Bearer ${credential.value}` } : {}),
      },
      body: { model: config.model, messages, temperature: config.temperature, max_tokens: config.maxTokens },
    };
  },
  answer(json) {
    const content = field(field(field(field(json, 'choices'), 0), 'message'), 'content');
    return typeof content === 'string'
      ? { text: content }
      : {
          reason:
            "the judge's response has no answer text where the chat-completions protocol puts it (choices[0].message.content)",
        };
  },
  usage: openAiUsage,
};
