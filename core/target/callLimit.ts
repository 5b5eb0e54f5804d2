/**
 * Runs one target call under its time limit and the signals that may stop it (the run being
 * cancelled, the preparer closing). The call gets one signal; when it aborts, its reason is an Error
 * saying why, and the call is expected to stop its work (kill the process group, abort the request)
 * and reject. Whatever the call rejects with then, the person sees why it was stopped.
 */
export async function limitedCall<T>(
  timeoutMs: number,
  stoppers: readonly (AbortSignal | undefined)[],
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const stop = (reason: string) => {
    if (!controller.signal.aborted) controller.abort(new Error(reason));
  };
  const timer = setTimeout(
    () => stop(`the target did not answer within its time limit of ${timeoutMs} ms and was stopped`),
    timeoutMs,
  );
  const onStop = () => stop('the run was stopped, and the target with it');
  const listening = stoppers.filter((s): s is AbortSignal => s !== undefined);
  for (const signal of listening) {
    if (signal.aborted) onStop();
    else signal.addEventListener('abort', onStop, { once: true });
  }
  try {
    return await call(controller.signal);
  } catch (e) {
    throw controller.signal.aborted && controller.signal.reason instanceof Error ? controller.signal.reason : e;
  } finally {
    clearTimeout(timer);
    for (const signal of listening) signal.removeEventListener('abort', onStop);
  }
}
