/**
 * Results made elsewhere (EvalBench's CSV results folder, or one of its CSV files) as an EvalLens
 * report, made by the CLI bundle in a child process (`evallens report <path> --runs-dir <dir>
 * --reporter json --out <file>`): the extension host never parses the CSV itself. The report also
 * lands in the runs folder, so "Open Results" and a reloaded window find it again. vscode-free.
 */
import { firstErrorLine, forkCli } from './forkCli';

export type ImportAnswer =
  { readonly ok: true; readonly reportFile: string } | { readonly ok: false; readonly reason: string };

export function reportImportArgs(path: string, runsDir: string, reportFile: string): string[] {
  return ['report', path, '--runs-dir', runsDir, '--reporter', 'json', '--out', reportFile, '--no-color'];
}

/**
 * Asks the CLI to write the report of `path` to `reportFile`; never throws. Exit 0 (all passed) and 1
 * (some failed, or rows it could not read) both wrote the report; 2 did not, and its first error line
 * (file:line:col and what was expected) is the reason. Bounded by `timeoutMs`.
 */
export async function importReport(
  cliPath: string,
  path: string,
  runsDir: string,
  reportFile: string,
  cwd: string,
  timeoutMs = 120_000,
): Promise<ImportAnswer> {
  const exit = await forkCli(cliPath, reportImportArgs(path, runsDir, reportFile), {
    cwd,
    timeoutMs,
    maxStdoutBytes: 0,
  });
  if (exit.startError !== undefined) return { ok: false, reason: exit.startError };
  if (exit.signal !== null)
    return {
      ok: false,
      reason: `reading the results was stopped (${exit.signal}) after ${timeoutMs / 1000} s or by the system`,
    };
  if (exit.code === 0 || exit.code === 1) return { ok: true, reportFile };
  return { ok: false, reason: firstErrorLine(exit.stderr) ?? `the EvalLens CLI exited with ${String(exit.code)}` };
}
