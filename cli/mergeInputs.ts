/**
 * The inputs of `evallens merge`, checked before anything is read or written: each a finished run
 * folder (or its report.json) with a run.json; all of one config, dataset, trials, scorers and case
 * selection; each shard of the split once, none missing.
 */
import { statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { parseShardLabel, shardLabel, type Shard } from '../core/runner/shard';
import { readRunInfo, RunInfoError, type RunInfo } from './runInfo';

export class MergeInputError extends Error {}

export interface ShardRun {
  /** The input as given, for messages. */
  readonly given: string;
  readonly dir: string;
  readonly info: RunInfo;
  /** An unsharded run is shard 1/1. */
  readonly shard: Shard;
}

/** The shards' run folders in shard order, or a MergeInputError saying what is wrong with them. */
export function checkShards(inputs: readonly string[]): ShardRun[] {
  const runs = inputs.map(shardRun);
  const first = runs[0];
  if (first === undefined) throw new MergeInputError('no run folder given');
  for (const run of runs.slice(1)) {
    const differs = difference(first.info, run.info);
    if (differs !== undefined)
      throw new MergeInputError(
        `cannot merge runs of different ${differs}: ${describe(first)} and ${describe(run)}; every shard must run the same config on the same dataset with the same options`,
      );
  }
  const count = first.shard.count;
  const split = runs.find((r) => r.shard.count !== count);
  if (split !== undefined)
    throw new MergeInputError(
      `cannot merge shards of different splits: ${describe(first)} is one of ${count}, ${describe(split)} one of ${split.shard.count}`,
    );
  const byIndex = new Map<number, ShardRun>();
  for (const run of runs) {
    const twice = byIndex.get(run.shard.index);
    if (twice !== undefined)
      throw new MergeInputError(
        `shard ${shardLabel(run.shard)} is given twice: ${describe(twice)} and ${describe(run)}; give each shard once`,
      );
    byIndex.set(run.shard.index, run);
  }
  const missing: string[] = [];
  for (let index = 0; index < count; index++) if (!byIndex.has(index)) missing.push(shardLabel({ index, count }));
  if (missing.length > 0) {
    const shown = missing.length > 10 ? [...missing.slice(0, 10), `… (${missing.length} in all)`] : missing;
    throw new MergeInputError(
      `${missing.length === 1 ? 'shard' : 'shards'} ${shown.join(', ')} missing: the run was split in ${count} (given: ${runs.map((r) => shardLabel(r.shard)).join(', ')}); merge needs every shard's run folder`,
    );
  }
  return [...byIndex.values()].sort((a, b) => a.shard.index - b.shard.index);
}

function shardRun(given: string): ShardRun {
  let info: ReturnType<typeof statSync> | undefined;
  try {
    info = statSync(given);
  } catch {
    info = undefined;
  }
  if (info === undefined)
    throw new MergeInputError(`${given}:1:1: expected a run folder or its report.json, but it does not exist`);
  const dir = info.isDirectory() ? given : dirname(given);
  if (!info.isDirectory() && basename(given) !== 'report.json')
    throw new MergeInputError(
      `${given}:1:1: expected a run folder or the report.json in one (merge reads the run folder: run.json, cases.jsonl, results.jsonl), but this is another file`,
    );
  let runInfo: RunInfo;
  try {
    runInfo = readRunInfo(dir);
  } catch (e) {
    if (e instanceof RunInfoError) throw new MergeInputError(e.message);
    throw e;
  }
  let shard: Shard = { index: 0, count: 1 };
  if (runInfo.shard !== undefined) {
    const parsed = parseShardLabel(runInfo.shard);
    if (typeof parsed === 'string')
      throw new MergeInputError(`${dir}/run.json:1:1: expected "shard" to be i/n, but ${parsed}`);
    shard = parsed;
  }
  const run = { given, dir, info: runInfo, shard };
  if (runInfo.finished === undefined)
    throw new MergeInputError(
      `${describe(run)} did not finish (no report.json was written: it was killed or is still running); run that shard again (or resume it) and merge then`,
    );
  if (runInfo.finished.cancelled)
    throw new MergeInputError(
      `${describe(run)} was cancelled before every case ran; run that shard again and merge then`,
    );
  return run;
}

function describe(run: { readonly given: string; readonly shard: Shard; readonly info: RunInfo }): string {
  return `${run.given} (shard ${shardLabel(run.shard)}, run ${run.info.runId})`;
}

/** What makes two runs not shards of one run, in words; undefined when nothing does. */
function difference(a: RunInfo, b: RunInfo): string | undefined {
  if (a.fingerprint.config !== b.fingerprint.config) return `configs (the config files' contents differ)`;
  if (a.fingerprint.dataset !== b.fingerprint.dataset) return `datasets (the dataset files' contents differ)`;
  if (a.numTrials !== b.numTrials) return `trials (${a.numTrials} and ${b.numTrials})`;
  if (JSON.stringify(a.selection) !== JSON.stringify(b.selection)) return `case selections (--case, --filter)`;
  if (JSON.stringify(a.scorers) !== JSON.stringify(b.scorers) || a.jobThreshold !== b.jobThreshold)
    return 'scorers (the same config file read differently: an environment variable or an included file differs)';
  return undefined;
}
