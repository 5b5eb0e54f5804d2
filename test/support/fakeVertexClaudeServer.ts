import { scripted, startFakeHttpServer, type FakeHttpServer, type ModelAnswer } from './fakeHttpServer';

/**
 * A TEST DOUBLE of Claude on Vertex AI (`/v1/projects/{p}/locations/{l}/publishers/anthropic/models/{model}:rawPredict`):
 * every request is recorded; a scripted `{text}` is answered as Anthropic's message with one text block.
 */
export interface FakeVertexClaudeServer extends FakeHttpServer {
  enqueue(...answers: ModelAnswer[]): void;
}

export async function startFakeVertexClaudeServer(
  fallback: () => ModelAnswer = () => ({ status: 500, body: '{"error":{"message":"no scripted answer"}}' }),
): Promise<FakeVertexClaudeServer> {
  const script = scripted(
    (text) => ({
      id: 'msg_vrtx_test',
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text }],
      stop_reason: 'end_turn',
    }),
    fallback,
  );
  const server = await startFakeHttpServer(script.answer);
  return { ...server, enqueue: (...answers) => script.queue.push(...answers) };
}
