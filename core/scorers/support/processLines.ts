/**
 * Splits a byte stream into lines (`\n`, an optional `\r` before it dropped), decoding each whole
 * line as UTF-8 so a character split across chunks stays whole. A line longer than `maxLineBytes`
 * is never held in memory: `onOverflow` is called once and the rest of that line is discarded.
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private overflowing = false;

  constructor(
    private readonly maxLineBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOverflow: () => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      const piece = chunk.subarray(start, newline === -1 ? chunk.length : newline);
      if (!this.overflowing) {
        if (this.pendingBytes + piece.length > this.maxLineBytes) {
          this.overflowing = true;
          this.pending = [];
          this.pendingBytes = 0;
          this.onOverflow();
        } else if (piece.length > 0) {
          this.pending.push(piece);
          this.pendingBytes += piece.length;
        }
      }
      if (newline === -1) return;
      if (!this.overflowing) this.onLine(Buffer.concat(this.pending).toString('utf8').replace(/\r$/u, ''));
      this.pending = [];
      this.pendingBytes = 0;
      this.overflowing = false;
      start = newline + 1;
    }
  }
}
