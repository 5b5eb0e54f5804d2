/**
 * `run.json` in a run folder: what the run was (config and dataset fingerprints, its shard, its case
 * selection, trials, scorers) written when it starts, and how it ended once it has. `evallens merge`
 * reads it to check that shards belong together; it never holds a case's data or an environment value.
 */
import { createHash } from 'node:crypto';
import { openRegularFileStream, readBoundedTextSync } from '../core/text/boundedRead';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunConfig } from '../core/config/runConfig';
import type { ScorerInfo } from '../core/runner/events';

export const RUN_INFO_FILE = 'run.json';

/** The config and dataset a run read, by content (sha256 of the bytes): the same on every machine. */
export interface RunFingerprint {
  readonly config: string;
  /** Absent when the config has only inline cases (they are part of the config). */
  readonly dataset?: string;
}

/** Which cases of the dataset a run was asked for, besides its shard. */
export interface RunSelection {
  readonly ids?: readonly string[];
  readonly filter?: string;
}

/** What the CLI knows of a run before it starts. */
export interface RunDescription {
  readonly fingerprint: RunFingerprint;
  /** One-based `i/n`, as `--shard` takes it. */
  readonly shard?: string;
  readonly selection: RunSelection;
}

export interface RunInfo extends RunDescription {
  readonly version: 1;
  readonly runId: string;
  readonly configFile: string;
  readonly startedAt: string;
  readonly numTrials: number;
  readonly jobThreshold?: number;
  readonly scorers: readonly ScorerInfo[];
  /** Present once the run ended and its report.json is written. */
  readonly finished?: { readonly finishedAt: string; readonly durationMs: number; readonly cancelled: boolean };
}

/**
 * The sha256 of the config file and of the dataset the run reads (the editor's text when it gives one).
 * Read as the run reads them: only regular files (a dataset linked to /dev/zero would never end), the
 * config within its cap. A file that cannot be read so has no fingerprint; the run then says why.
 */
export async function fingerprintOf(config: RunConfig): Promise<RunFingerprint> {
  const configText = readBoundedTextSync(config.file, 'config');
  const configHash = createHash('sha256')
    .update(configText.ok ? configText.text : '')
    .digest('hex');
  const source = config.dataset;
  if (source === undefined) return { config: configHash };
  const hash = createHash('sha256');
  if (source.text !== undefined) hash.update(source.text);
  else {
    const opened = openRegularFileStream(source.path);
    if (!opened.ok) return { config: configHash };
    for await (const chunk of opened.stream) hash.update(chunk as Buffer);
  }
  return { config: configHash, dataset: hash.digest('hex') };
}

/** Writes run.json whole or not at all (a temporary file renamed over it). */
export function writeRunInfo(dir: string, info: RunInfo): void {
  const path = join(dir, RUN_INFO_FILE);
  writeFileSync(`${path}.tmp`, `${JSON.stringify(info, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
}

export class RunInfoError extends Error {}

/** A run folder's run.json, checked for the fields merge needs; an error names the file. */
export function readRunInfo(dir: string): RunInfo {
  const path = join(dir, RUN_INFO_FILE);
  // Bounded as any file a user hands over: a run folder from elsewhere (a CI artifact) may hold anything.
  const read = readBoundedTextSync(path, 'config');
  if (!read.ok)
    throw new RunInfoError(
      `${path}:1:1: expected the run.json of a run folder, but ${read.code === 'ENOENT' ? 'it does not exist (a run folder of an older EvalLens, or not a run folder)' : `it cannot be read (${read.reason})`}`,
    );
  const text = read.text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new RunInfoError(`${path}:1:1: expected run.json to be JSON, but it is not (a damaged file)`);
  }
  const info = value as Partial<RunInfo> | null;
  const missing =
    info === null || typeof info !== 'object'
      ? 'an object'
      : info.version !== 1
        ? '"version": 1'
        : typeof info.runId !== 'string'
          ? '"runId"'
          : typeof info.fingerprint?.config !== 'string'
            ? '"fingerprint"'
            : typeof info.numTrials !== 'number'
              ? '"numTrials"'
              : !Array.isArray(info.scorers)
                ? '"scorers"'
                : undefined;
  if (missing !== undefined)
    throw new RunInfoError(`${path}:1:1: expected run.json to have ${missing}, but it does not`);
  return info as RunInfo;
}
