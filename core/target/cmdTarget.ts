import { killGroup, spawnGroup, whenOutputEnds } from '../process/processGroup';
import { dropCutStart, maskThenCutTail } from '../../shared/text/secretMask';

/** Most bytes of stdout a command target may write: an answer larger than this is an error. */
export const STDOUT_CAP_BYTES = 10 * 1024 * 1024;
/** The end of stderr that is kept (a target may log freely; only its last words explain a failure). */
const STDERR_TAIL_BYTES = 8 * 1024;
/** Most characters of stderr a reason quotes. */
export const STDERR_QUOTE_CHARS = 300;

/**
 * Runs a command target once: `sh -c <cmd>` from `cwd` in its own process group, `stdin` written and
 * closed, stdout collected. Resolves with stdout; rejects with an Error a person can read for a
 * command that cannot start, exits non-zero, dies by a signal, writes too much, or is stopped by
 * `signal` (then with the signal's reason). The whole process group is killed when the command
 * stops early and when `sh` exits; what left the group (`setsid`) ends with the run (docs/processes.md).
 *
 * It starts and stops the process group as the subprocess scorers do (core/process/processGroup.ts),
 * with the target's own rules (a larger stdout, stderr kept as a tail, errors thrown rather than scored).
 */
export function runCommandTarget(
  cmd: string,
  options: { cwd: string; stdin: string; env: Readonly<Record<string, string | undefined>>; signal: AbortSignal },
): Promise<string> {
  const { signal } = options;
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new Error('the target was stopped before it started'));
      return;
    }
    let settled = false;
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderrTail = Buffer.alloc(0);

    const child = spawnGroup({ shell: cmd }, options.cwd, options.env);
    let cancelPipeGrace = (): void => undefined;
    const settle = (outcome: { ok: true; stdout: string } | { ok: false; error: Error }) => {
      if (settled) return;
      settled = true;
      cancelPipeGrace();
      signal.removeEventListener('abort', onAbort);
      if (outcome.ok) resolve(outcome.stdout);
      else reject(outcome.error);
    };
    const stop = (error: Error) => {
      killGroup(child);
      child.stdout.destroy();
      child.stderr.destroy();
      settle({ ok: false, error });
    };
    const onAbort = () => stop(signal.reason instanceof Error ? signal.reason : new Error('the target was stopped'));
    signal.addEventListener('abort', onAbort, { once: true });

    child.on('error', (e) => stop(new Error(`the target command could not be started: ${e.message}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > STDOUT_CAP_BYTES)
        stop(new Error(`the target command wrote more than ${STDOUT_CAP_BYTES} bytes to stdout and was stopped`));
      else stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      const joined = Buffer.concat([stderrTail, chunk]);
      stderrTail = joined.length > STDERR_TAIL_BYTES ? joined.subarray(joined.length - STDERR_TAIL_BYTES) : joined;
    });
    // A command may exit without reading its stdin (EPIPE); its exit status and stdout still count.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.stdin);
    const exited = (code: number | null, killedBy: NodeJS.Signals | null) => {
      if (killedBy !== null)
        settle({
          ok: false,
          error: new Error(`the target command was killed by ${killedBy}${quoteStderr(stderrTail)}`),
        });
      else if (code !== 0)
        settle({
          ok: false,
          error: new Error(`the target command exited with code ${String(code)}${quoteStderr(stderrTail)}`),
        });
      else settle({ ok: true, stdout: Buffer.concat(stdout).toString('utf8') });
    };
    // When `sh` exits, spawnGroup ends its group; a process it left outside the group (`setsid`)
    // may still hold the pipes open, so after a short grace what was read is the whole output.
    cancelPipeGrace = whenOutputEnds(child, exited);
  });
}

/** The end of stderr, bounded, for a reason; or that there was none. */
function quoteStderr(tail: Buffer): string {
  const text = tail.toString('utf8').trim();
  if (text === '') return ' and wrote nothing to stderr';
  // The kept tail may start inside a secret (the bytes before it were dropped): that piece goes, then masking, then the cut.
  const whole = tail.length < STDERR_TAIL_BYTES ? text : dropCutStart(text);
  return `; stderr: "${maskThenCutTail(whole, STDERR_QUOTE_CHARS)}"`;
}
