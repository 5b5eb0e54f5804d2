/**
 * Gathers text written during one turn of the event loop and hands it to `sink` in one piece: at the
 * end of the turn (setImmediate), or as soon as `limit` characters have gathered. A run finishes
 * hundreds of cases per turn; one write per case cost more than scoring them. JavaScript finishes
 * nothing while the turn runs, so what a turn finished is written before anything else happens.
 */
export class TickBatch {
  private parts: string[] = [];
  private size = 0;
  private scheduled = false;

  constructor(
    private readonly sink: (text: string) => void,
    private readonly limit = 64 * 1024,
  ) {}

  add(text: string): void {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= this.limit) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.flush();
      });
    }
  }

  flush(): void {
    if (this.parts.length === 0) return;
    const text = this.parts.join('');
    this.parts = [];
    this.size = 0;
    this.sink(text);
  }
}
