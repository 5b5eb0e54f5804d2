/**
 * The two CLI commands behind the editor's baselines, each in a child process like every other CLI
 * use of the extension (the host parses no report and runs no engine code):
 * - `evallens baseline save <config> --runs-dir <dir>` ("EvalLens: Save as Baseline");
 * - `evallens compare <baseline file> <report.json> --reporter json --fail-on never`, after a run of a
 *   config with a baseline file beside it whose report carries no `comparison` of its own.
 * Neither runs workspace code nor reads an environment variable the workspace names: both are allowed
 * in Restricted Mode. Both are bounded in time and in what they read back. vscode-free.
 */
import { firstErrorLine, forkCli } from './forkCli';

export type SaveAnswer = { readonly ok: true } | { readonly ok: false; readonly reason: string };
export type CompareAnswer =
  { readonly ok: true; readonly json: string } | { readonly ok: false; readonly reason: string };

/** The most of the compare report read back, in bytes (it lists every case: about 40 bytes each). */
export const MAX_COMPARE_BYTES = 32 * 1024 * 1024;

export function saveBaselineArgs(configFile: string, runsDir: string): string[] {
  return ['baseline', 'save', configFile, '--runs-dir', runsDir];
}

export function compareArgs(baselineFile: string, reportFile: string): string[] {
  return ['compare', baselineFile, reportFile, '--reporter', 'json', '--fail-on', 'never'];
}

/** Writes the config's latest run as its baseline; never throws. Exit 0 wrote it; otherwise the first error line is the reason. */
export function saveBaseline(
  cliPath: string,
  configFile: string,
  runsDir: string,
  cwd: string,
  timeoutMs = 120_000,
): Promise<SaveAnswer> {
  return runCli(cliPath, saveBaselineArgs(configFile, runsDir), cwd, timeoutMs, 0).then((exit) =>
    exit.code === 0 ? { ok: true } : { ok: false, reason: exit.reason },
  );
}

/** The compare report of `reportFile` against `baselineFile`; never throws. */
export function compareWithBaseline(
  cliPath: string,
  baselineFile: string,
  reportFile: string,
  cwd: string,
  timeoutMs = 60_000,
): Promise<CompareAnswer> {
  return runCli(cliPath, compareArgs(baselineFile, reportFile), cwd, timeoutMs, MAX_COMPARE_BYTES).then((exit) => {
    if (exit.code !== 0) return { ok: false, reason: exit.reason };
    if (exit.stdoutCut) return { ok: false, reason: `the comparison is longer than ${MAX_COMPARE_BYTES} bytes` };
    return { ok: true, json: exit.stdout };
  });
}

interface CliExit {
  readonly code: number | null;
  readonly stdout: string;
  readonly stdoutCut: boolean;
  readonly reason: string;
}

async function runCli(
  cliPath: string,
  args: readonly string[],
  cwd: string,
  timeoutMs: number,
  maxStdout: number,
): Promise<CliExit> {
  const exit = await forkCli(cliPath, args, { cwd, timeoutMs, maxStdoutBytes: maxStdout });
  const reason =
    exit.startError ??
    (exit.signal !== null && !exit.stdoutCut
      ? `the EvalLens CLI was stopped (${exit.signal}) after ${timeoutMs / 1000} s or by the system`
      : (firstErrorLine(exit.stderr) ?? `the EvalLens CLI exited with ${String(exit.code ?? exit.signal)}`));
  return { code: exit.code, stdout: exit.stdout.toString('utf8'), stdoutCut: exit.stdoutCut, reason };
}
