import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the server received it. */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/**
 * A real HTTP server on loopback that plays a chat endpoint: `/chat` answers
 * `{choices: [{message: {content: <prompt upper-cased>}}]}`, `/fail` a 500 with a body that must
 * never reach a reason, `/text` plain text, `/hang` never answers, `/endless…` streams a body that
 * never ends (until the client ends the request: `endlessClosed` counts those). It records every request and
 * counts every connection, so a test can show a run without trust opened none.
 */
export class LoopbackServer {
  readonly requests: SeenRequest[] = [];
  connections = 0;
  /** Endless bodies the client stopped reading and closed. */
  endlessClosed = 0;
  private readonly server: Server;
  private readonly hanging = new Set<() => void>();

  private constructor(server: Server) {
    this.server = server;
  }

  static async start(): Promise<LoopbackServer> {
    const server = createServer();
    const loopback = new LoopbackServer(server);
    server.on('connection', () => loopback.connections++);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        loopback.requests.push({
          method: request.method ?? '',
          url: request.url ?? '',
          headers: request.headers,
          body,
        });
        const path = (request.url ?? '').split('?')[0];
        if (path === '/fail') {
          response
            .writeHead(500, 'Internal Server Error', { 'content-type': 'text/plain' })
            .end('stack trace with internal details');
        } else if (path === '/text') {
          response.writeHead(200, { 'content-type': 'text/plain' }).end('plain answer\n');
        } else if (path?.startsWith('/endless') === true) {
          loopback.streamEndlessly(response);
        } else if (path === '/hang') {
          loopback.hanging.add(() => response.destroy());
        } else if (path?.startsWith('/chat') === true) {
          const parsed = body === '' ? {} : (JSON.parse(body) as { prompt?: unknown });
          const content = typeof parsed.prompt === 'string' ? parsed.prompt.toUpperCase() : '';
          response
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ choices: [{ message: { content } }] }));
        } else {
          response.writeHead(404).end();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return loopback;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** 64 KiB chunks of a JSON-looking body as fast as the client reads them, until it closes the connection. */
  private streamEndlessly(response: import('node:http').ServerResponse): void {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let closed = false;
    response.on('close', () => {
      closed = true;
      this.endlessClosed++;
    });
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{"choices": "');
    const pump = (): void => {
      while (!closed && response.write(chunk));
      if (!closed) response.once('drain', pump);
    };
    pump();
  }

  async stop(): Promise<void> {
    for (const end of this.hanging) end();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
