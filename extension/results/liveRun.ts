/**
 * The host's record of a run in progress, for the results view: it batches events into few
 * messages (a run of 100,000 results must not post 100,000), keeps what a reloaded view needs to be
 * sent again, and folds results with the engine's own aggregator (shared/) so live pass rates and the
 * job score are the numbers the CLI prints; the job threshold comes in run/start. No vscode here, so
 * tests drive it directly.
 */
import { Aggregator } from '../../shared/aggregate/aggregator';
import type { RunEvent } from '../../core/runner/events';
import type { HostToWebview, LiveAggregates } from '../../protocol/webview';

/** Events per message: large enough to be few messages, small enough that one never stalls the view. */
export const EVENTS_PER_MESSAGE = 2000;

export class LiveRun {
  /** Events not yet posted, in order. */
  private pending: RunEvent[] = [];
  /** What a fresh view needs: run/start, running cases' case/start, finished cases' case/end, run/end. */
  private readonly kept: RunEvent[] = [];
  private readonly running = new Map<string, RunEvent>();
  /** `result` events of cases not ended yet; case/end repeats every result, so they are sent only if it has not come by the next flush. */
  private held = new Map<string, RunEvent[]>();
  private aggregator: Aggregator | undefined;
  /** The config's `pass_criteria.threshold`, from run/start; without it (an older CLI) the view shows no live job score. */
  private jobThreshold: number | undefined;

  constructor(readonly configFile: string) {}

  push(event: RunEvent): void {
    switch (event.type) {
      case 'run/start':
        this.jobThreshold = event.jobThreshold;
        this.aggregator = new Aggregator(event.scorers, this.jobThreshold ?? 0);
        this.kept.push(event);
        break;
      case 'case/start':
        this.running.set(event.caseId, event);
        break;
      case 'result': {
        const held = this.held.get(event.result.caseId);
        if (held === undefined) this.held.set(event.result.caseId, [event]);
        else held.push(event);
        return;
      }
      case 'case/end':
        this.running.delete(event.caseId);
        this.held.delete(event.caseId);
        for (const result of event.results) this.aggregator?.add(result);
        this.kept.push(event);
        break;
      case 'run/end':
        this.kept.push(event);
        break;
    }
    this.pending.push(event);
  }

  get hasPending(): boolean {
    return this.pending.length > 0 || this.held.size > 0;
  }

  /** The messages for what arrived since the last call. */
  flush(): HostToWebview[] {
    const events = this.pending;
    for (const results of this.held.values()) events.push(...results);
    this.pending = [];
    this.held = new Map();
    return this.messages(events);
  }

  /** Everything so far, for a view that (re)started; what was pending is included. */
  replay(): HostToWebview[] {
    this.pending = [];
    this.held = new Map();
    const [start, ...rest] = this.kept;
    return this.messages(start === undefined ? [] : [start, ...this.running.values(), ...rest]);
  }

  private messages(events: readonly RunEvent[]): HostToWebview[] {
    if (events.length === 0) return [];
    const messages: HostToWebview[] = [];
    for (let i = 0; i < events.length; i += EVENTS_PER_MESSAGE)
      messages.push({ type: 'run/events', events: events.slice(i, i + EVENTS_PER_MESSAGE) });
    const aggregates = this.aggregates();
    const last = messages[messages.length - 1];
    if (aggregates !== undefined && last?.type === 'run/events')
      messages[messages.length - 1] = { ...last, aggregates };
    return messages;
  }

  private aggregates(): LiveAggregates | undefined {
    if (this.aggregator === undefined) return undefined;
    const scorers = this.aggregator.scorerAggregates();
    const job = this.jobThreshold === undefined ? undefined : this.aggregator.jobTest(scorers);
    return job === undefined ? { scorers } : { scorers, job };
  }
}
