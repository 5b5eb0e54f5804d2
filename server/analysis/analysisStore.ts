/**
 * The diagnostics of the configs this server analysed in earlier sessions, kept in the user's cache
 * folder, so that reopening a config (VS Code restores the editors it had open) shows its diagnostics
 * at once instead of after a cold parse and check of the whole file. The full analysis still runs
 * right after, and its diagnostics replace the kept ones when they differ (publisher.ts).
 *
 * - One file per analysed text: `analyses-v1/<SHA-256 of the key>.json`. The key is the server's build
 *   (a new build never reads an older build's entries), the config's file name and the SHA-256 of its
 *   text. An entry also names what else the analysis depended on: the environment variables it read
 *   (one SHA-256 over their names and values, never a value) and every file it asked about with
 *   whether it existed. An entry is used only when all of them are the same now.
 * - Each file holds `{ checksum, body }`, the checksum being the SHA-256 of the body: a torn, edited or
 *   foreign file is a miss. Written to a temporary file and renamed over, so two servers writing at once
 *   leave one whole entry or the other.
 * - Bounded: an entry over MAX_ENTRY_BYTES is not kept, and past MAX_ENTRIES files the least recently
 *   used are deleted (a hit touches its file).
 * - Trust: the folder is the user's own cache folder (EVALLENS_CACHE_HOME, XDG_CACHE_HOME or ~/.cache,
 *   read from the process's environment, never a workspace's), files 0600 in a 0700 folder. The
 *   diagnostics kept are the ones published, already masked (no credential, no environment value).
 * Any error turns the store off for the process; it is a cache.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from 'vscode-languageserver';
import { cacheHome } from '../../shared/cacheHome';

/** The folder's name under the cache home: its format's version is part of it. */
export const ANALYSES_FOLDER = 'analyses-v1';
/** Entries kept; past it the least recently used go. */
export const MAX_ENTRIES = 64;
/** An entry's largest size on disk; a larger analysis is not kept (nor read). */
export const MAX_ENTRY_BYTES = 2 * 1024 * 1024;

/** What one analysis depended on besides its text, and what it published. */
export interface StoredAnalysis {
  readonly diagnostics: readonly Diagnostic[];
  /** The environment variables the analysis read, by name, sorted. */
  readonly envNames: readonly string[];
  /** SHA-256 over those names and their values then (unset counts as a value). */
  readonly envDigest: string;
  /** Every file the analysis asked about, and whether it existed. */
  readonly files: Readonly<Record<string, boolean>>;
}

/** The ways the world can be asked now, to decide whether an entry still holds. */
export interface CurrentWorld {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly fileExists: ((absolutePath: string) => boolean) | undefined;
}

export class AnalysisStore {
  private off = false;

  /**
   * @param directory the cache home (the folder is made inside it)
   * @param build names this server's build: entries of any other build are never read
   */
  constructor(
    readonly directory: string,
    private readonly build: string,
  ) {}

  get folder(): string {
    return join(this.directory, ANALYSES_FOLDER);
  }

  /** The diagnostics kept for this text of this file, when everything they depended on is the same now. */
  get(file: string, text: string, world: CurrentWorld): readonly Diagnostic[] | undefined {
    if (this.off) return undefined;
    const key = this.keyOf(file, text);
    const path = this.pathOf(key);
    let raw: string;
    try {
      if (statSync(path).size > MAX_ENTRY_BYTES) return undefined;
      raw = readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
    const stored = parseEntry(raw, key);
    if (stored === undefined || !holdsNow(stored, world)) return undefined;
    try {
      const now = new Date();
      utimesSync(path, now, now);
    } catch {
      // Only the eviction order depends on it.
    }
    return stored.diagnostics;
  }

  /** Keeps what an analysis of this text of this file published. */
  put(file: string, text: string, stored: StoredAnalysis): void {
    if (this.off) return;
    const key = this.keyOf(file, text);
    const body = JSON.stringify({ key, stored });
    const content = JSON.stringify({ checksum: sha256(body), body });
    if (Buffer.byteLength(content) > MAX_ENTRY_BYTES) return;
    const path = this.pathOf(key);
    const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      mkdirSync(this.folder, { recursive: true, mode: 0o700 });
      writeFileSync(temporary, content, { mode: 0o600 });
      renameSync(temporary, path);
      this.evict();
    } catch {
      rmSync(temporary, { force: true });
      this.off = true;
    }
  }

