import { killGroup, spawnGroup, whenOutputEnds, type ProcessCommand } from '../../process/processGroup';

/** Most bytes read from stdout or from stderr of one run; more stops the process. */
export const STREAM_CAP_BYTES = 1024 * 1024;

export interface RunLimit {
  readonly ms: number;
  /** Where the limit comes from, for the reason (`cmd_timeout_ms`, "just under the scorer's time limit"). */
  readonly from: string;
}

/**
 * How one run ended. `exited`: the process ran to its end (any exit code, or killed by a signal
 * from elsewhere). `stopped`: it could not start, or was stopped here (time limit, the run's
 * signal, too much output); `reason` says which, starting with the process's noun.
 */
export type RunOutcome =
  | {
      readonly kind: 'exited';
      readonly code: number | null;
      readonly signal: NodeJS.Signals | null;
      readonly stdout: string;
      readonly stderr: string;
    }
  | { readonly kind: 'stopped'; readonly reason: string; readonly stderr: string };

/**
 * Runs a command once: `stdin` written (a process may exit without reading it), stdout and stderr
 * collected up to 1 MiB each, the process group killed past the limit or on the signal, and the
 * processes it leaves behind when it exits ended too. Never rejects. `noun` names the process in
 * reasons ("the command", "the script").
 */
export function runOnce(
  command: ProcessCommand,
  cwd: string,
  stdin: string,
  limit: RunLimit,
  signal: AbortSignal,
  noun: string,
): Promise<RunOutcome> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve({ kind: 'stopped', reason: `the run stopped the scorer before ${noun} started`, stderr: '' });
      return;
    }
    // The limit counts from here, before the spawn: forking can take a while on a loaded machine,
    // and the runner's own limit (which this one keeps under) started before it too.
    const started = performance.now();
    let settled = false;
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let stdoutBytes = 0;
    let stderrBytes = 0;
    const child = spawnGroup(command, cwd);
    const errText = () => Buffer.concat(stderr).toString('utf8');

    let cancelPipeGrace = (): void => undefined;
    const finish = (outcome: RunOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      cancelPipeGrace();
      signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const stop = (reason: string) => {
      killGroup(child);
      child.stdout.destroy();
      child.stderr.destroy();
      finish({ kind: 'stopped', reason, stderr: errText() });
    };
    const onAbort = () => stop(`the run stopped ${noun} (its time limit or a canceled run)`);
    const timer = setTimeout(
      () => stop(`${noun} did not finish within ${limit.ms} ms (${limit.from}) and was stopped`),
      Math.max(0, limit.ms - (performance.now() - started)),
    );
    signal.addEventListener('abort', onAbort, { once: true });

    child.on('error', (e) => stop(`${noun} could not be started: ${e.message}`));
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > STREAM_CAP_BYTES) stop(`${noun} wrote more than ${STREAM_CAP_BYTES} bytes to stdout`);
      else stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderrBytes += chunk.length;
      if (stderrBytes > STREAM_CAP_BYTES) stop(`${noun} wrote more than ${STREAM_CAP_BYTES} bytes to stderr`);
      else stderr.push(chunk);
    });
    // A process may exit without reading its stdin (EPIPE); its exit status and stdout still count.
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
    const exited = (code: number | null, killedBy: NodeJS.Signals | null) =>
      finish({
        kind: 'exited',
        code,
        signal: killedBy,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: errText(),
      });
    // When the process exits, spawnGroup ends its group; a process it left outside the group may
    // still hold the pipes open, so after a short grace what was read is the whole output.
    cancelPipeGrace = whenOutputEnds(child, exited);
  });
}
