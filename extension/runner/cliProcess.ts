/**
 * One run of the CLI bundle as a child process: `fork` uses the host's own Node (in VS Code, the
 * extension host's Electron runs it as plain Node), so no `node` needs to be on the PATH. Its stdout
 * is the JSON-lines run event stream, decoded with protocol/runEvents; stderr is passed on as text.
 *
 * Cancelling kills the CLI and every process it started (processTree.ts) at once — the CLI's own
 * SIGTERM handling waits for running scorers, which is not what a Stop button means. The CLI is
 * SIGKILLed, so its own exit cleanup cannot run: the tree is walked here, and (Linux) every process
 * carrying this run's environment marker is ended too, `setsid` escapees included.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { killProcessTree } from './processTree';
import { markedEnv, newRunToken } from '../../shared/process/runProcesses';
import {
  createDecodeState,
  decodeEvents,
  finishEvents,
  overLongMessage,
  RunEventDecodeError,
  type RunEvent,
} from '../../protocol/runEvents';
import { asReportHandover, REPORT_HANDOVER_ENV } from '../../protocol/reportHandover';

export interface CliRunHandlers {
  readonly onEvent: (event: RunEvent) => void;
  /** Text the CLI wrote to stderr (config problems, notices), as it arrives. */
  readonly onStderr: (text: string) => void;
  /**
   * An event line longer than the decoder's cap was skipped (the run goes on with the next line):
   * a one-line message saying which line and how long. Without this handler it goes to `onStderr`.
   */
  readonly onSkippedEvent?: (message: string) => void;
}

export interface CliExit {
  /** The CLI's exit code (0 passed, 1 failed, 2 config or usage error, 130 cancelled); null when killed. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Set when the stream broke (a line that is not a run event): later lines were ignored. */
  readonly streamError?: string;
  /** True when `cancel` ended it. */
  readonly cancelled: boolean;
  /** report.json as the run wrote it, handed over its IPC channel (protocol/reportHandover.ts); absent for a large report or an older CLI. */
  readonly reportJson?: string;
}

export interface CliRun {
  /** The CLI's process id (undefined when it could not be started). */
  readonly pid: number | undefined;
  readonly exited: Promise<CliExit>;
  /** Ends the run now: the CLI and everything in its process group. */
  cancel(): void;
}

export function startCliRun(cliPath: string, args: readonly string[], cwd: string, handlers: CliRunHandlers): CliRun {
  // The run's marker (shared/process/runProcesses.ts): the CLI and everything it starts inherit it, so
  // a cancel finds even a process that left the tree with `setsid` and was reparented.
  const token = newRunToken();
  const child = fork(cliPath, [...args], {
    cwd,
    // Asks the run to hand its report over the IPC channel: no second process to read it.
    env: { ...markedEnv(process.env, token), [REPORT_HANDOVER_ENV]: '1' },
    detached: process.platform !== 'win32',
    // Not the host's own flags (an extension host under a debugger passes --inspect, which would clash).
    execArgv: [],
    // Under Electron, fork sets ELECTRON_RUN_AS_NODE for the child, so the bundle runs as plain Node.
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const state = createDecodeState();
  let streamError: string | undefined;
  let cancelled = false;
  const deliver = (events: readonly RunEvent[]) => {
    for (const skipped of state.overLong.splice(0)) {
      const message = overLongMessage(skipped, state.lines.maxLineChars);
      if (handlers.onSkippedEvent !== undefined) handlers.onSkippedEvent(message);
      else handlers.onStderr(`${message}\n`);
    }
    for (const event of events) handlers.onEvent(event);
  };
  child.stdout?.on('data', (chunk: Buffer) => {
    if (streamError !== undefined) return;
    try {
      deliver(decodeEvents(chunk, state));
    } catch (e) {
      streamError = e instanceof RunEventDecodeError ? e.message : String(e);
    }
  });
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => handlers.onStderr(text));
  let reportJson: string | undefined;
  child.on('message', (message: unknown) => {
    const handover = asReportHandover(message);
    if (handover !== undefined) reportJson = handover.json;
  });

  const exited = new Promise<CliExit>((resolve) => {
    let spawnError: string | undefined;
    child.on('error', (e) => {
      spawnError = e.message;
    });
    child.on('close', (code, signal) => {
      if (streamError === undefined) {
        try {
          deliver(finishEvents(state));
        } catch (e) {
          streamError = e instanceof RunEventDecodeError ? e.message : String(e);
        }
      }
      const error =
        streamError ?? (spawnError === undefined ? undefined : `the CLI could not be started: ${spawnError}`);
      resolve({
        code,
        signal,
        cancelled,
        ...(error === undefined ? {} : { streamError: error }),
        ...(reportJson === undefined ? {} : { reportJson }),
      });
    });
  });

  return {
    pid: child.pid,
    exited,
    cancel() {
      if (cancelled) return;
      cancelled = true;
      killTree(child, token);
    },
  };
}

function killTree(child: ChildProcess, token: string): void {
  if (child.pid === undefined) return;
  // Even when the CLI has exited, what it started may not have (it may have been killed before its own cleanup ran).
  if (child.exitCode !== null || child.signalCode !== null) killProcessTree(undefined, token);
  else killProcessTree(child.pid, token);
}
