/**
 * A `report.json` (the CLI's, from this machine or from CI) for the results view, read and checked by
 * the CLI in a child process (`evallens report <file> --reporter json`): the schema check of a large
 * report, and a hostile one, never runs on the editor's thread. The CLI prints the checked report on
 * stdout, or says what is wrong at file:line:col on stderr (cli/reportJson.ts). No vscode here.
 */
import { fork } from 'node:child_process';
import { dirname } from 'node:path';
import type { Report } from '../../core/report/report';

/** The most stdout taken from the CLI: above the largest report it reads (EVALLENS_MAX_REPORT_BYTES may raise that to here). */
const MAX_REPORT_CHARS = 1024 * 1024 * 1024;
const READ_TIMEOUT_MS = 120_000;

export function reportFileArgs(path: string): string[] {
  return ['report', path, '--reporter', 'json', '--no-color'];
}

/** The report, or an Error whose message is the CLI's (file:line:col: what was expected, what was seen). */
export function readReportFile(cliPath: string, path: string, timeoutMs = READ_TIMEOUT_MS): Promise<Report> {
  return new Promise((resolve, reject) => {
    // The CLI's own folder as cwd: it always exists.
    const child = fork(cliPath, reportFileArgs(path), {
      cwd: dirname(cliPath),
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      execArgv: [],
      timeout: timeoutMs,
    });
    const stdout: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let failure: string | undefined;
    child.stdout?.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_REPORT_CHARS) stdout.push(chunk);
      else if (failure === undefined) {
        failure = `${path}:1:1: the report is larger than ${MAX_REPORT_CHARS} bytes`;
        child.kill();
      }
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      // Only the start matters (the first error line).
      if (stderr.length < 64 * 1024) stderr += text;
    });
    child.on('error', (e) => (failure ??= `the EvalLens CLI could not be started: ${e.message}`));
    child.on('close', (code, signal) => {
      if (failure !== undefined) return reject(new Error(failure));
      if (signal !== null)
        return reject(
          new Error(`reading ${path} was stopped (${signal}) after ${timeoutMs / 1000} s or by the system`),
        );
      // 0 and 1 (a run that failed, or one that scored nothing) both print the report; 2 is a report that could not be read.
      if (code === 0 || code === 1) {
        try {
          return resolve(JSON.parse(Buffer.concat(stdout).toString('utf8')) as Report);
        } catch {
          return reject(new Error(`${path}:1:1: the EvalLens CLI did not print the report (an older CLI?)`));
        }
      }
      reject(new Error(firstError(stderr) ?? `reading ${path} failed (the EvalLens CLI exited with ${String(code)})`));
    });
  });
}

/** The CLI's first line that is not a warning, without its `evallens: ` prefix. */
function firstError(text: string): string | undefined {
  const line = text.split('\n').find((l) => l.trim() !== '' && !l.startsWith('evallens: warning:'));
  return line?.replace(/^evallens: /, '');
}
