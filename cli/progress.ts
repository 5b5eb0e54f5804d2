import type { CaseStatus } from '../core/runner/events';

/** What a progress line says: cases done of the total, how fast, how long to go, failures so far. */
export interface ProgressState {
  readonly done: number;
  /** Cases the run will score (selected, readable); undefined when not counted. */
  readonly total: number | undefined;
  readonly failed: number;
  readonly errored: number;
  /** Milliseconds since the run started. */
  readonly elapsedMs: number;
}

/**
 * The progress line, a pure function of the state: `37/120 cases (31%) · 4.2 cases/s · ETA 20s · 2 failed, 1 errored`.
 * The rate is the mean since the start; the ETA is the cases left at that rate (absent until a case is done).
 */
export function progressText(state: ProgressState): string {
  const total = state.total === undefined ? undefined : Math.max(state.total, state.done);
  const parts = [
    total === undefined
      ? `${state.done} case${state.done === 1 ? '' : 's'} done`
      : `${state.done}/${total} cases (${total === 0 ? 100 : Math.floor((state.done / total) * 100)}%)`,
  ];
  const seconds = state.elapsedMs / 1000;
  const rate = seconds > 0 ? state.done / seconds : 0;
  if (state.done > 0 && seconds > 0) parts.push(`${formatRate(rate)} cases/s`);
  if (total !== undefined && state.done > 0 && rate > 0 && state.done < total)
    parts.push(`ETA ${formatDuration(((total - state.done) / rate) * 1000)}`);
  const failures = [`${state.failed} failed`];
  if (state.errored > 0) failures.push(`${state.errored} errored`);
  parts.push(failures.join(', '));
  return parts.join(' · ');
}

function formatRate(rate: number): string {
  return rate >= 10 ? String(Math.round(rate)) : String(Number(rate.toFixed(1)));
}

/** `45s`, `3m05s`, `2h07m`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** The terminal's "carriage return, erase the line": the progress line is redrawn in place. */
const CLEAR_LINE = '\r\u001b[2K';
/** Redraws of the terminal line at most this often (a fast run ends thousands of cases a second). */
const REDRAW_MS = 100;

export interface ProgressOptions {
  /** A terminal: one line redrawn in place. Otherwise (CI logs): a plain line every `intervalMs`. */
  readonly tty: boolean;
  readonly intervalMs: number;
  readonly total: number | undefined;
  readonly now: () => number;
  readonly write: (text: string) => void;
}

/**
 * The console's live progress. On a terminal, text the console prints goes above the line
 * (`printAbove`), which is redrawn after it; elsewhere a plain `progress: …` line is printed when
 * `intervalMs` has passed since the last (0: after every case). `stop` clears the terminal line.
 */
export class ProgressLine {
  private done = 0;
  private failed = 0;
  private errored = 0;
  private readonly started: number;
  private lastShown: number;
  private shown = '';
  private stopped = false;

  constructor(private readonly options: ProgressOptions) {
    this.started = options.now();
    this.lastShown = this.started;
  }

  caseEnded(status: CaseStatus): void {
    if (this.stopped) return;
    this.done++;
    if (status === 'failed') this.failed++;
    else if (status === 'errored') this.errored++;
    const now = this.options.now();
    if (this.options.tty) {
      if (now - this.lastShown < REDRAW_MS && this.shown !== '') return;
      this.lastShown = now;
      this.shown = this.text(now);
      this.options.write(`${CLEAR_LINE}${this.shown}`);
    } else if (now - this.lastShown >= this.options.intervalMs) {
      this.lastShown = now;
      this.options.write(`progress: ${this.text(now)}\n`);
    }
  }

  /** Writes the console's own text: on a terminal, over the progress line, which is drawn again under it. */
  printAbove(text: string): void {
    if (!this.options.tty || this.shown === '') {
      this.options.write(text);
      return;
    }
    this.options.write(`${CLEAR_LINE}${text}${this.stopped ? '' : this.shown}`);
    if (this.stopped) this.shown = '';
  }

  /** The run ended: the terminal line is cleared and nothing more is drawn. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.options.tty && this.shown !== '') {
      this.options.write(CLEAR_LINE);
      this.shown = '';
    }
  }

  private text(now: number): string {
    return progressText({
      done: this.done,
      total: this.options.total,
      failed: this.failed,
      errored: this.errored,
      elapsedMs: now - this.started,
    });
  }
}

/**
 * The interval of plain progress lines from `EVALLENS_PROGRESS_SECONDS` (the user's own environment):
 * a number of seconds (0: after every case), `off` for none; default 10 seconds. Undefined: off.
 */
export function progressIntervalMs(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return DEFAULT_INTERVAL_MS;
  if (value.trim().toLowerCase() === 'off') return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : DEFAULT_INTERVAL_MS;
}

const DEFAULT_INTERVAL_MS = 10_000;
