/**
 * `evallens run <config> --resume <run-id|latest>` and `--rerun failed|errored --from <run-id|latest>`.
 *
 * Resume finishes a run that was killed or cancelled, in its own folder: the cases its cases.jsonl
 * lists are done (their results are in results.jsonl, written before them), every other case of its
 * shard and selection runs now, and report.json is written from the whole folder. A cut last line (the
 * kill landed in a write) is dropped, with any result of a case not listed as done.
 *
 * Re-run starts a new run folder holding the previous run's cases that are not re-run (copied, not
 * re-scored), then runs the rest as a resume does: `failed` re-runs the cases that failed or errored,
 * `errored` only those that errored (a timeout, a provider's error).
 *
 * Both refuse when the config or the dataset changed since the run (their sha256 in run.json), since
 * the report would mix results of two versions.
 */
import { closeSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { DatasetRecord } from '../core/case';
import type { CaseStatus, RunEvent } from '../core/runner/events';
import { shardLabel, type Shard } from '../core/runner/shard';
import { storedCaseEnd, storedCaseRange, storedCaseStart } from './storedCaseEvents';
import { caseIndexes, folderCases, numberedLines, RunFolderError } from './runFolderCases';
import { readRunInfo, RunInfoError, type RunDescription, type RunInfo } from './runInfo';
import { RunFold } from './runFold';
import { DEFAULT_JOB_THRESHOLD, type RunConfig } from '../core/config/runConfig';
import type { Command } from './args';
import { describeRun } from './shard';
import { inDatasetOrder } from './mergeOrder';

export type RerunWhich = 'failed' | 'errored';

/** What the command line asks of a resume or re-run. */
export interface ResumeRequest {
  readonly runsDir: string;
  readonly configFile: string;
  readonly description: RunDescription;
  readonly shard?: Shard;
  readonly trials?: number;
  /** `--resume <id|latest>` */
  readonly resume?: string;
  /** `--rerun failed|errored --from <id|latest>` */
  readonly rerun?: { readonly which: RerunWhich; readonly from: string };
  readonly newRunId: string;
}

export class ResumeError extends Error {}

/** A run folder ready to be continued. */
export interface Resumable {
  readonly runId: string;
  readonly dir: string;
  readonly info: RunInfo;
  /** Ids of the cases already in the folder. */
  readonly done: ReadonlySet<string>;
  /** The run's shard and trials, as recorded (the command's must agree). */
  readonly shard?: Shard;
  readonly trials: number;
}

/** Finds and checks the run to continue, cleans its folder (or fills the re-run's new one); a ResumeError says why not. */
export async function openResumable(request: ResumeRequest): Promise<Resumable> {
  const asked = request.resume ?? request.rerun?.from ?? 'latest';
  const flag = request.resume !== undefined ? '--resume' : '--from';
  const runId = asked === 'latest' ? latestRunOf(request.runsDir, request.configFile, flag) : asked;
  const from = join(request.runsDir, runId);
  let info: RunInfo;
  try {
    info = readRunInfo(from);
  } catch (e) {
    if (e instanceof RunInfoError) throw new ResumeError(`${flag} ${runId}: ${e.message}`);
    throw e;
  }
  checkSameInputs(info, request, flag);
  if (request.resume !== undefined && info.finished !== undefined && !info.finished.cancelled)
    throw new ResumeError(
      `--resume ${runId}: that run finished every case (its report is ${join(from, 'report.json')}); nothing to resume`,
    );
  const shard = info.shard === undefined ? undefined : (request.shard ?? parseRecordedShard(info.shard, from));
  if (request.rerun === undefined) {
    const done = await cleanFolder(from);
    return { runId, dir: from, info, done, ...(shard === undefined ? {} : { shard }), trials: info.numTrials };
  }
  const dir = join(request.runsDir, request.newRunId);
  const done = await copyKept(from, dir, request.rerun.which);
  return {
    runId: request.newRunId,
    dir,
    info,
    done,
    ...(shard === undefined ? {} : { shard }),
    trials: info.numTrials,
  };
}

/** The newest run folder (run ids begin with their start time) whose run.json names this config. */
function latestRunOf(runsDir: string, configFile: string, flag: string): string {
  let names: string[] = [];
  try {
    names = readdirSync(runsDir).sort().reverse();
  } catch {
    names = [];
  }
  for (const name of names) {
    try {
      if (readRunInfo(join(runsDir, name)).configFile === configFile) return name;
    } catch {
      // Not a run folder of this version: not a candidate.
    }
  }
  throw new ResumeError(`${flag} latest: ${runsDir} holds no run of ${configFile} (with a run.json) to continue`);
}

function parseRecordedShard(label: string, dir: string): Shard {
  const [i, n] = label.split('/').map(Number);
  if (i === undefined || n === undefined || !(i >= 1 && i <= n))
    throw new ResumeError(`${join(dir, 'run.json')}:1:1: expected "shard" to be i/n, but it is "${label}"`);
  return { index: i - 1, count: n };
}

/** The run must be of the same config and dataset, shard, selection and trials as the command. */
function checkSameInputs(info: RunInfo, request: ResumeRequest, flag: string): void {
  const run = `${flag} ${info.runId}`;
  const now = request.description;
  if (info.fingerprint.config !== now.fingerprint.config)
    throw new ResumeError(
      `${run}: the config ${info.configFile} changed since that run (its content differs): its results would mix two versions; start a new run`,
    );
  if (info.fingerprint.dataset !== now.fingerprint.dataset)
    throw new ResumeError(
      `${run}: the dataset changed since that run (its content differs): its results would mix two versions; start a new run`,
    );
  if (request.shard !== undefined && info.shard !== shardLabel(request.shard))
    throw new ResumeError(
      `${run}: that run is ${info.shard === undefined ? 'not sharded' : `shard ${info.shard}`}, not shard ${shardLabel(request.shard)}; leave --shard out to continue it as it was`,
    );
  if (request.trials !== undefined && request.trials !== info.numTrials)
    throw new ResumeError(
      `${run}: that run has ${info.numTrials} trials per case, not ${request.trials}; leave --trials out to continue it as it was`,
    );
  if (
    (now.selection.ids !== undefined || now.selection.filter !== undefined) &&
    JSON.stringify(now.selection) !== JSON.stringify(info.selection)
  )
    throw new ResumeError(
      `${run}: that run selected other cases (--case, --filter); leave them out to continue it as it was`,
    );
}

/**
 * The ids of the cases the folder lists as done, after dropping a cut last line of either file and
 * any result of a case not listed (written just before a kill). Another damaged line is an error
 * naming the file and line.
 */
async function cleanFolder(dir: string): Promise<Set<string>> {
  const casesPath = join(dir, 'cases.jsonl');
  const done = new Set<string>();
  await filterLines(casesPath, (value) => {
    const id = (value as { id?: unknown }).id;
    if (typeof id !== 'string') return false;
    done.add(id);
    return true;
  });
  const resultsPath = join(dir, 'results.jsonl');
  await filterLines(resultsPath, (value) => done.has(String((value as { caseId?: unknown }).caseId)));
  return done;
}

/**
 * Keeps the lines `keep` accepts, rewriting the file (whole, through a renamed temporary file) only
 * when one is dropped. A line that is not JSON is dropped when it is the last (cut by a kill), an
 * error otherwise.
 */
async function filterLines(path: string, keep: (value: unknown) => boolean): Promise<number> {
  const tmp = `${path}.resume-tmp`;
  let fd: number | undefined;
  let pending: string[] = [];
  let dropped = 0;
  let kept = 0;
  let broken: { line: number } | undefined;
  try {
    fd = openSync(tmp, 'w');
    for await (const at of numberedLines(path)) {
      if (broken !== undefined)
        throw new RunFolderError(
          `${path}:${broken.line}:1: expected one JSON object per line, but this line is not one, and it is not the last line (a damaged run folder)`,
        );
      let value: unknown;
      try {
        value = JSON.parse(at.text);
      } catch {
        broken = { line: at.line };
        dropped++;
        continue;
      }
      if (!keep(value)) {
        dropped++;
        continue;
      }
      kept++;
      pending.push(at.text, '\n');
      if (pending.length > 2048) {
        writeSync(fd, pending.join(''));
        pending = [];
      }
    }
    writeSync(fd, pending.join(''));
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  if (dropped > 0) renameSync(tmp, path);
  else rmSync(tmp, { force: true });
  return kept;
}

/** Fills a re-run's new folder with the previous run's cases that are kept; returns their ids. */
async function copyKept(from: string, dir: string, which: RerunWhich): Promise<Set<string>> {
  const rerun: ReadonlySet<CaseStatus> = new Set<CaseStatus>(which === 'failed' ? ['failed', 'errored'] : ['errored']);
  mkdirSync(dir, { recursive: true });
  const cases = openSync(join(dir, 'cases.jsonl'), 'w');
  const results = openSync(join(dir, 'results.jsonl'), 'w');
  const done = new Set<string>();
  try {
    for await (const item of folderCases(from)) {
      if (rerun.has(item.case.status)) continue;
      done.add(item.case.id);
      if (item.resultLines.length > 0) writeSync(results, `${item.resultLines.join('\n')}\n`);
      writeSync(cases, `${item.caseLine}\n`);
    }
  } finally {
    closeSync(cases);
    closeSync(results);
  }
  return done;
}

/** The records of the cases still to run. */
export async function* remaining(
  records: AsyncIterable<DatasetRecord>,
  done: ReadonlySet<string>,
): AsyncIterable<DatasetRecord> {
  for await (const record of records) {
    const id = record.ok ? record.value.case.id : record.error.id;
    if (!done.has(id)) yield record;
  }
}

/** The folder's finished cases as the events reporters read (before the new ones run). */
export async function replayFolder(dir: string, onEvent: (event: RunEvent) => void): Promise<void> {
  for await (const item of folderCases(dir)) {
    const range = storedCaseRange(item.case);
    onEvent(storedCaseStart(item.case, range));
    onEvent(storedCaseEnd(item.case, item.results(), range));
  }
}

/** The figures of the whole folder, the cases from before and the new ones, folded in its order. */
export async function foldFolder(dir: string, info: RunInfo): Promise<RunFold> {
  const fold = new RunFold(info.scorers, info.jobThreshold ?? DEFAULT_JOB_THRESHOLD);
  for await (const item of folderCases(dir)) fold.addCase(item.case.status, item.results());
  return fold;
}

type RunCommand = Extract<Command, { kind: 'run' }>;

/**
 * For `run --resume` or `--rerun`: the run to continue, and the command as that run was (its shard,
 * trials and selection) with its description for run.json. Undefined for a plain run; a string is
 * the usage error to print.
 */
export async function continuationOf(
  config: RunConfig,
  command: RunCommand,
  runsDir: string,
  newRunId: string,
): Promise<{ resumable: Resumable; command: RunCommand; description: RunDescription } | undefined | string> {
  if (command.resume === undefined && command.rerun === undefined) return undefined;
  const description = await describeRun(config, command);
  let resumable: Resumable;
  try {
    resumable = await openResumable({
      runsDir,
      configFile: config.file,
      description,
      ...(command.shard === undefined ? {} : { shard: command.shard }),
      ...(command.trials === undefined ? {} : { trials: command.trials }),
      ...(command.resume === undefined ? {} : { resume: command.resume }),
      ...(command.rerun === undefined ? {} : { rerun: command.rerun }),
      newRunId,
    });
  } catch (e) {
    if (e instanceof ResumeError || e instanceof RunFolderError) return e.message;
    throw e;
  }
  const { info } = resumable;
  const continued: RunCommand = {
    ...command,
    trials: resumable.trials,
    caseIds: info.selection.ids ?? [],
    ...(info.selection.filter === undefined ? {} : { filter: info.selection.filter }),
    ...(resumable.shard === undefined ? {} : { shard: resumable.shard }),
  };
  return {
    resumable,
    command: continued,
    description: { ...description, ...pickShard(info), selection: info.selection },
  };
}

function pickShard(info: RunInfo): { shard?: string } {
  return info.shard === undefined ? {} : { shard: info.shard };
}

/** Whether a run folder's cases are stored in dataset order. */
export async function folderInDatasetOrder(dir: string): Promise<boolean> {
  let last = -1;
  for await (const indexes of caseIndexes(join(dir, 'cases.jsonl')))
    for (const index of indexes) {
      if (index < last) return false;
      last = index;
    }
  return true;
}

/**
 * Puts a run folder in dataset order: a run's cases are stored as they finish (with several in flight,
 * a slow case after later ones), and a continued run's after the cases from before, but its report
 * lists and folds them in dataset order. A run's cases are nearly in order and pass through a window;
 * a re-run's may sit anywhere in the dataset and are sorted in memory (inDatasetOrder decides).
 */
export async function reorderFolder(dir: string): Promise<void> {
  const casesPath = join(dir, 'cases.jsonl');
  const resultsPath = join(dir, 'results.jsonl');
  const cases = openSync(`${casesPath}.sorted`, 'w');
  const results = openSync(`${resultsPath}.sorted`, 'w');
  try {
    for await (const item of inDatasetOrder(dir)) {
      if (item.resultLines.length > 0) writeSync(results, `${item.resultLines.join('\n')}\n`);
      writeSync(cases, `${item.caseLine}\n`);
    }
  } finally {
    closeSync(cases);
    closeSync(results);
  }
  renameSync(`${resultsPath}.sorted`, resultsPath);
  renameSync(`${casesPath}.sorted`, casesPath);
}
