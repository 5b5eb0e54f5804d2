/**
 * The main thread's side of scoring on worker threads (cli/runWorker.ts is the other side). The
 * runner hands each case to `score`; cases are gathered into batches (one message per batch, not per
 * case: a message costs more than scoring a case), each batch goes to the thread with the least work
 * waiting, and answers are handed back strictly in the order the cases were given, whatever order the
 * threads finish in. The answers waiting for an earlier batch are bounded by `inFlight`.
 */
import type { EvalCase } from '../core/case';
import type { ScorerResult } from '../core/result';
import type { RemoteCase, RemoteScoring } from '../core/runner/run';
import type { RunWorkerMessage, ScoreRequest, ScoredBatch } from './runWorker';

/** What the pool needs of a thread: node's Worker has it; tests pass a double. */
export interface ScoringThread {
  postMessage(request: ScoreRequest): void;
  on(event: 'message', listener: (message: RunWorkerMessage) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  terminate(): unknown;
}

interface Waiter {
  readonly evalCase: EvalCase | undefined;
  readonly resolve: (scored: RemoteCase) => void;
  readonly reject: (error: Error) => void;
}

interface Batch {
  readonly waiters: readonly Waiter[];
  readonly thread: number;
  answer?: ScoredBatch;
}

/**
 * The results.jsonl text of a case's results as the scoring thread wrote it, keyed by the results
 * array handed to the runner: the run folder (cli/runStore.ts) writes it instead of serialising the
 * results again. An array the runner replaced (to mask a config's values) is not found, and is serialised.
 */
export const resultLines = new WeakMap<readonly ScorerResult[], string>();

/** Cases per message: large enough that messaging is a small share, small enough that threads start at once. */
export const DEFAULT_BATCH_SIZE = 256;

export class ScoringPool implements RemoteScoring {
  readonly inFlight: number;
  /** Settles when every thread has loaded the config and built the same scorers; rejects otherwise. */
  readonly ready: Promise<void>;
  private current: Waiter[] = [];
  private currentTrials = 1;
  private sendScheduled = false;
  private nextSeq = 0;
  private nextToSettle = 0;
  private readonly sent = new Map<number, Batch>();
  private readonly waiting: number[];
  private failure: Error | undefined;
  private closing = false;
  private readonly onFailure: (e: Error) => void;

  constructor(
    private readonly threads: readonly ScoringThread[],
    expectedScorers: readonly string[],
    private readonly batchSize = DEFAULT_BATCH_SIZE,
  ) {
    // Each thread keeps about three batches busy: one being scored, one queued, one being filled.
    this.inFlight = batchSize * threads.length * 3;
    this.waiting = threads.map(() => 0);
    let readyCount = 0;
    let markReady: () => void = () => undefined;
    let markFailed: (e: Error) => void = () => undefined;
    this.ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      markFailed = reject;
    });
    // A failed start is reported through `ready` and every score; no unhandled rejection otherwise.
    this.ready.catch(() => undefined);
    threads.forEach((thread, index) => {
      thread.on('message', (message) => {
        if (message.type === 'ready') {
          if (message.scorers.join('\n') !== expectedScorers.join('\n'))
            this.fail(new Error('the scoring thread loaded a different config (was the file changed during the run?)'));
          else if (++readyCount === threads.length) markReady();
        } else if (message.type === 'failed') this.fail(new Error(message.message));
        else this.answered(index, message.seq, message);
      });
      thread.on('error', (e) => this.fail(new Error(`a scoring thread failed: ${e.message}`)));
      thread.on('exit', (code) => {
        if (!this.closing) this.fail(new Error(`a scoring thread stopped (exit code ${code})`));
      });
    });
    this.onFailure = markFailed;
  }

  score(evalCase: EvalCase | undefined, trials: number): Promise<RemoteCase> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise<RemoteCase>((resolve, reject) => {
      // A run has one number of trials; a batch is sent before a case with another would join it.
      if (this.current.length > 0 && trials !== this.currentTrials) this.send();
      this.currentTrials = trials;
      this.current.push({ evalCase, resolve, reject });
      if (this.current.length >= this.batchSize) this.send();
      else if (!this.sendScheduled) {
        // A partial batch goes at the end of this turn: the runner gives no more cases until some are answered.
        this.sendScheduled = true;
        setImmediate(() => {
          this.sendScheduled = false;
          this.send();
        });
      }
    });
  }

  /** Stops the threads; cases not answered yet are rejected. */
  close(): void {
    this.closing = true;
    this.fail(new Error('the scoring threads were stopped'));
    for (const thread of this.threads) void thread.terminate();
  }

  private send(): void {
    if (this.current.length === 0 || this.failure !== undefined) return;
    const waiters = this.current;
    this.current = [];
    let thread = 0;
    for (let i = 1; i < this.waiting.length; i++) if ((this.waiting[i] ?? 0) < (this.waiting[thread] ?? 0)) thread = i;
    const seq = this.nextSeq++;
    this.sent.set(seq, { waiters, thread });
    this.waiting[thread] = (this.waiting[thread] ?? 0) + 1;
    this.threads[thread]?.postMessage({
      seq,
      trials: this.currentTrials,
      cases: waiters.map((w) => w.evalCase ?? null),
    });
  }

  private answered(thread: number, seq: number, answer: ScoredBatch): void {
    const batch = this.sent.get(seq);
    if (batch === undefined || batch.thread !== thread || answer.ends.length !== batch.waiters.length) {
      this.fail(new Error(`a scoring thread answered a batch it was not given (${seq})`));
      return;
    }
    batch.answer = answer;
    this.waiting[thread] = (this.waiting[thread] ?? 1) - 1;
    // Strictly in order: a later batch that finished first waits for the ones before it.
    for (
      let next = this.sent.get(this.nextToSettle);
      next?.answer !== undefined;
      next = this.sent.get(this.nextToSettle)
    ) {
      this.sent.delete(this.nextToSettle);
      this.nextToSettle++;
      settle(next.waiters, next.answer);
    }
  }

  private fail(error: Error): void {
    if (this.failure !== undefined) return;
    this.failure = error;
    this.onFailure(error);
    for (const batch of this.sent.values()) for (const w of batch.waiters) w.reject(error);
    for (const w of this.current) w.reject(error);
    this.sent.clear();
    this.current = [];
  }
}

/** Hands each case of an answered batch its results (parsed from the batch's lines in one go) and its lines. */
function settle(waiters: readonly Waiter[], answer: ScoredBatch): void {
  const { lines, ends, counts, fingerprints } = answer;
  // Each result is one line of JSON with no raw newline inside (JSON escapes them): the lines become one array.
  const all = lines === '' ? [] : (JSON.parse(`[${lines.slice(0, -1).replaceAll('\n', ',')}]`) as ScorerResult[]);
  let start = 0;
  let from = 0;
  waiters.forEach((waiter, i) => {
    const count = counts[i] ?? 0;
    const end = ends[i] ?? start;
    const results = all.slice(from, from + count);
    resultLines.set(results, lines.slice(start, end));
    from += count;
    start = end;
    const fingerprint = fingerprints[i] ?? '';
    waiter.resolve(fingerprint === '' ? { results } : { results, fingerprint });
  });
}
