/**
 * The command lines the extension gives the CLI bundle. The extension runs evals through the same
 * engine and the same run folder as CI (`evallens run … --reporter jsonl`), out of its own process.
 */

export interface RunRequestArgs {
  readonly configFile: string;
  /** Only these cases; empty runs the whole config. */
  readonly caseIds: readonly string[];
  readonly trials?: number;
  readonly concurrency?: number;
  /** Absolute folder for run folders. */
  readonly runsDir: string;
  /** The workspace is not trusted: the engine skips what runs workspace code or reaches the network. */
  readonly untrusted: boolean;
}

export function runArgs(request: RunRequestArgs): string[] {
  const args = ['run', request.configFile, '--reporter', 'jsonl', '--runs-dir', request.runsDir, '--no-color'];
  for (const id of request.caseIds) args.push('--case', id);
  if (request.trials !== undefined) args.push('--trials', String(request.trials));
  if (request.concurrency !== undefined) args.push('--concurrency', String(request.concurrency));
  if (request.untrusted) args.push('--untrusted');
  return args;
}

/** `untrusted`: the plan reads the config as an untrusted run does (no environment variable the workspace names). */
export function planArgs(
  request: Pick<RunRequestArgs, 'configFile' | 'caseIds' | 'trials'> & { readonly untrusted?: boolean },
): string[] {
  const args = ['plan', request.configFile];
  for (const id of request.caseIds) args.push('--case', id);
  if (request.trials !== undefined) args.push('--trials', String(request.trials));
  args.push('--json');
  if (request.untrusted === true) args.push('--untrusted');
  return args;
}
