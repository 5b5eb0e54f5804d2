import { checkDataset, datasetErrorProblem } from '../core/config/checkInputs';
import { loadRunConfig } from '../core/config/loadRunConfig';
import { untrustedEnv } from '../core/config/untrustedEnv';
import type { RunConfig } from '../core/config/runConfig';
import { DatasetError } from '../core/dataset/datasetError';
import { hasErrors } from '../core/problem';
import { caseRecords } from '../core/runner/records';
import { printable } from '../shared/text/printable';
import { EXIT } from './exitCodes';
import { cliEngine } from './engine';
import { checkDatabaseConfigs, checkSetupFolders } from './preparers';
import { byPosition, formatProblem } from './problems';
import { checkSelection } from './selectionCheck';

// What cli/main.ts and the commands it loads when first used (cli/runCommand.ts) share: exit codes,
// loading a config as every command does, and how a problem is said.

export { EXIT } from './exitCodes';

/**
 * Loads what a config names as a run would, without running anything, and prints the problems:
 * every database config (parsed and checked, never connected to) and, with `readCases`, every case
 * (streamed). False when a run would refuse to start: `validate` and `plan` then refuse as `run` does.
 */
export async function inputsLoad(
  config: RunConfig,
  env: Env,
  options: { readonly readCases: boolean },
): Promise<boolean> {
  const problems = checkDatabaseConfigs(config, env);
  if (options.readCases && !hasErrors(problems)) {
    const dataset = await checkDataset(config);
    problems.push(...dataset.problems, ...checkSetupFolders(config, env, dataset.sqlTargets));
  }
  for (const problem of byPosition(problems)) process.stderr.write(`${formatProblem(problem, process.cwd())}\n`);
  return !hasErrors(problems);
}

/** Whether every `--case` id is in the dataset and the selection matches a case; else says why (a usage error). */
export async function selectionExists(
  config: RunConfig,
  command: { readonly config: string; readonly caseIds: readonly string[]; readonly filter?: string },
): Promise<boolean> {
  const problems = await checkSelection(caseRecords(config), command.config, {
    ids: command.caseIds,
    ...(command.filter === undefined ? {} : { filter: command.filter }),
  });
  for (const problem of problems) say(`evallens: ${problem}`);
  return problems.length === 0;
}

/** A dataset that cannot be read, as `run`, `plan` and `validate` all say it; the config or usage exit code. */
export function printDatasetError(error: DatasetError, config: RunConfig): number {
  const problem = datasetErrorProblem(error, config);
  say(problem === undefined ? error.message : formatProblem(problem, process.cwd()));
  return EXIT.usage;
}

export type Env = Readonly<Record<string, string | undefined>>;

/**
 * The environment a command reads the workspace's variables from: the process's, or with --untrusted
 * one that reads nothing (untrustedEnv.ts). The workspace of an untrusted run is the current folder.
 */
export function environmentOf(command: { readonly untrusted?: boolean }): Env {
  return command.untrusted === true ? untrustedEnv() : process.env;
}

/** Loads a config, printing its problems as `file:line:col`; undefined when it has errors. */
export function loadConfig(path: string, env: Env): RunConfig | undefined {
  const parsed = loadRunConfig(path, env, { workspace: process.cwd(), engine: cliEngine });
  for (const problem of byPosition(parsed.problems)) process.stderr.write(`${formatProblem(problem, process.cwd())}\n`);
  return parsed.config;
}

/** A line to stderr with whatever it quotes from the workspace or the command line made inert (shared/text/printable.ts). */
export function say(line: string): void {
  process.stderr.write(`${printable(line)}\n`);
}
