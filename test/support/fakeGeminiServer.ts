import { scripted, startFakeHttpServer, type FakeHttpServer, type ModelAnswer } from './fakeHttpServer';

/**
 * A TEST DOUBLE of Gemini's `generateContent`, as the Gemini API (`/v1beta/models/{model}:generateContent`)
 * and Vertex AI (`/v1/projects/{p}/locations/{l}/publishers/google/models/{model}:generateContent`)
 * serve it: every request is recorded; a scripted `{text}` is answered as one candidate with one text
 * part. Nothing here is a model.
 */
export interface FakeGeminiServer extends FakeHttpServer {
  enqueue(...answers: ModelAnswer[]): void;
}

export async function startFakeGeminiServer(
  fallback: () => ModelAnswer = () => ({
    status: 500,
    body: '{"error":{"code":500,"message":"no scripted answer","status":"INTERNAL"}}',
  }),
): Promise<FakeGeminiServer> {
  const script = scripted(
    (text) => ({
      candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1 },
    }),
    fallback,
  );
  const server = await startFakeHttpServer(script.answer);
  return { ...server, enqueue: (...answers) => script.queue.push(...answers) };
}
