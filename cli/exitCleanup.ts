import { endRunProcesses } from '../shared/process/runProcesses';

/** Exit codes of a run ended by a signal: 130 for Ctrl-C / SIGTERM (cancelled), 129 for SIGHUP. */
const CANCELLED = 130;
const HUNG_UP = 129;

let exitHookInstalled = false;

/**
 * How a run answers signals, and the promise that nothing it started outlives it.
 *
 * - The first SIGINT (Ctrl-C) or SIGTERM cancels: no new case starts; running scorers finish or time out.
 * - A second one exits at once (130); SIGHUP (the terminal went away) exits at once (129), and so
 *   does losing the IPC channel of a parent that forked this CLI (the editor's extension host died).
 * - Whenever this process exits — a normal end, a second signal, an internal error — an 'exit'
 *   handler ends, synchronously and with SIGKILL, every process the run started (every group, every
 *   descendant seen, every process carrying the run's marker: shared/process/runProcesses.ts). It is
 *   synchronous because nothing can be awaited once `process.exit` is called.
 *
 * `end()` (when the run is over) removes the signal handlers and ends what the run's commands left
 * behind (say, a daemon a scorer started with `setsid`), so it does not wait for the exit.
 */
export function watchRunSignals(cancel: () => void, say: (text: string) => void): { end(): void } {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      endRunProcesses();
    });
  }
  let cancelled = false;
  const onStop = () => {
    if (cancelled) process.exit(CANCELLED);
    cancelled = true;
    say('\nevallens: stopping — no new cases start; running scorers finish or time out (Ctrl-C again to quit now)\n');
    cancel();
  };
  const onHangUp = () => process.exit(HUNG_UP);
  process.on('SIGINT', onStop);
  process.on('SIGTERM', onStop);
  process.on('SIGHUP', onHangUp);
  // Forked with an IPC channel (the extension): its closing means the host is gone. Listening refs
  // the channel, so the listener is removed when the run ends, letting the process exit.
  const forked = process.send !== undefined;
  if (forked) process.on('disconnect', onHangUp);
  return {
    end() {
      process.off('SIGINT', onStop);
      process.off('SIGTERM', onStop);
      process.off('SIGHUP', onHangUp);
      if (forked) process.off('disconnect', onHangUp);
      endRunProcesses();
    },
  };
}
