/**
 * The last finished run of each config in this window, as the config's CodeLens shows it: how many
 * cases passed of how many ran, the job score and whether it passed, and when the run ended. Folded
 * from the run's own event stream (the job score with the CLI's aggregator, shared/aggregate), so it
 * needs no report and no second process. A run that never started (a config error) changes nothing.
 */
import type { RunEvent } from '../../protocol/runEvents';
import { Aggregator } from '../../shared/aggregate/aggregator';

export interface ConfigRunSummary {
  readonly passed: number;
  readonly total: number;
  readonly failed: number;
  readonly errored: number;
  readonly cancelled: boolean;
  /** Absent when the run had no job test (no scorer with a threshold) or the CLI sent no job threshold. */
  readonly job?: { readonly score: number; readonly threshold: number; readonly pass: boolean };
  /** When the run ended, in ms since the epoch. */
  readonly endedAt: number;
}

interface Running {
  readonly aggregator: Aggregator;
  readonly hasJobThreshold: boolean;
}

export class LastRuns {
  private readonly running = new Map<string, Running>();
  private readonly finished = new Map<string, ConfigRunSummary>();
  private readonly listeners = new Set<(configFile: string) => void>();

  constructor(private readonly now: () => number = Date.now) {}

  onDidChange(listener: (configFile: string) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  onEvent(configFile: string, event: RunEvent): void {
    switch (event.type) {
      case 'run/start':
        this.running.set(configFile, {
          aggregator: new Aggregator(event.scorers, event.jobThreshold ?? 0),
          hasJobThreshold: event.jobThreshold !== undefined,
        });
        return;
      case 'case/end': {
        // case/end repeats every result of the case: counted here once, never from `result` events.
        const run = this.running.get(configFile);
        if (run !== undefined) for (const result of event.results) run.aggregator.add(result);
        return;
      }
      case 'run/end': {
        const run = this.running.get(configFile);
        this.running.delete(configFile);
        const { passed, failed, errored, total } = event.summary;
        const job = run?.hasJobThreshold === true ? run.aggregator.jobTest() : undefined;
        this.finished.set(configFile, {
          passed,
          failed,
          errored,
          total,
          cancelled: event.cancelled,
          endedAt: this.now(),
          ...(job === undefined ? {} : { job: { score: job.score, threshold: job.threshold, pass: job.pass } }),
        });
        for (const listener of this.listeners) listener(configFile);
        return;
      }
      default:
        return;
    }
  }

  get(configFile: string): ConfigRunSummary | undefined {
    return this.finished.get(configFile);
  }

  get size(): number {
    return this.finished.size;
  }
}
