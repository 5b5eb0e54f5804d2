/**
 * Splits a stream that arrives in chunks (text, or UTF-8 bytes) into lines, in time linear in the
 * stream: each character is looked at once for a newline, and an unfinished line is kept as a list of
 * pieces that are joined once, when its newline arrives. (Appending each chunk to a buffer and
 * splitting the whole buffer again re-reads a long line once per chunk: a 40 MB line in 64 KB chunks
 * is read some 600 times.)
 *
 * A line longer than `maxLineChars` is not kept: its pieces are dropped as soon as it passes the cap,
 * it comes out as `tooLong` with its length, and the next line starts after its newline.
 */

export type DecodedLine =
  /** `text` without its `\n` (a `\r` before it is removed too). `line` is 1-based. */
  | { readonly kind: 'line'; readonly line: number; readonly text: string }
  | { readonly kind: 'tooLong'; readonly line: number; readonly length: number };

export class LineDecoder {
  private pieces: string[] = [];
  private pendingLength = 0;
  private overflowing = false;
  private lineNumber = 0;
  private readonly bytes = new TextDecoder('utf-8');
  /** Characters searched for a newline so far (each character of the stream once): lets tests check the work is linear. */
  scannedChars = 0;

  constructor(readonly maxLineChars: number) {}

  /** The lines this chunk completes, in order; a partial last line waits for the next chunk. */
  push(chunk: string | Uint8Array): DecodedLine[] {
    // A UTF-8 sequence split across two byte chunks is kept whole by the streaming decoder.
    const text = typeof chunk === 'string' ? chunk : this.bytes.decode(chunk, { stream: true });
    const lines: DecodedLine[] = [];
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      this.scannedChars += end - start + 1;
      this.append(text, start, end);
      lines.push(this.completeLine());
      start = end + 1;
    }
    this.scannedChars += text.length - start;
    this.append(text, start, text.length);
    return lines;
  }

  /** Ends the stream: the unterminated last line, if it has any characters. */
  end(): DecodedLine[] {
    const lines = this.push(this.bytes.decode());
    if (this.pendingLength > 0 || this.overflowing) lines.push(this.completeLine());
    return lines;
  }

  /** Characters held for the unfinished line (at most the cap). */
  get heldChars(): number {
    return this.overflowing ? 0 : this.pendingLength;
  }

  private append(text: string, start: number, end: number): void {
    if (end <= start) return;
    this.pendingLength += end - start;
    if (this.overflowing) return;
    if (this.pendingLength > this.maxLineChars) {
      this.overflowing = true;
      this.pieces = [];
      return;
    }
    this.pieces.push(start === 0 && end === text.length ? text : text.slice(start, end));
  }

  private completeLine(): DecodedLine {
    this.lineNumber += 1;
    const line = this.lineNumber;
    const length = this.pendingLength;
    const overflowed = this.overflowing;
    let text = overflowed ? '' : this.pieces.length === 1 ? (this.pieces[0] ?? '') : this.pieces.join('');
    this.pieces = [];
    this.pendingLength = 0;
    this.overflowing = false;
    if (overflowed) return { kind: 'tooLong', line, length };
    if (text.endsWith('\r')) text = text.slice(0, -1);
    return { kind: 'line', line, text };
  }
}
