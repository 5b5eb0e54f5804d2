/**
 * `evallens merge <run folders or reports…>`: the shards of one run (`evallens run --shard i/n`) as one
 * report, the same as the unsharded run's — results, cases in dataset order, summary, per-scorer
 * aggregates with their statistics, job score — apart from timings and the run id. The merge is a
 * stream: each shard's run folder is read in dataset order (cli/mergeOrder.ts) and merged by dataset
 * index into a new run folder, whose report.json is written from it as a run's is; the figures are
 * folded in dataset order by the same Aggregator and ScorerStatistics a run uses.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Report } from '../core/report/report';
import type { RunEvent } from '../core/runner/events';
import { DEFAULT_JOB_THRESHOLD } from '../core/config/runConfig';
import { RunFold } from './runFold';
import { printable } from '../shared/text/printable';
import packageJson from '../package.json';
import type { ReporterRequest } from './args';
import { checkShards, MergeInputError, type ShardRun } from './mergeInputs';
import { inDatasetOrderBatches, mergeByIndex, MergeOverlapError } from './mergeOrder';
import { createReporter, runVerdict, type Reporter } from './reporters/index';
import { RunFolderError, type PutBytes } from './runFolderCases';
import { caseEvents } from './storedCaseEvents';
import { writeRunInfo, type RunInfo } from './runInfo';
import { folderSource, RunFolderWriteError, writeFolderReport } from './runStore';
import { shardLabel } from '../core/runner/shard';

export interface MergeCommand {
  readonly kind: 'merge';
  /** Run folders or their report.json, one per shard. */
  readonly inputs: readonly string[];
  readonly reporters: readonly ReporterRequest[];
  /** Where the merged run folder goes (default .evallens/runs). */
  readonly runsDir?: string;
  readonly color?: boolean;
}

const EXIT = { passed: 0, failed: 1, usage: 2, nothingScored: 3 } as const;

