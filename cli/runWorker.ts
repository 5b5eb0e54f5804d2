/**
 * A thread that scores a run's cases for the main thread (cli/runWorkers.ts): it loads the same config
 * itself (a config's scorers are functions and cannot be sent), builds its scorers once, then answers
 * each batch of cases with what scoreCase gives for them, in the batch's order. Built as its own
 * bundle (dist/runWorker.js); where it is not built (the tests run the sources) runs stay on one thread.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { EvalCase } from '../core/case';
import { loadRunConfig } from '../core/config/loadRunConfig';
import type { ScorerResult } from '../core/result';
import { prepareScorers, type LiveScorer } from '../core/runner/prepareScorers';
import { scoreCase } from '../core/runner/scoreCase';
import { caseFingerprint } from '../core/compare/fingerprint';
import { rememberSecret } from '../shared/text/secretMask';
import { cliEngine } from './engine';

/** What the main thread tells a scoring thread when it starts it. */
export interface RunWorkerData {
  readonly kind: 'evallens-run-worker';
  readonly configPath: string;
  readonly workspace: string;
  /** The main thread's remembered secret values: a result masks exactly what it would have there. */
  readonly remembered: readonly string[];
}

/** A batch of cases to score, numbered by the main thread. */
export interface ScoreRequest {
  readonly seq: number;
  readonly trials: number;
  /** null holds the place of a record that could not be read: it gets no results. */
  readonly cases: readonly (EvalCase | null)[];
}

export type RunWorkerMessage =
  | { readonly type: 'ready'; readonly scorers: readonly string[] }
  | { readonly type: 'failed'; readonly message: string }
  | ({ readonly type: 'scored'; readonly seq: number } & ScoredBatch);

/**
 * A batch's answer, compact for the trip between threads: the results as the lines results.jsonl
 * holds (one JSON text per result, each ending in a newline), where each case's lines end, and
 * each case's fingerprint. One string copies far faster than thousands of small objects.
 */
export interface ScoredBatch {
  readonly lines: string;
  /** For each case, the offset in `lines` just past its last line. */
  readonly ends: Int32Array;
  /** For each case, how many results it has. */
  readonly counts: Int32Array;
  readonly fingerprints: readonly string[];
}

/** The scorer instances' names and kinds, so the main thread can check both threads loaded the same config. */
export function scorerSignature(
  scorers: readonly { readonly name: string; readonly definition: { readonly key: string } }[],
): string[] {
  return scorers.map((s) => `${s.name}:${s.definition.key}`);
}

async function scoreBatch(request: ScoreRequest, live: readonly LiveScorer[]): Promise<ScoredBatch> {
  const abort = { controller: new AbortController() };
  const now = () => performance.now();
  const ends = new Int32Array(request.cases.length);
  const counts = new Int32Array(request.cases.length);
  const fingerprints: string[] = [];
  let lines = '';
  for (const [i, evalCase] of request.cases.entries()) {
    if (evalCase === null) {
      ends[i] = lines.length;
      fingerprints.push('');
      continue;
    }
    const results: ScorerResult[] = await scoreCase(evalCase, live, request.trials, { now, abort });
    for (const result of results) lines += `${JSON.stringify(result)}\n`;
    ends[i] = lines.length;
    counts[i] = results.length;
    fingerprints.push(caseFingerprint(evalCase));
  }
  return { lines, ends, counts, fingerprints };
}

function serve(data: RunWorkerData, port: NonNullable<typeof parentPort>): void {
  for (const value of data.remembered) rememberSecret(value);
  const loaded = loadRunConfig(data.configPath, process.env, { workspace: data.workspace, engine: cliEngine });
  if (loaded.config === undefined) {
    port.postMessage({ type: 'failed', message: `${data.configPath} no longer loads` } satisfies RunWorkerMessage);
    return;
  }
  const config = loaded.config;
  const live = prepareScorers(config.scorers);
  port.postMessage({ type: 'ready', scorers: scorerSignature(config.scorers) } satisfies RunWorkerMessage);
  // Batches are scored one after another, in the order they came.
  let queue = Promise.resolve();
  port.on('message', (request: ScoreRequest) => {
    queue = queue
      .then(async () => {
        const batch = await scoreBatch(request, live);
        port.postMessage({ type: 'scored', seq: request.seq, ...batch } satisfies RunWorkerMessage, [
          batch.ends.buffer as ArrayBuffer,
          batch.counts.buffer as ArrayBuffer,
        ]);
      })
      .catch((e: unknown) => {
        const message = `scoring failed: ${e instanceof Error ? e.message : String(e)}`;
        port.postMessage({ type: 'failed', message } satisfies RunWorkerMessage);
      });
  });
}

const given = workerData as Partial<RunWorkerData> | undefined;
if (!isMainThread && parentPort !== null && given?.kind === 'evallens-run-worker')
  serve(given as RunWorkerData, parentPort);
