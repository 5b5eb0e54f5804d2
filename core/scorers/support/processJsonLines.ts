import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Json } from '../../case';
import { endedHow, killGroup, spawnGroup, type ProcessCommand } from '../../process/processGroup';
import { LineSplitter } from './processLines';
import type { RunLimit } from './processRun';
import { quoteStderr, StreamTail } from './processText';
import { parseJson } from '../../text/jsonDepth';

/** Longest stdout line read from a persistent process; a longer one stops it. */
export const MAX_LINE_BYTES = 1024 * 1024;
/** Stderr kept per process (its latest bytes), for reasons. */
const STDERR_TAIL_BYTES = 64 * 1024;
/** How long a process may take to exit after its stdin closes, before its group is killed. */
const EXIT_GRACE_MS = 1000;
/** Characters of an unexpected stdout line kept in a verdict's details (never in its reason). */
const LINE_SHOWN_CHARS = 200;

/** A response line, or why the case in flight got none. `stderr` is what the process wrote to stderr meanwhile. */
export type LineAnswer =
  | { readonly ok: true; readonly answer: { readonly [key: string]: unknown }; readonly stderr: string }
  | {
      readonly ok: false;
      readonly reason: string;
      readonly stderr: string;
      readonly details?: { readonly [key: string]: Json };
    };

interface InFlight {
  readonly id: number;
  readonly settle: (answer: LineAnswer) => void;
}

/**
 * One persistent scorer process speaking JSON lines: a request line `{"id": n, ...}` on its stdin,
 * one response line `{"id": n, ...}` on its stdout, one case at a time. Anything else on stdout (a
 * line that is not a JSON object, a response with another id or none, a line over 1 MiB), a time
 * limit passed or the run's signal ends the process and fails the case in flight with the reason;
 * so does the process dying mid-case. An ended process is never used again: its pool starts another.
 */
export class JsonLinesProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private inFlight: InFlight | undefined;
  private ended = false;
  /** What it wrote to stderr since the case in flight was sent (its latest 64 KiB). */
  private readonly caseStderr = new StreamTail(STDERR_TAIL_BYTES);
  private readonly closed: Promise<void>;

  constructor(
    command: ProcessCommand,
    cwd: string,
    private readonly noun = 'the scorer process',
  ) {
    this.child = spawnGroup(command, cwd);
    const splitter = new LineSplitter(
      MAX_LINE_BYTES,
      (line) => this.onLine(line),
      () => this.stop(`printed a line longer than ${MAX_LINE_BYTES} bytes on stdout`),
    );
    this.child.stdout.on('data', (chunk: Buffer) => splitter.push(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => this.caseStderr.push(chunk));
    // A process that exits without reading its stdin: the write fails with EPIPE; 'close' reports the death.
    this.child.stdin.on('error', () => undefined);
    this.closed = new Promise((resolve) => {
      this.child.on('error', (e) => {
        this.stop(`could not be started: ${e.message}`);
        resolve();
      });
      this.child.on('close', (code, signal) => {
        this.onDeath(code, signal);
        resolve();
      });
    });
    // Processes it left behind would hold the pipes open, and 'close' would never come: end them.
    this.child.on('exit', () => {
      this.ended = true;
      killGroup(this.child);
    });
  }

  /** Whether the process can take another case. */
  get alive(): boolean {
    return !this.ended;
  }

  /**
   * Sends one request line (`line` is the JSON object text, carrying `"id": id`) and waits for the
   * response with that id, at most `limit.ms` (which counts from the write, the process's start-up
   * included for its first case). Never rejects.
   */
  request(id: number, line: string, limit: RunLimit, signal: AbortSignal): Promise<LineAnswer> {
    return new Promise((resolve) => {
      if (this.ended || this.inFlight !== undefined) {
        resolve({ ok: false, reason: `${this.noun} could not take the case (it had ended)`, stderr: '' });
        return;
      }
      this.caseStderr.clear();
      const onAbort = () => this.stop('was stopped by the run (its time limit or a canceled run)');
      const timer = setTimeout(() => this.stop(`did not answer within ${limit.ms} ms (${limit.from})`), limit.ms);
      signal.addEventListener('abort', onAbort, { once: true });
      this.inFlight = {
        id,
        settle: (answer) => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          resolve(answer);
        },
      };
      if (signal.aborted) onAbort();
      else this.child.stdin.write(`${line}\n`);
    });
  }

  /** Closes its stdin (a well-behaved process exits on EOF), then kills its group after a short grace. */
  async close(): Promise<void> {
    if (!this.ended) {
      this.child.stdin.end();
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([this.closed, new Promise<void>((resolve) => (timer = setTimeout(resolve, EXIT_GRACE_MS)))]);
      clearTimeout(timer);
    }
    this.ended = true;
    killGroup(this.child);
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.closed, new Promise<void>((resolve) => (timer = setTimeout(resolve, EXIT_GRACE_MS)))]);
    clearTimeout(timer);
  }

  /** Kills its group at once (for the host's exit, when nothing can be awaited). */
  kill(): void {
    this.ended = true;
    killGroup(this.child);
  }

  private onLine(line: string): void {
    // A blank line carries nothing (an extra print()); tolerated.
    if (line.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = parseJson(line);
    } catch {
      // Said by size, never by its text: stdout may hold anything.
      this.stop(
        `printed a line on stdout that is not JSON (${line.length} characters; stdout carries only responses, one JSON object per line; write logs to stderr)`,
        line,
      );
      return;
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      this.stop(
        'printed a JSON line on stdout that is not an object (a response is {"id": <the request\'s id>, "score": …})',
        line,
      );
      return;
    }
    const answer = parsed as { readonly [key: string]: unknown };
    const flight = this.inFlight;
    const id = answer['id'];
    if (flight === undefined) {
      this.stop(`printed a response (id ${describeId(id)}) when no case was in flight`, line);
      return;
    }
    if (id !== flight.id) {
      this.stop(
        id === undefined
          ? 'printed a response with no "id"'
          : `answered id ${describeId(id)}, but the case in flight has id ${flight.id}`,
        line,
      );
      return;
    }
    this.inFlight = undefined;
    flight.settle({ ok: true, answer, stderr: this.caseStderr.text() });
  }

  /** Ends the process for good and fails the case in flight, if any, with what went wrong. */
  private stop(what: string, line?: string): void {
    const flight = this.inFlight;
    this.inFlight = undefined;
    this.ended = true;
    killGroup(this.child);
    if (flight === undefined) return;
    const details =
      line === undefined ? {} : { details: { stdout_line: Array.from(line).slice(0, LINE_SHOWN_CHARS).join('') } };
    flight.settle({
      ok: false,
      reason: `${this.noun} ${what}; it was stopped and a new one takes the next case`,
      stderr: this.caseStderr.text(),
      ...details,
    });
  }

  private onDeath(code: number | null, signal: NodeJS.Signals | null): void {
    this.ended = true;
    const flight = this.inFlight;
    this.inFlight = undefined;
    if (flight === undefined) return;
    const stderr = this.caseStderr.text();
    flight.settle({
      ok: false,
      reason: `${this.noun} ${endedHow(code, signal)} while scoring this case${quoteStderr(stderr)}; a new one takes the next case`,
      stderr,
    });
  }
}

function describeId(id: unknown): string {
  if (id === undefined) return 'none';
  const text = JSON.stringify(id);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
