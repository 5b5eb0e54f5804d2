import { maskSecretText } from '../shared/text/secretMask';

/**
 * The CLI's stderr carries words from everywhere (config problems, an engine's error, a library's
 * message, an internal error's stack): each write passes the one masking rule before it leaves the
 * process. Reports and events are masked where they are made (the engine masks every result); this
 * is the last gate for the human-readable stream. What it masks is the process's one list
 * (shared/text/secretMask.ts), which main fills as the command's trust allows.
 */
export function maskStderr(stream: NodeJS.WriteStream): void {
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    const text =
      typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : undefined;
    return text === undefined ? write(chunk, ...rest) : write(maskSecretText(text), ...rest);
  }) as typeof stream.write;
}
