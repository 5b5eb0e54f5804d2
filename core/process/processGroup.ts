import type { ChildProcessWithoutNullStreams, SpawnOptionsWithStdioTuple, StdioPipe } from 'node:child_process';
import { groupEnded, groupStarted, hostRunToken, markedEnv } from '../../shared/process/runProcesses';

/** What to start: `sh -c <cmd>` for a shell command, or a program with its arguments (no shell). */
export type ProcessCommand = { readonly shell: string } | { readonly file: string; readonly args: readonly string[] };

/**
 * Starts the command in a process group of its own (detached), from `cwd` (with `env` when given,
 * else this process's), with pipes on all three streams. A group, so that stopping it stops what a
 * shell started too (`killGroup`). Its environment carries the run's marker, and the group is
 * registered until its leader exits (then the group is killed: nothing it started outlives it in
 * the group), so that `endRunProcesses` (runProcesses.ts) can end all of it, descendants that left
 * the group included, even in the exit path.
 */
export function spawnGroup(
  command: ProcessCommand,
  cwd: string,
  env?: Readonly<Record<string, string | undefined>>,
): ChildProcessWithoutNullStreams {
  const options: SpawnOptionsWithStdioTuple<StdioPipe, StdioPipe, StdioPipe> = {
    cwd,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: markedEnv(env ?? process.env, hostRunToken),
  };
  // Loaded when a process is first started, not with the scorers that may start one (`evallens validate`).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { spawn } = require('node:child_process') as typeof import('node:child_process');
  const child =
    'shell' in command ? spawn('sh', ['-c', command.shell], options) : spawn(command.file, [...command.args], options);
  const pid = child.pid;
  if (pid !== undefined) {
    groupStarted(pid);
    child.once('exit', () => {
      killGroup(child);
      groupEnded(pid);
    });
  }
  return child;
}

/**
 * How long after a process exits its pipes may stay open before what was read counts as all its
 * output. A process it started outside its group (`setsid`) can hold them open for ever, and the
 * pipes' 'close' would never come; it is ended with the run (runProcesses.ts).
 */
export const PIPE_GRACE_MS = 500;

/**
 * Calls `ended` once the child's output is whole: at its pipes' 'close', or PIPE_GRACE_MS after it
 * exits when a process it left outside its group still holds the pipes open (they are destroyed then,
 * and what was read is the whole output). `ended` may be called twice; the caller settles once. The
 * returned function cancels the grace, for a run that ends some other way (a timeout, an abort).
 */
export function whenOutputEnds(
  child: ChildProcessWithoutNullStreams,
  ended: (code: number | null, signal: NodeJS.Signals | null) => void,
): () => void {
  let grace: ReturnType<typeof setTimeout> | undefined;
  child.on('exit', (code, killedBy) => {
    grace = setTimeout(() => {
      child.stdout.destroy();
      child.stderr.destroy();
      ended(code, killedBy);
    }, PIPE_GRACE_MS);
  });
  child.on('close', (code, killedBy) => ended(code, killedBy));
  return () => clearTimeout(grace);
}

/** SIGKILLs the child's whole process group; quiet when it is already gone. */
export function killGroup(child: { readonly pid?: number | undefined }): void {
  if (child.pid === undefined) return;
  try {
    // Negative pid: the whole process group, so what `sh -c` started dies with it.
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** How a process ended, as a reason fragment: `exited with code 3` or `was killed by SIGKILL`. */
export function endedHow(code: number | null, signal: NodeJS.Signals | null): string {
  return signal !== null ? `was killed by ${signal}` : `exited with code ${String(code)}`;
}
