import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A TEST DOUBLE of the hosted LLM APIs, which cannot run here: a real HTTP server on 127.0.0.1 that
 * speaks the OpenAI chat-completions protocol (`POST …/chat/completions`) and, on `POST /v1/messages`,
 * Anthropic's messages protocol. It records every request (method, path, headers, JSON body), counts
 * TCP connections, and answers from a script: a queue of answers, then a fallback function of the
 * request. An answer is the judge's text (wrapped in the protocol's response shape) or a raw HTTP
 * status (429 with `Retry-After`, 500, …). Nothing here is a model: the answers are what the test says.
 */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
  /** The user message's text (OpenAI: the last message's content; Anthropic: the same). */
  readonly prompt: string;
}

export type ScriptedAnswer =
  | {
      readonly text: string;
      /** Tokens the response says it used (OpenAI `usage`, Anthropic `usage`); absent: none said. */
      readonly usage?: { readonly input: number; readonly output: number };
    }
  | { readonly status: number; readonly headers?: Readonly<Record<string, string>>; readonly body?: string };

export interface FakeLlmServer {
  /** `http://127.0.0.1:<port>/v1`: the OpenAI `base_url`. */
  readonly openAiBaseUrl: string;
  /** `http://127.0.0.1:<port>`: the Anthropic `base_url`. */
  readonly anthropicBaseUrl: string;
  readonly requests: RecordedRequest[];
  /** TCP connections accepted so far. */
  connections(): number;
  /** Answers given in order, before the fallback. */
  enqueue(...answers: ScriptedAnswer[]): void;
  close(): Promise<void>;
}

export async function startFakeLlmServer(
  fallback: (request: RecordedRequest) => ScriptedAnswer = () => ({
    status: 500,
    body: '{"error":{"message":"no scripted answer"}}',
  }),
): Promise<FakeLlmServer> {
  const requests: RecordedRequest[] = [];
  const queue: ScriptedAnswer[] = [];
  let connections = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Kept as text: the test sees what was sent.
      }
      const path = req.url ?? '';
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path,
        headers: req.headers,
        body,
        prompt: lastUserText(body),
      };
      requests.push(recorded);
      const answer = queue.shift() ?? fallback(recorded);
      if ('status' in answer) {
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        res.end(answer.body ?? '{}');
        return;
      }
      const anthropic = path.endsWith('/v1/messages');
      const payload = anthropic
        ? {
            id: 'msg_test',
            type: 'message',
            role: 'assistant',
            content: [{ type: 'text', text: answer.text }],
            stop_reason: 'end_turn',
            ...(answer.usage === undefined
              ? {}
              : { usage: { input_tokens: answer.usage.input, output_tokens: answer.usage.output } }),
          }
        : {
            id: 'chatcmpl-test',
            object: 'chat.completion',
            choices: [{ index: 0, message: { role: 'assistant', content: answer.text }, finish_reason: 'stop' }],
            ...(answer.usage === undefined
              ? {}
              : {
                  usage: {
                    prompt_tokens: answer.usage.input,
                    completion_tokens: answer.usage.output,
                    total_tokens: answer.usage.input + answer.usage.output,
                  },
                }),
          };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    openAiBaseUrl: `http://127.0.0.1:${port}/v1`,
    anthropicBaseUrl: `http://127.0.0.1:${port}`,
    requests,
    connections: () => connections,
    enqueue: (...answers) => queue.push(...answers),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function lastUserText(body: unknown): string {
  if (typeof body !== 'object' || body === null) return '';
  const messages = (body as { messages?: unknown }).messages;
  if (!Array.isArray(messages)) return '';
  const last: unknown = messages[messages.length - 1];
  const content = typeof last === 'object' && last !== null ? (last as { content?: unknown }).content : undefined;
  return typeof content === 'string' ? content : '';
}
