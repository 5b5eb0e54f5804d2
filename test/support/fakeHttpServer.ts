import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The plumbing of the hosted-API TEST DOUBLES (fakeGeminiServer, fakeVertexClaudeServer,
 * fakeGoogleTokenServer): a real HTTP server on 127.0.0.1 that records every request (method, path,
 * headers, raw and parsed body), counts TCP connections and answers from a script: a queue, then a
 * fallback. Each double turns a scripted `{text}` into its protocol's response shape.
 */
export interface RecordedHttpRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly raw: string;
  /** The body as JSON when it parses, else undefined. */
  readonly json: unknown;
}

export type HttpAnswer = {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
};

export interface FakeHttpServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly requests: RecordedHttpRequest[];
  connections(): number;
  close(): Promise<void>;
}

export async function startFakeHttpServer(
  answer: (request: RecordedHttpRequest) => HttpAnswer,
): Promise<FakeHttpServer> {
  const requests: RecordedHttpRequest[] = [];
  let connections = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        json = undefined;
      }
      const recorded: RecordedHttpRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        raw,
        json,
      };
      requests.push(recorded);
      const reply = answer(recorded);
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.body ?? '{}');
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A scripted answer of a model double: the judge's text, or a raw HTTP status. */
export type ModelAnswer = { readonly text: string } | HttpAnswer;

/** A queue of answers, then a fallback; `{text}` is wrapped by `wrap` into the protocol's 200 body. */
export function scripted(
  wrap: (text: string) => unknown,
  fallback: () => ModelAnswer,
): { readonly queue: ModelAnswer[]; readonly answer: (r: RecordedHttpRequest) => HttpAnswer } {
  const queue: ModelAnswer[] = [];
  return {
    queue,
    answer: () => {
      const next = queue.shift() ?? fallback();
      return 'text' in next ? { status: 200, body: JSON.stringify(wrap(next.text)) } : next;
    },
  };
}
