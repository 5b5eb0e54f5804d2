import type { RunLimit } from './processRun';
import { JsonLinesProcess, type LineAnswer } from './processJsonLines';

/**
 * Up to `size` persistent processes serving cases one at a time each. Nothing starts until the first
 * case asks (a config is loaded on every keystroke in the editor); a process is started when a case
 * finds no idle one and fewer than `size` are alive, and one that ended (died, timed out, printed
 * garbage) is replaced by the next case that needs it. `close` ends them all; the pool can be used
 * again afterwards (it starts afresh). While processes are alive, the host's exit kills them too.
 */
export class ProcessPool {
  private readonly slots: (JsonLinesProcess | undefined)[];
  private readonly free: number[];
  private readonly waiting: { readonly take: (slot: number) => void }[] = [];
  private nextId = 1;
  private exitHook: (() => void) | undefined;

  constructor(
    private readonly start: () => JsonLinesProcess,
    size: number,
  ) {
    this.slots = Array.from({ length: size }, () => undefined);
    this.free = this.slots.map((_, i) => size - 1 - i);
  }

  /**
   * Sends one case to a free process (waiting for one, and starting it if needed) and returns its
   * answer. `line(id)` gives the request line for the id the pool picked. Never rejects.
   */
  async send(line: (id: number) => string, limit: RunLimit, signal: AbortSignal): Promise<LineAnswer> {
    const slot = await this.acquire(signal);
    if (slot === undefined)
      return { ok: false, reason: 'the run stopped the scorer while it waited for a free process', stderr: '' };
    try {
      let worker = this.slots[slot];
      if (worker === undefined || !worker.alive) {
        worker = this.start();
        this.slots[slot] = worker;
        this.hookExit();
      }
      const id = this.nextId++;
      return await worker.request(id, line(id), limit, signal);
    } finally {
      this.release(slot);
    }
  }

  /** Ends every process (stdin closed, then killed after a short grace) and forgets them. */
  async close(): Promise<void> {
    const processes = this.slots.filter((p): p is JsonLinesProcess => p !== undefined);
    this.slots.fill(undefined);
    if (this.exitHook !== undefined) process.removeListener('exit', this.exitHook);
    this.exitHook = undefined;
    await Promise.all(processes.map((p) => p.close()));
  }

  private acquire(signal: AbortSignal): Promise<number | undefined> {
    const slot = this.free.pop();
    if (slot !== undefined) return Promise.resolve(slot);
    if (signal.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const waiter = {
        take: (given: number) => {
          signal.removeEventListener('abort', onAbort);
          resolve(given);
        },
      };
      const onAbort = () => {
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
        resolve(undefined);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  private release(slot: number): void {
    const next = this.waiting.shift();
    if (next === undefined) this.free.push(slot);
    else next.take(slot);
  }

  /** A CLI that exits (Ctrl-C twice, an uncaught error) must not leave scorer processes behind. */
  private hookExit(): void {
    if (this.exitHook !== undefined) return;
    this.exitHook = () => {
      for (const p of this.slots) p?.kill();
    };
    process.on('exit', this.exitHook);
  }
}