export async function mergeCommand(
  command: MergeCommand,
  stdout: NodeJS.WritableStream,
  stderr: NodeJS.WritableStream,
): Promise<number> {
  const say = (line: string) => stderr.write(`${printable(`evallens: ${line}`)}\n`);
  let shards: ShardRun[];
  try {
    shards = checkShards(command.inputs);
  } catch (e) {
    if (e instanceof MergeInputError) {
      say(e.message);
      return EXIT.usage;
    }
    throw e;
  }
  const runId = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`;
  const dir = join(resolve(command.runsDir ?? '.evallens/runs'), runId);
  const cwd = process.cwd();
  const color = command.color ?? (process.stdout.isTTY === true && process.env['NO_COLOR'] === undefined);
  const requested = command.reporters.length > 0 ? command.reporters : [{ name: 'console' as const }];
  const stdoutTaken = requested.some((r) => r.name !== 'console' && r.out === undefined);
  const asked =
    requested.some((r) => r.name === 'console') || stdoutTaken
      ? requested
      : [{ name: 'console' as const }, ...requested];
  const reporters: Reporter[] = asked.map((r) =>
    createReporter(r.name, { ...(r.out === undefined ? {} : { out: resolve(r.out) }), stdout, cwd, color }),
  );

  let head: Omit<Report, 'cases' | 'results'>;
  try {
    mkdirSync(dir, { recursive: true });
    head = await mergeInto(dir, runId, shards, (event) => {
      for (const reporter of reporters) reporter.onEvent(event);
    });
  } catch (e) {
    // Nothing half-merged is left behind: the folder is this command's own.
    rmSync(dir, { recursive: true, force: true });
    if (e instanceof RunFolderError || e instanceof RunFolderWriteError) {
      say(e.message);
      return EXIT.usage;
    }
    if (e instanceof MergeOverlapError) {
      const a = shards[e.first] as ShardRun;
      const b = shards[e.second] as ShardRun;
      say(
        `${a.given} (shard ${shardLabel(a.shard)}) and ${b.given} (shard ${shardLabel(b.shard)}) both hold the case at dataset index ${e.index}: they are not shards of one split`,
      );
      return EXIT.usage;
    }
    throw e;
  }
  const source = folderSource(dir, head, true);
  for (const reporter of reporters) {
    try {
      await reporter.finish(source);
    } catch (e) {
      say(`${e instanceof Error ? e.message : String(e)} (the merged report is in ${dir})`);
      return EXIT.usage;
    }
  }
  return { PASSED: EXIT.passed, FAILED: EXIT.failed, CANCELLED: EXIT.failed, 'NOTHING SCORED': EXIT.nothingScored }[
    runVerdict(head)
  ];
}

/** Streams the shards into run folder `dir` (cases.jsonl, results.jsonl, report.json, run.json); returns the report's head. */
async function mergeInto(
  dir: string,
  runId: string,
  shards: readonly ShardRun[],
  onEvent: (event: RunEvent) => void,
): Promise<Omit<Report, 'cases' | 'results'>> {
  const info = (shards[0] as ShardRun).info;
  const startedAt = shards.map((s) => s.info.startedAt).sort()[0] ?? info.startedAt;
  onEvent({
    type: 'run/start',
    runId,
    configFile: info.configFile,
    startedAt,
    scorers: info.scorers,
    numTrials: info.numTrials,
    ...(info.jobThreshold === undefined ? {} : { jobThreshold: info.jobThreshold }),
  });
  const fold = new RunFold(info.scorers, info.jobThreshold ?? DEFAULT_JOB_THRESHOLD);
  const cases = new LineFile(join(dir, 'cases.jsonl'));
  const results = new LineFile(join(dir, 'results.jsonl'));
  const putCase: PutBytes = (bytes, start, end) => cases.write(bytes, start, end);
  const putResults: PutBytes = (bytes, start, end) => results.write(bytes, start, end);
  try {
    for await (const batch of mergeByIndex(shards.map((s) => inDatasetOrderBatches(s.dir))))
      for (const item of batch) {
        // The figures read scorer, status and score from the front of each line; the lines pass as bytes.
        fold.addCase(item.case.status, item.foldResults(fold.needsWhole));
        item.putResultLines(putResults);
        item.putCaseLine(putCase);
        for (const event of caseEvents(item)) onEvent(event);
      }
  } finally {
    cases.close();
    results.close();
  }
  const finishedAt =
    shards
      .map((s) => s.info.finished?.finishedAt ?? '')
      .sort()
      .reverse()[0] ?? startedAt;
  const durationMs = Math.max(0, ...shards.map((s) => s.info.finished?.durationMs ?? 0));
  const summary = fold.summary();
  onEvent({ type: 'run/end', runId, finishedAt, durationMs, cancelled: false, summary });
  const { scorers, jobTest } = fold.scorers();
  const head: Omit<Report, 'cases' | 'results'> = {
    version: 1,
    tool: { name: 'evallens', version: packageJson.version },
    runId,
    configFile: info.configFile,
    startedAt,
    finishedAt,
    durationMs,
    cancelled: false,
    numTrials: info.numTrials,
    summary,
    job: jobTest === undefined ? {} : { test: jobTest },
    scorers,
  };
  await writeFolderReport(dir, head);
  const merged: RunInfo & { readonly mergedFrom: readonly string[] } = {
    version: 1,
    runId,
    configFile: info.configFile,
    startedAt,
    fingerprint: info.fingerprint,
    selection: info.selection,
    numTrials: info.numTrials,
    ...(info.jobThreshold === undefined ? {} : { jobThreshold: info.jobThreshold }),
    scorers: info.scorers,
    finished: { finishedAt, durationMs, cancelled: false },
    mergedFrom: shards.map((s) => s.info.runId),
  };
  writeRunInfo(dir, merged);
  return head;
}

/** Lines (bytes start to end of a buffer, a line end added) appended to a file through a large buffer, written synchronously when full; a failed write names the file. */
class LineFile {
  private readonly fd: number;
  private readonly buffer = Buffer.allocUnsafe(1 << 20);
  private used = 0;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'w');
  }

  write(bytes: Buffer, start: number, end: number): void {
    const length = end - start;
    if (this.used + length + 1 > this.buffer.length) {
      this.flush();
      if (length + 1 > this.buffer.length) {
        this.put(Buffer.concat([bytes.subarray(start, end), NEWLINE]));
        return;
      }
    }
    this.used += bytes.copy(this.buffer, this.used, start, end);
    this.buffer[this.used++] = 10;
  }

  flush(): void {
    if (this.used === 0) return;
    const used = this.used;
    this.used = 0;
    this.put(this.buffer.subarray(0, used));
  }

  close(): void {
    try {
      this.flush();
    } finally {
      closeSync(this.fd);
    }
  }

  private put(bytes: Buffer): void {
    try {
      let at = 0;
      while (at < bytes.length) at += writeSync(this.fd, bytes, at);
    } catch (e) {
      throw new RunFolderWriteError(this.path, (e as NodeJS.ErrnoException).code ?? String(e));
    }
  }
}

const NEWLINE = Buffer.from('\n');
