import { once } from 'node:events';
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ReporterOptions } from './reporter';

/**
 * Writes one chunk and, when the stream's buffer is full, waits for it to drain (backpressure).
 * Rejects when the stream errors or closes first, rather than waiting forever.
 */
export async function writeChunk(stream: NodeJS.WritableStream, chunk: string | Uint8Array): Promise<void> {
  if (stream.write(chunk)) return;
  await new Promise<void>((resolve, reject) => {
    const settle = (error?: Error): void => {
      stream.off('drain', onDrain);
      stream.off('error', onError);
      stream.off('close', onClose);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onDrain = (): void => settle();
    const onError = (error: Error): void => settle(error);
    const onClose = (): void => settle(new Error('the stream closed before all was written'));
    stream.on('drain', onDrain);
    stream.on('error', onError);
    stream.on('close', onClose);
  });
}

/**
 * Where a reporter writes: the file in `options.out` (its folder made if missing), else the given
 * standard output. A file's write error is kept and raised by `close`, so a reporter that writes from
 * the synchronous `onEvent` never crashes the process with an unhandled 'error' event.
 */
export class Output {
  private failure: Error | undefined;

  private constructor(
    readonly stream: NodeJS.WritableStream,
    private readonly file: string | undefined,
  ) {
    stream.on('error', (error: Error) => {
      this.failure ??= error;
    });
  }

  static open(options: ReporterOptions): Output {
    if (options.out === undefined) return new Output(options.stdout, undefined);
    mkdirSync(dirname(options.out), { recursive: true });
    return new Output(createWriteStream(options.out), options.out);
  }

  /** Ends a file and waits until it is written and closed; standard output is left open. */
  async close(): Promise<void> {
    this.raise();
    if (this.file === undefined) return;
    const closed = once(this.stream, 'close');
    this.stream.end();
    try {
      await closed;
    } catch (error) {
      this.failure ??= error instanceof Error ? error : new Error(String(error));
    }
    this.raise();
  }

  private raise(): void {
    if (this.failure === undefined) return;
    const where = this.file ?? 'standard output';
    throw new Error(`cannot write ${where}: ${this.failure.message}`);
  }
}
