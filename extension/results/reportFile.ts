/**
 * A `report.json` (the CLI's, from this machine or from CI) for the results view, read and checked by
 * the CLI in a child process (`evallens report <file> --reporter json`): the schema check of a large
 * report, and a hostile one, never runs on the editor's thread. The CLI prints the checked report on
 * stdout, or says what is wrong at file:line:col on stderr (cli/reportJson.ts). No vscode here.
 */
import { firstNonWarningLine, forkCli } from '../runner/forkCli';
import { dirname } from 'node:path';
import type { Report } from '../../core/report/report';

/** The most stdout taken from the CLI: above the largest report it reads (EVALLENS_MAX_REPORT_BYTES may raise that to here). */
const MAX_REPORT_CHARS = 1024 * 1024 * 1024;
const READ_TIMEOUT_MS = 120_000;

export function reportFileArgs(path: string): string[] {
  return ['report', path, '--reporter', 'json', '--no-color'];
}

/** The report, or an Error whose message is the CLI's (file:line:col: what was expected, what was seen). */
export async function readReportFile(cliPath: string, path: string, timeoutMs = READ_TIMEOUT_MS): Promise<Report> {
  // The CLI's own folder as cwd: it always exists.
  const exit = await forkCli(cliPath, reportFileArgs(path), {
    cwd: dirname(cliPath),
    timeoutMs,
    maxStdoutBytes: MAX_REPORT_CHARS,
  });
  if (exit.startError !== undefined) throw new Error(exit.startError);
  if (exit.stdoutCut) throw new Error(`${path}:1:1: the report is larger than ${MAX_REPORT_CHARS} bytes`);
  if (exit.signal !== null)
    throw new Error(`reading ${path} was stopped (${exit.signal}) after ${timeoutMs / 1000} s or by the system`);
  // 0 and 1 (a run that failed, or one that scored nothing) both print the report; 2 is a report that could not be read.
  if (exit.code === 0 || exit.code === 1) {
    try {
      return JSON.parse(exit.stdout.toString('utf8')) as Report;
    } catch {
      throw new Error(`${path}:1:1: the EvalLens CLI did not print the report (an older CLI?)`);
    }
  }
  throw new Error(
    firstNonWarningLine(exit.stderr) ?? `reading ${path} failed (the EvalLens CLI exited with ${String(exit.code)})`,
  );
}
