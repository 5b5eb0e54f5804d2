/**
 * Configs' cases as the engine reads them, from the CLI bundle (`evallens validate <config>… --cases`)
 * in a child process: the same parser and dataset readers as a run, so the Test Explorer's ids and
 * lines are the ones a run reports. Not in the extension host's own thread: loading a config checks
 * its regular expressions synchronously (seconds, for some), which would freeze the editor.
 * Requests that arrive together share one process (its start-up and compiled schemas are most of the
 * cost). Called lazily, when the Testing view or a CodeLens asks, never during activation. vscode-free.
 */
import { forkCli } from '../runner/forkCli';
import { parseCaseList, type CaseList } from '../../protocol/caseList';

/** The most of the case lists read back (~100 bytes a case: a million cases fit). */
const MAX_CASE_LIST_BYTES = 256 * 1024 * 1024;

export type DiscoveredConfig = CaseList;
export type DiscoveredCase = CaseList['cases'][number];

/** Configs listed by one process at most; more wait for the next. */
const BATCH_LIMIT = 50;

/**
 * Lists configs' cases in one CLI process; never rejects (a broken config or CLI is a `problem` per
 * config). `untrusted` (Restricted Mode): the CLI reads the configs as an untrusted run does, reading
 * no environment variable a workspace file names.
 */
export async function discoverCases(
  cliPath: string,
  configFiles: readonly string[],
  cwd: string,
  timeoutMs = 120_000,
  untrusted = false,
): Promise<DiscoveredConfig[]> {
  const exit = await forkCli(cliPath, ['validate', ...configFiles, '--cases', ...(untrusted ? ['--untrusted'] : [])], {
    cwd,
    timeoutMs,
    maxStdoutBytes: MAX_CASE_LIST_BYTES,
  });
  const lists = new Map<string, CaseList>();
  if (!exit.stdoutCut) {
    for (const line of exit.stdout.toString('utf8').split('\n')) {
      const list = line.trim() === '' ? undefined : parseCaseList(line);
      if (list !== undefined) lists.set(list.configFile, list);
    }
  }
  const why =
    exit.startError ??
    (exit.stdoutCut
      ? `the list of cases is longer than ${MAX_CASE_LIST_BYTES / (1024 * 1024)} MB`
      : exit.signal !== null
        ? `listing the cases was stopped (${exit.signal}) after ${timeoutMs / 1000} s or by the system`
        : `listing the cases failed (exit code ${String(exit.code)})${errorLine(exit.stderr)}`);
  return configFiles.map((configFile) => lists.get(configFile) ?? { configFile, cases: [], reaches: [], problem: why });
}

/** Collects the requests of one turn of the event loop and lists them with one process. */
export class BatchedDiscovery {
  private queue: { configFile: string; resolve: (config: DiscoveredConfig) => void }[] = [];
  private scheduled = false;

  constructor(
    private readonly cliPath: string,
    private readonly cwd: string,
    /** Asked at each listing: granting trust takes effect on the next one. */
    private readonly trusted: () => boolean = () => true,
  ) {}

  readonly discover = (configFile: string): Promise<DiscoveredConfig> =>
    new Promise((resolve) => {
      this.queue.push({ configFile, resolve });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => this.flush());
    });

  private flush(): void {
    this.scheduled = false;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, BATCH_LIMIT);
      const files = [...new Set(batch.map((request) => request.configFile))];
      void discoverCases(this.cliPath, files, this.cwd, undefined, !this.trusted()).then((lists) => {
        const byFile = new Map(lists.map((list) => [list.configFile, list]));
        for (const request of batch) {
          request.resolve(
            byFile.get(request.configFile) ?? {
              configFile: request.configFile,
              cases: [],
              reaches: [],
              problem: 'the CLI did not list this config',
            },
          );
        }
      });
    }
  }
}

/** The line of the CLI's stderr that says what went wrong (an `evallens:` message or a Node error), if any. */
function errorLine(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim());
  const line = lines.find((l) => /^(evallens:|Error\b|\w+Error:)/.test(l)) ?? lines.find((l) => l !== '');
  return line === undefined ? '' : `: ${line}`;
}
