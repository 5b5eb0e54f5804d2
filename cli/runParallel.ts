/**
 * Whether a run scores its cases on worker threads (cli/runWorkers.ts), and starting them. The main
 * thread keeps reading the dataset, the event stream, the run folder and the reports; the threads
 * run the scorers. Only runs whose scoring is pure computation go there: no target, judge,
 * subprocess or Python scorer, no database, no result cache, a trusted run, and a dataset large
 * enough that starting a thread (it loads the config again: ~0.2 s of CPU) is paid back.
 */
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
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
 * Datasets smaller than this are scored on the main thread. At ~350 bytes a case it is ~6,000 cases,
 * which one thread scores in ~0.25 s: about what a thread costs to start, so below it nothing is won.
 */
export const PARALLEL_MIN_DATASET_BYTES = 2 * 1024 * 1024;

/**
 * How many scoring threads: EVALLENS_RUN_THREADS (the user's environment, never a workspace's) says
 * outright — 0 keeps the run on one thread, N starts N threads whatever the dataset's size; unset, one
 * thread fewer than the cores (at least one, none on a single core) for a large enough dataset.
 */
export function scoringThreadCount(
  config: RunConfig,
  env: Readonly<Record<string, string | undefined>>,
  cores = availableParallelism(),
): number {
  const asked = env['EVALLENS_RUN_THREADS'];
  if (asked !== undefined && /^\d{1,2}$/.test(asked)) return Number(asked);
  if (cores < 2 || config.dataset === undefined) return 0;
  let size = 0;
  try {
    size = statSync(config.dataset.path).size;
  } catch {
    return 0;
  }
  return size >= PARALLEL_MIN_DATASET_BYTES ? Math.min(cores - 1, 4) : 0;
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
  const count = scoringThreadCount(config, env);
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
