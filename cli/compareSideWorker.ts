/**
 * Reads one side of a comparison on a worker thread, so the two reports of `evallens compare` are
 * read at once on two cores (reading is nearly all of a comparison's time). Built as its own small
 * bundle (dist/compareSideWorker.js: only the reader, so the thread starts in milliseconds); where it
 * is not built (the tests run the sources) the side is read on the calling thread.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { CollectedRun, type CollectedRunData } from '../core/compare/collectRun';
import { CompareInputError, readCompareSide, type CompareSide } from './compareInput';

const WORKER_FILE = join(__dirname, 'compareSideWorker.js');

type SideData = Omit<CompareSide, 'run'> & { readonly run: CollectedRunData };

type Answer = { readonly side: SideData } | { readonly inputError: string } | { readonly failure: string };

/** `readCompareSide(path)`, on a worker thread when the worker is built. */
export function readCompareSideAside(path: string): Promise<CompareSide> {
  if (!existsSync(WORKER_FILE) || !isMainThread) return readCompareSide(path);
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_FILE, { workerData: { path } });
    let answered = false;
    worker.once('message', (answer: Answer) => {
      answered = true;
      void worker.terminate();
      if ('side' in answer) resolve({ ...answer.side, run: CollectedRun.fromData(answer.side.run) });
      else if ('inputError' in answer) reject(new CompareInputError(answer.inputError));
      else reject(new Error(answer.failure));
    });
    worker.once('error', (e) => {
      if (!answered) reject(e);
    });
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`the thread reading ${path} stopped (exit code ${code}) before it answered`));
    });
  });
}

async function answer(path: string): Promise<Answer> {
  try {
    const side = await readCompareSide(path);
    return { side: { ...side, run: side.run.toData() } };
  } catch (e) {
    if (e instanceof CompareInputError) return { inputError: e.message };
    return { failure: e instanceof Error ? e.message : String(e) };
  }
}

if (!isMainThread && parentPort !== null && typeof (workerData as { path?: unknown })?.path === 'string') {
  const port = parentPort;
  void answer((workerData as { path: string }).path).then((a) => {
    const run = 'side' in a ? a.side.run : undefined;
    const buffers =
      run === undefined ? [] : [run.status, run.sums, run.counts, run.decided, run.passes].map((x) => x.buffer);
    port.postMessage(a, buffers as ArrayBuffer[]);
  });
}
