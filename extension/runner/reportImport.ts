/**
 * Results made elsewhere (EvalBench's CSV results folder, or one of its CSV files) as an EvalLens
 * report, made by the CLI bundle in a child process (`evallens report <path> --runs-dir <dir>
 * --reporter json --out <file>`): the extension host never parses the CSV itself. The report also
 * lands in the runs folder, so "Open Results" and a reloaded window find it again. vscode-free.
 */
import { fork } from 'node:child_process';

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
export function importReport(
  cliPath: string,
  path: string,
  runsDir: string,
  reportFile: string,
  cwd: string,
  timeoutMs = 120_000,
): Promise<ImportAnswer> {
  return new Promise((resolve) => {
    const child = fork(cliPath, reportImportArgs(path, runsDir, reportFile), {
      cwd,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      execArgv: [],
      timeout: timeoutMs,
    });
    let stderr = '';
    let startError: string | undefined;
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      // Only the start matters (the first error line); a flood of bad rows must not grow without bound.
      if (stderr.length < 64 * 1024) stderr += text;
    });
    child.on('error', (e) => (startError = `the EvalLens CLI could not be started: ${e.message}`));
    child.on('close', (code, signal) => {
      if (startError !== undefined) resolve({ ok: false, reason: startError });
      else if (signal !== null)
        resolve({
          ok: false,
          reason: `reading the results was stopped (${signal}) after ${timeoutMs / 1000} s or by the system`,
        });
      else if (code === 0 || code === 1) resolve({ ok: true, reportFile });
      else resolve({ ok: false, reason: firstLine(stderr) ?? `the EvalLens CLI exited with ${String(code)}` });
    });
  });
}

function firstLine(text: string): string | undefined {
  const line = text.split('\n').find((l) => l.trim() !== '');
  return line === undefined ? undefined : line.replace(/^evallens: /, '');
}
