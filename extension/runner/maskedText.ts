/**
 * What the extension shows from the CLI and from itself (the EvalLens output channel, a test run's
 * output, error messages) passes the one masking rule of the engine (shared/text/secretMask.ts): the
 * CLI masks what it prints, and this is the gate for everything else — a Node error the CLI could not
 * mask, a spawn failure, the language server's log, a setting's value. No vscode here, so it is tested
 * on its own.
 */
import { maskSecretText, rememberCredentialEnvironment } from '../../shared/text/secretMask';

/** Remembers the credentials of the extension host's environment (the CLI and the server inherit it). */
export function rememberHostCredentials(env: Readonly<Record<string, string | undefined>>): void {
  rememberCredentialEnvironment(env);
}

export function maskedText(text: string): string {
  return maskSecretText(text);
}

/**
 * A stream's text masked a whole line at a time, so that a secret split across two chunks is still
 * recognised. A line longer than MAX_PENDING is masked and passed on in pieces (bounded memory).
 */
export class MaskedLines {
  private pending = '';

  /** The complete lines `chunk` finishes, masked; the rest waits for its newline. */
  push(chunk: string): string {
    this.pending += chunk;
    const end = this.pending.lastIndexOf('\n');
    if (end < 0) {
      if (this.pending.length <= MAX_PENDING) return '';
      return this.flush();
    }
    const lines = this.pending.slice(0, end + 1);
    this.pending = this.pending.slice(end + 1);
    return maskSecretText(lines);
  }

  /** What is left, masked (at the end of the stream). */
  flush(): string {
    const rest = this.pending;
    this.pending = '';
    return rest === '' ? '' : maskSecretText(rest);
  }
}

const MAX_PENDING = 64 * 1024;

/**
 * An output channel whose every written string is masked first; everything else (show, dispose, the
 * log level) is the channel's own.
 */
export function maskedChannel<T extends object>(channel: T): T {
  const writers = new Set(['append', 'appendLine', 'replace', 'trace', 'debug', 'info', 'warn', 'error']);
  return new Proxy(channel, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      if (typeof property !== 'string' || !writers.has(property)) return value.bind(target) as unknown;
      return (...args: unknown[]) =>
        (value as (...a: unknown[]) => unknown).apply(
          target,
          args.map((a) => (typeof a === 'string' ? maskSecretText(a) : a instanceof Error ? maskedError(a) : a)),
        );
    },
  });
}

function maskedError(error: Error): Error {
  const copy = new Error(maskSecretText(error.message));
  if (error.stack !== undefined) copy.stack = maskSecretText(error.stack);
  return copy;
}