  private keyOf(file: string, text: string): string {
    return JSON.stringify([this.build, file, sha256(text)]);
  }

  private pathOf(key: string): string {
    return join(this.folder, `${sha256(key)}.json`);
  }

  /** Deletes the least recently used entries past MAX_ENTRIES (and temporary files left by a crash). */
  private evict(): void {
    const names = readdirSync(this.folder);
    if (names.length <= MAX_ENTRIES) return;
    const byAge = names
      .map((name) => {
        try {
          return { name, at: statSync(join(this.folder, name)).mtimeMs };
        } catch {
          return { name, at: 0 };
        }
      })
      .sort((a, b) => a.at - b.at);
    for (const { name } of byAge.slice(0, names.length - MAX_ENTRIES)) rmSync(join(this.folder, name), { force: true });
  }
}

/**
 * The store of this process, in the user's cache folder (from the process's own environment), for the
 * server built into `entryFile` (its content names the build); undefined when there is no cache
 * folder, the build cannot be read, or EVALLENS_ANALYSIS_CACHE is `off`.
 */
export function userAnalysisStore(
  env: Readonly<Record<string, string | undefined>>,
  entryFile: string,
): AnalysisStore | undefined {
  if (env['EVALLENS_ANALYSIS_CACHE'] === 'off') return undefined;
  const home = cacheHome(env);
  if (home === undefined) return undefined;
  try {
    return new AnalysisStore(home, createHash('sha256').update(readFileSync(entryFile)).digest('hex'));
  } catch {
    return undefined;
  }
}

/** SHA-256 over the names and current values of `names` (sorted), as kept in an entry. */
export function envDigest(names: readonly string[], env: Readonly<Record<string, string | undefined>>): string {
  return sha256(JSON.stringify([...names].sort().map((name) => [name, env[name] ?? null])));
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The entry in `raw` when it is whole, for `key`, and of the right shape; else undefined. */
function parseEntry(raw: string, key: string): StoredAnalysis | undefined {
  try {
    const outer: unknown = JSON.parse(raw);
    if (typeof outer !== 'object' || outer === null) return undefined;
    const { checksum, body } = outer as Record<string, unknown>;
    if (typeof body !== 'string' || checksum !== sha256(body)) return undefined;
    const inner = JSON.parse(body) as Record<string, unknown>;
    if (inner['key'] !== key) return undefined;
    const stored = inner['stored'] as Record<string, unknown> | undefined;
    if (
      typeof stored !== 'object' ||
      stored === null ||
      !Array.isArray(stored['diagnostics']) ||
      !Array.isArray(stored['envNames']) ||
      !stored['envNames'].every((name) => typeof name === 'string') ||
      typeof stored['envDigest'] !== 'string' ||
      typeof stored['files'] !== 'object' ||
      stored['files'] === null ||
      !Object.values(stored['files']).every((exists) => typeof exists === 'boolean')
    ) {
      return undefined;
    }
    return stored as unknown as StoredAnalysis;
  } catch {
    return undefined;
  }
}

/** Whether the environment variables and files an entry depended on are as they were. */
function holdsNow(stored: StoredAnalysis, world: CurrentWorld): boolean {
  if (envDigest(stored.envNames, world.env) !== stored.envDigest) return false;
  const files = Object.entries(stored.files);
  if (files.length > 0 && world.fileExists === undefined) return false;
  return files.every(([path, existed]) => world.fileExists?.(path) === existed);
}
