import fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mock } from 'node:test';

/**
 * Runs `body` with a fresh temporary folder and a spy on `fs.createReadStream` that records the
 * streams the reader opens (so a test can see how far a stream has read); both are undone after.
 */
export async function withSpiedStreams(
  body: (folder: string, streams: readonly fs.ReadStream[]) => Promise<void>,
): Promise<void> {
  const folder = fs.mkdtempSync(join(tmpdir(), 'evallens-stream-'));
  const streams: fs.ReadStream[] = [];
  const real = fs.createReadStream;
  const spy = mock.method(fs, 'createReadStream', (...args: Parameters<typeof fs.createReadStream>) => {
    const stream = real(...args);
    streams.push(stream);
    return stream;
  });
  try {
    await body(folder, streams);
  } finally {
    spy.mock.restore();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}
