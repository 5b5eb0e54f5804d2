import type { Json } from '../../case';
import { dropCutStart, maskSecretText } from '../../../shared/text/secretMask';

/** Most characters of stderr or of a script's reason that a verdict quotes. */
export const QUOTE_CHARS = 500;

/**
 * The last `capBytes` bytes written to a stream (whole chunks are dropped from the front as it grows),
 * so a process that logs a lot to stderr over a long run costs bounded memory and its latest lines
 * can still be quoted in a reason.
 */
export class StreamTail {
  private chunks: Buffer[] = [];
  private bytes = 0;
  private dropped = false;

  constructor(private readonly capBytes: number) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    while (this.chunks.length > 1 && this.bytes - (this.chunks[0]?.length ?? 0) >= this.capBytes) {
      this.bytes -= this.chunks.shift()?.length ?? 0;
      this.dropped = true;
    }
  }

  text(): string {
    const all = Buffer.concat(this.chunks);
    let start = Math.max(0, all.length - this.capBytes);
    // Never start inside a UTF-8 character: skip its continuation bytes (10xxxxxx).
    while (start > 0 && start < all.length && ((all[start] ?? 0) & 0xc0) === 0x80) start++;
    const kept = all.subarray(start);
    const text = kept.toString('utf8');
    // A cut start may be the end of a secret, which masking cannot recognise once cut: that piece goes.
    return this.dropped || kept.length < all.length ? `…${dropCutStart(text)}` : text;
  }

  clear(): void {
    this.chunks = [];
    this.bytes = 0;
    this.dropped = false;
  }
}

/** `; stderr: "…"` (its first 500 characters), or `and wrote nothing to stderr`. */
export function quoteStderr(text: string): string {
  const trimmed = text.trim();
  return trimmed === '' ? ' and wrote nothing to stderr' : `; stderr: "${truncate(trimmed, QUOTE_CHARS)}"`;
}

/** `{stderr: <its last 500 characters>}` for a verdict's details, or nothing when stderr is empty. */
export function stderrDetails(text: string): { [key: string]: Json } | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const chars = Array.from(maskSecretText(trimmed));
  return { stderr: chars.length > QUOTE_CHARS ? `…${chars.slice(-QUOTE_CHARS).join('')}` : trimmed };
}

export function truncate(text: string, max: number): string {
  // Masked before the cut: a key across the cut would otherwise survive in part.
  const masked = maskSecretText(text);
  const chars = Array.from(masked);
  return chars.length > max ? `${chars.slice(0, max).join('')}… (${chars.length - max} more characters)` : masked;
}
