/**
 * Whether a run scores its cases on worker threads (cli/runWorkers.ts), and starting them. The main
 * thread keeps reading the dataset, the event stream, the run folder and the reports; the threads
 * run the scorers. Only runs whose scoring is pure computation go there: no target, judge,
 * subprocess or Python scorer, no database, no result cache, a trusted run; and only when the user
 * asks for threads (see scoringThreadCount).
 */
import { join } from 'node:path';
import { isMainThread, Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import type { RunConfig } from '../core/config/runConfig';
import { hasJudges } from '../core/judge/judgeCallPlan';
import { rememberedSecrets } from '../shared/text/secretMask';
import { scorerSignature, type RunWorkerData } from './runWorker';
import { ScoringPool } from './runWorkers';

const WORKER_FILE = join(__dirname, 'runWorker.js');

/**
 * How many scoring threads: EVALLENS_RUN_THREADS (the user's environment, never a workspace's) says
 * outright — N starts N threads, 0 or unset keeps the run on one thread. Off by default: on the
 * 2-core machine it was built on, one scoring thread made a 100,000-case run slower and larger (25 s
 * and 315 MB against 13 s and 175 MB at load 3, bench/README.md "Both cores"): handing cases to the
 * thread and back cost more than the scoring it moved.
 */
export function scoringThreadCount(env: Readonly<Record<string, string | undefined>>): number {
  const asked = env['EVALLENS_RUN_THREADS'];
  if (asked !== undefined && /^\d{1,2}$/.test(asked)) return Number(asked);
  return 0;
}

/** Whether every case of this run can be scored by a thread that has only the config: pure scorers. */
export function scoringIsPure(config: RunConfig, trusted: boolean): boolean {
  if (!trusted || hasJudges(config)) return false;
  if (config.dataset?.text !== undefined) return false;
  return config.scorers.every((s) => s.definition.reaches === undefined);
}

/**
 * Starts the scoring threads for this run, or undefined when it stays on the main thread (the
 * worker bundle is not built, the scorers are not pure, the dataset is small, one core).
 */
export function startScoringPool(
  config: RunConfig,
  options: { readonly trusted: boolean; readonly workspace: string },
  env: Readonly<Record<string, string | undefined>>,
): ScoringPool | undefined {
  if (!isMainThread || !existsSync(WORKER_FILE) || !scoringIsPure(config, options.trusted)) return undefined;
  const count = scoringThreadCount(env);
  if (count === 0) return undefined;
  const workerData: RunWorkerData = {
    kind: 'evallens-run-worker',
    configPath: config.file,
    workspace: options.workspace,
    remembered: [...rememberedSecrets()],
  };
  const threads = Array.from({ length: count }, () => {
    const worker = new Worker(WORKER_FILE, { workerData });
    // A run that ends early (a usage error before it starts) is not kept alive by its threads.
    worker.unref();
    return worker;
  });
  return new ScoringPool(threads, scorerSignature(config.scorers));
}
