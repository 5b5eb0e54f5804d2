/**
 * The bytes of a stream that have gone by but are not yet claimed, so a parser's byte counts (csv-parse's
 * `info.bytes`) can be turned back into the exact text of each record. Holds only unclaimed bytes.
 */
export class ByteWindow {
  private readonly chunks: Buffer[] = [];
  /** Absolute offset of the first unclaimed byte. */
  private start = 0;

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
  }

  /** Claims and returns the bytes from the first unclaimed one up to the absolute offset `end`. */
  take(end: number): Buffer {
    const parts: Buffer[] = [];
    let need = end - this.start;
    while (need > 0) {
      const head = this.chunks[0];
      if (head === undefined) break;
      if (head.length <= need) {
        parts.push(head);
        this.chunks.shift();
        need -= head.length;
        this.start += head.length;
      } else {
        parts.push(head.subarray(0, need));
        this.chunks[0] = head.subarray(need);
        this.start += need;
        need = 0;
      }
    }
    return Buffer.concat(parts);
  }

  /** All unclaimed bytes (without claiming them). */
  rest(): Buffer {
    return Buffer.concat(this.chunks);
  }
}
