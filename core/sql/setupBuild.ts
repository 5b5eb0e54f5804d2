import type { SetupStep } from './setupFolder';
import { SqliteWorker, type SqlJsAssets, type WorkerReply } from './sqliteWorker';

/**
 * Runs setup steps on an empty database in a new worker, one step at a time: the next step (a batch
 * of rows read from disk) is only read once the worker has done the last, so memory holds one batch.
 * The worker is adopted by the engine.
 */
export async function buildFromSteps(
  sqlJs: SqlJsAssets,
  steps: AsyncIterable<SetupStep>,
  heapLimitMb: number,
  timeLimitMs: number,
): Promise<{ bytes: Uint8Array; worker: SqliteWorker }> {
  const worker = new SqliteWorker(sqlJs, null, heapLimitMb);
  let pending: { resolve: (reply: WorkerReply) => void; reject: (e: Error) => void } | undefined;
  let stopped: Error | undefined;
  const stop = (e: Error) => {
    stopped ??= e;
    worker.terminate();
    pending?.reject(stopped);
  };
  worker.onStop = (e) => stop(new Error(`cannot build the SQLite database: ${e.message}`));
  worker.onReply = (reply) => {
    if (reply.type === 'fatal') stop(new Error(`cannot start SQLite (sql.js): ${reply.error}`));
    else pending?.resolve(reply);
  };
  const send = (step: Parameters<SqliteWorker['post']>[0]): Promise<WorkerReply> => {
    if (stopped !== undefined) return Promise.reject(stopped);
    return new Promise((resolve, reject) => {
      pending = { resolve, reject };
      worker.post(step);
    });
  };
  const timer = setTimeout(
    () => stop(new Error(`building the SQLite database took longer than ${timeLimitMs / 1000} s, the limit`)),
    timeLimitMs,
  );
  worker.busy(true);
  try {
    await send({ type: 'setup', step: { kind: 'begin' } });
    for await (const step of steps) {
      if (stopped !== undefined) throw stopped;
      const reply = await send({ type: 'setup', step });
      if (reply.type !== 'setup-done' || reply.error === undefined) continue;
      const where = step.kind === 'sql' ? step.where : step.kind === 'rows' ? (step.where[reply.row ?? 0] ?? '') : '';
      throw new Error(`${where}: ${reply.error}${step.kind === 'rows' ? ` (inserting a row into ${step.table})` : ''}`);
    }
    const reply = await send({ type: 'setup', step: { kind: 'end' } });
    if (reply.type !== 'built')
      throw new Error(
        `cannot build the SQLite database: ${reply.type === 'setup-done' ? (reply.error ?? 'no database') : reply.type}`,
      );
    worker.busy(false);
    return { bytes: reply.bytes, worker };
  } catch (e) {
    worker.terminate();
    throw e;
  } finally {
    clearTimeout(timer);
  }
}
