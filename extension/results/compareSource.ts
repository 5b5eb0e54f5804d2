/**
 * The compare mode's host side, without vscode: the runs the person can pick (the run folders of the
 * runs folder, newest first, and a config's baseline file), and the comparison of two of them made by
 * the CLI in a child process (`evallens compare <a> <b> --reporter json`): the extension runs no
 * engine code, and a large comparison is computed off the editor's thread. The result goes to the
 * view as its head and then its cases in chunks (protocol/compareView.ts).
 */
import { firstNonWarningLine, forkCli } from '../runner/forkCli';
import { open, readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { CompareCase, CompareHead, CompareToWebview, RunChoice } from '../../protocol/compareView';
import { isObject } from '../../protocol/webview';

/** The most stdout taken from the CLI: a comparison of 1,000,000 cases is about 60 MB. */
const MAX_COMPARE_CHARS = 512 * 1024 * 1024;
const COMPARE_TIMEOUT_MS = 120_000;
/** Run folders listed in the pickers: the newest ones. */
export const MAX_RUN_CHOICES = 200;
/** A report's head (run id, config, start, counts) is in its first lines; no more is read to list it. */
const HEAD_BYTES = 16 * 1024;
export const CASES_PER_MESSAGE = 5000;

export function compareArgs(baseline: string, candidate: string): string[] {
  return ['compare', baseline, candidate, '--reporter', 'json'];
}

export type CompareAnswer =
  | { readonly ok: true; readonly head: CompareHead; readonly cases: readonly CompareCase[] }
  | { readonly ok: false; readonly reason: string };

/**
 * Asks the CLI to compare two runs; never throws. Exit 0 (no significant regression) and 1 (one) both
 * printed the comparison; 2 is bad input, and its first line (which file, what differs) is the reason.
 */
export async function runCompare(
  cliPath: string,
  baseline: string,
  candidate: string,
  cwd: string,
  timeoutMs = COMPARE_TIMEOUT_MS,
): Promise<CompareAnswer> {
  const exit = await forkCli(cliPath, compareArgs(baseline, candidate), {
    cwd,
    timeoutMs,
    maxStdoutBytes: MAX_COMPARE_CHARS,
  });
  if (exit.startError !== undefined) return { ok: false, reason: exit.startError };
  if (exit.stdoutCut) return { ok: false, reason: `the comparison is larger than ${MAX_COMPARE_CHARS} bytes` };
  if (exit.signal !== null)
    return {
      ok: false,
      reason: `the comparison was stopped (${exit.signal}) after ${timeoutMs / 1000} s or by the system`,
    };
  if (exit.code === 0 || exit.code === 1) return parseComparison(exit.stdout.toString('utf8'));
  return { ok: false, reason: firstNonWarningLine(exit.stderr) ?? `the EvalLens CLI exited with ${String(exit.code)}` };
}

/** The CLI's comparison split into its head and its cases, checked for the fields the view reads. */
export function parseComparison(text: string): CompareAnswer {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'the EvalLens CLI did not print a comparison (an older CLI?)' };
  }
  if (
    !isObject(value) ||
    value['version'] !== 1 ||
    !isObject(value['baseline']) ||
    !isObject(value['candidate']) ||
    !isObject(value['counts']) ||
    !isObject(value['not_compared']) ||
    !Array.isArray(value['scorers']) ||
    !Array.isArray(value['cases'])
  )
    return { ok: false, reason: 'the comparison the EvalLens CLI printed is not of version 1' };
  const { cases, ...head } = value;
  return { ok: true, head: head as unknown as CompareHead, cases: cases as CompareCase[] };
}

/** The comparison as messages: the head with the first chunk of cases, then the rest in chunks. */
export function compareMessages(
  head: CompareHead,
  cases: readonly CompareCase[],
  size = CASES_PER_MESSAGE,
): CompareToWebview[] {
  const chunks = Math.max(1, Math.ceil(cases.length / size));
  const messages: CompareToWebview[] = [
    { type: 'compare/show', head, cases: cases.slice(0, size), complete: chunks === 1 },
  ];
  for (let i = 1; i < chunks; i++)
    messages.push({
      type: 'compare/append',
      cases: cases.slice(i * size, (i + 1) * size),
      complete: i === chunks - 1,
    });
  return messages;
}

