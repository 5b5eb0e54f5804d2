import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after } from 'node:test';

/** A loopback TCP listener that counts the connections made to it, closing each at once. */
export interface CountingListener {
  readonly port: number;
  /** Connections made since it started or was last set to 0. */
  connections: number;
  close(): Promise<void>;
}

/**
 * Starts a counting listener on 127.0.0.1 (a free port): the trust tests aim a workspace's database
 * hosts, judges and targets at it, so "no socket the workspace chose was opened" is a count of 0.
 */
export async function startCountingListener(): Promise<CountingListener> {
  const server = createServer((socket) => {
    listener.connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const listener: CountingListener = {
    port: (server.address() as { port: number }).port,
    connections: 0,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return listener;
}

/**
 * A counting listener for a whole test file: `start()` it in the file's `before` (it answers the
 * port); it is closed after the file's tests. (Root-level `before` hooks do not wait for each other,
 * so the start is the file's own step, not a hook of this helper.)
 */
export function countingListenerForFile(): { start(): Promise<number>; connections: number } {
  let started: CountingListener | undefined;
  after(async () => {
    await started?.close();
  });
  const current = (): CountingListener => {
    assert.ok(started, 'the counting listener has not started');
    return started;
  };
  return {
    async start() {
      started = await startCountingListener();
      return started.port;
    },
    get connections() {
      return current().connections;
    },
    set connections(count: number) {
      current().connections = count;
    },
  };
}
