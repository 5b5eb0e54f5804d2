/**
 * One EvalLens CLI command in a child process, bounded: in time (`timeoutMs`, then the system kills it),
 * in what is read back from stdout (past `maxStdoutBytes` the child is killed and the answer says the
 * output was cut), and in what is kept of stderr (its start: the first error line is what a reason
 * quotes). Every extension caller of the CLI that waits for its exit goes through here (a run's and a
 * streamed report's children, read as they come, bound their own lines), so none of them can be made
 * to hold an unbounded output in the editor's process. vscode-free.
 */
import { fork } from 'node:child_process';

/** The start of stderr kept: enough for the first error lines, never a flood of them. */
export const MAX_STDERR_CHARS = 64 * 1024;

export interface ForkCliOptions {
  readonly cwd: string;
  readonly timeoutMs: number;
  /** The most stdout read back; 0: stdout is not read at all. */
  readonly maxStdoutBytes: number;
}

export interface ForkCliExit {
  /** The exit code; null when the child was killed or could not start. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: Buffer;
  /** stdout passed `maxStdoutBytes`: the child was killed and `stdout` is incomplete. */
  readonly stdoutCut: boolean;
  /** The first MAX_STDERR_CHARS of stderr. */
  readonly stderr: string;
  /** Why the child could not be started, when it could not. */
  readonly startError?: string;
}

/** Runs `evallens <args>` and waits for it; never rejects. */
export function forkCli(cliPath: string, args: readonly string[], options: ForkCliOptions): Promise<ForkCliExit> {
  return new Promise((resolve) => {
    const child = fork(cliPath, [...args], {
      cwd: options.cwd,
      stdio: ['ignore', options.maxStdoutBytes > 0 ? 'pipe' : 'ignore', 'pipe', 'ipc'],
      execArgv: [],
      timeout: options.timeoutMs,
    });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stdoutCut = false;
    let stderr = '';
    let startError: string | undefined;
    child.stdout?.on('data', (chunk: Buffer) => {
      if (stdoutCut) return;
      if (stdoutBytes + chunk.length > options.maxStdoutBytes) {
        stdoutCut = true;
        child.kill('SIGKILL');
        return;
      }
      stdoutBytes += chunk.length;
      stdout.push(chunk);
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      if (stderr.length < MAX_STDERR_CHARS) stderr += text.slice(0, MAX_STDERR_CHARS - stderr.length);
    });
    child.on('error', (e) => (startError = `the EvalLens CLI could not be started: ${e.message}`));
    child.on('close', (code, signal) => {
      resolve({
        code: startError === undefined ? code : null,
        signal,
        stdout: Buffer.concat(stdout),
        stdoutCut,
        stderr,
        ...(startError === undefined ? {} : { startError }),
      });
    });
  });
}

/** The first non-blank line of `text` without the CLI's `evallens: ` prefix. */
export function firstErrorLine(text: string): string | undefined {
  const line = text.split('\n').find((l) => l.trim() !== '');
  return line === undefined ? undefined : line.replace(/^evallens: /, '');
}

/** The first non-blank line of `text` that is not a warning, without the CLI's `evallens: ` prefix. */
export function firstNonWarningLine(text: string): string | undefined {
  const line = text.split('\n').find((l) => l.trim() !== '' && !l.startsWith('evallens: warning:'));
  return line?.replace(/^evallens: /, '');
}