/** What the list of runs reads of a report: the first lines the CLI writes. */
export interface RunHead {
  readonly runId?: string;
  readonly configFile?: string;
  readonly startedAt?: string;
  readonly summary?: { readonly passed: number; readonly failed: number; readonly total: number };
}

/**
 * The head of a report.json as the CLI writes it (one field per line, `"runId":…`, `"configFile":…`,
 * `"startedAt":…`, `"summary":{…}` first): read from its first 16 KB only, whatever the report's size.
 * A field not found (a report laid out otherwise) is left out; the run is still listed.
 */
export async function readRunHead(reportFile: string): Promise<RunHead> {
  const handle = await open(reportFile, 'r');
  let text: string;
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    text = buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
  const head: { -readonly [K in keyof RunHead]: RunHead[K] } = {};
  for (const line of text.split('\n')) {
    const match = /^"(runId|configFile|startedAt|summary)":(.*?),?$/.exec(line);
    if (match === null) continue;
    let value: unknown;
    try {
      value = JSON.parse(match[2] ?? '');
    } catch {
      continue;
    }
    const key = match[1];
    if ((key === 'runId' || key === 'configFile' || key === 'startedAt') && typeof value === 'string')
      head[key] = value;
    else if (
      key === 'summary' &&
      isObject(value) &&
      typeof value['passed'] === 'number' &&
      typeof value['failed'] === 'number' &&
      typeof value['total'] === 'number'
    )
      head.summary = { passed: value['passed'], failed: value['failed'], total: value['total'] };
    if (line.startsWith('"scorers":')) break;
  }
  return head;
}

/** One run folder with a report, as the pickers list it. */
export interface ListedRun {
  readonly folder: string;
  readonly head: RunHead;
}

/** The run folders of `runsDir` that have a report.json, newest first (run ids start with their UTC time), at most `limit`. */
export async function listRuns(runsDir: string, limit = MAX_RUN_CHOICES): Promise<ListedRun[]> {
  let ids: string[];
  try {
    ids = await readdir(runsDir);
  } catch {
    return [];
  }
  const runs: ListedRun[] = [];
  for (const id of ids.sort().reverse()) {
    if (runs.length >= limit) break;
    const folder = join(runsDir, id);
    const report = join(folder, 'report.json');
    if (!(await isFile(report))) continue;
    try {
      runs.push({ folder, head: await readRunHead(report) });
    } catch {
      // A report that cannot be opened is left out of the list.
    }
  }
  return runs;
}

/** A run as a choice: the config as the person names it and when it ran, its counts and id. */
export function runChoice(run: ListedRun, labelOf: (configFile: string) => string): RunChoice {
  const { head } = run;
  const config = head.configFile === undefined ? 'run' : labelOf(head.configFile);
  const when = head.startedAt === undefined ? '' : ` · ${head.startedAt.replace('T', ' ').slice(0, 16)} UTC`;
  const counts =
    head.summary === undefined
      ? ''
      : `${head.summary.passed} passed, ${head.summary.failed} failed of ${head.summary.total} · `;
  return { path: run.folder, label: `${config}${when}`, detail: `${counts}${head.runId ?? basename(run.folder)}` };
}

/** Where `evallens baseline save` writes a config's baseline: `refunds.eval.yaml` → `refunds.baseline.json`, beside it. */
export function baselineFileOf(configFile: string): string {
  const name = basename(configFile).replace(/(\.eval)?\.ya?ml$/i, '');
  return join(dirname(configFile), `${name}.baseline.json`);
}

/**
 * The two runs preselected: the candidate is the config's newest run (any newest run without a
 * config); the baseline is the config's baseline file when there is one, else its run before that.
 */
export function defaultPair(
  runs: readonly ListedRun[],
  configFile: string | undefined,
  baselineFile: string | undefined,
): { readonly baseline?: string; readonly candidate?: string } {
  const sameConfig = (run: ListedRun): boolean =>
    configFile === undefined
      ? runs[0]?.head.configFile === undefined || run.head.configFile === runs[0].head.configFile
      : run.head.configFile === configFile;
  const [newest, previous] = runs.filter(sameConfig);
  const baseline = baselineFile ?? previous?.folder;
  return {
    ...(newest === undefined ? {} : { candidate: newest.folder }),
    ...(baseline === undefined ? {} : { baseline }),
  };
}

export async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
