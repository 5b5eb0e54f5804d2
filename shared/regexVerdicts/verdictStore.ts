import {
  appendFileSync,
  closeSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import type { Durability, PatternSafety, VerdictCache } from '../../core/scorers/support/boundedRegex';
import { sha256Hex } from './sha256';

/**
 * The ReDoS checker's verdicts kept on disk, so that a config's patterns are checked once per machine
 * rather than once per process (recheck takes up to a second per pattern; a kept verdict, microseconds).
 * The CLI and the language server keep them in one file; the extension gets its checks from those two.
 *
 * - One append-only file, one verdict a line: `<key hash>\t<verdict JSON>\t<checksum>`. Each line is
 *   written with one `write` in append mode, so two processes writing at once never interleave inside
 *   a line. A line whose checksum (SHA-256 of the rest) or shape is wrong is ignored: a torn or edited
 *   line is simply a miss, and the pattern is checked again. Only the lines asked for are checked, so a
 *   process that looks up two patterns hashes two lines, not the whole file.
 * - The key (core's verdictKey) names the checker (its version, backend and step parameters), its
 *   time limit, the flags and the whole source; only its SHA-256 is written, so the file holds no
 *   pattern text, and a line answers for exactly one (checker, time limit, flags, pattern). A new
 *   recheck version, backend or parameter set makes new keys: its verdicts start afresh.
 * - Bounded: past MAX_FILE_BYTES the file is rewritten with its newest verdicts (a temporary file
 *   renamed over it, so readers see the old file or the new one). Only the last MAX_FILE_BYTES are
 *   ever read. A verdict written by another process while this one compacts may be lost; it is a cache.
 * - Trust: the file lives in the user's own cache folder (never in a workspace, and no config can move
 *   it: only the user's environment, EVALLENS_CACHE_HOME or XDG_CACHE_HOME). Whoever can write it can
 *   already run programs as the user; the checksums catch corruption, not an attacker. It holds
 *   verdicts only: no secret, no pattern text, no output.
 * Any error (no home, read-only disk) turns the store off for the process: verdicts then live in memory.
 */

/** Past this size the file is compacted at the next load; reads never take more than this. */
export const MAX_FILE_BYTES = 512 * 1024;
/** A verdict whose line would be longer is kept in memory only (hotspot text can be long). */
const MAX_LINE_CHARS = 4096;
/** The file's name: its format's version is part of it. */
export const VERDICT_FILE = 'regex-verdicts-v1.txt';

export class VerdictStore implements VerdictCache {
  private entries: Map<string, PatternSafety | KeptLine> | undefined;
  private off = false;

  constructor(readonly directory: string) {}

  get file(): string {
    return join(this.directory, VERDICT_FILE);
  }

  get(key: string): PatternSafety | undefined {
    const entries = this.load();
    if (entries === undefined) return undefined;
    const hash = hashOf(key);
    const kept = entries.get(hash);
    if (!(kept instanceof KeptLine)) return kept;
    const verdict = verdictOf(hash, kept);
    if (verdict === undefined) entries.delete(hash);
    else entries.set(hash, verdict);
    return verdict;
  }

  set(key: string, value: PatternSafety, durable: Durability = true): void {
    if (durable === false || (durable === 'if-idle' && !this.machineIdle())) return;
    const entries = this.load();
    if (entries === undefined) return;
    const hash = hashOf(key);
    entries.delete(hash);
    entries.set(hash, value);
    const line = lineOf(hash, value);
    if (line.length > MAX_LINE_CHARS) return;
    try {
      appendFileSync(this.file, line, { mode: 0o600 });
    } catch {
      this.off = true;
    }
  }

  /**
   * Whether the machine had cores to spare over the last minute (load average under half the cores), so a
   * checker that ran out of time did so on the pattern, not for want of a core. Where the system gives no
   * load average (Windows: always 0), a timeout is kept as before.
   */
  private machineIdle(): boolean {
    const [lastMinute = 0] = this.loadAverage();
    return lastMinute < availableParallelism() / 2;
  }

  /** The system's load averages; a test may replace it. */
  loadAverage: () => readonly number[] = loadavg;

  /**
   * The lines on disk, read once per process (the newest line of a key wins), each checked when first
   * asked for; undefined when off.
   */
  private load(): Map<string, PatternSafety | KeptLine> | undefined {
    if (this.off) return undefined;
    if (this.entries !== undefined) return this.entries;
    try {
      mkdirSync(this.directory, { recursive: true, mode: 0o700 });
      const { text, size } = readTail(this.file, MAX_FILE_BYTES);
      this.entries = size > MAX_FILE_BYTES ? this.compact(parseLines(text)) : indexLines(text);
      return this.entries;
    } catch {
      this.off = true;
      return undefined;
    }
  }

  /** Rewrites the file with the newest verdicts, up to half the limit, atomically (rename); answers them. */
  private compact(entries: Map<string, PatternSafety>): Map<string, PatternSafety> {
    const lines: string[] = [];
    let bytes = 0;
    for (const [hash, value] of [...entries].reverse()) {
      const line = lineOf(hash, value);
      if (bytes + line.length > MAX_FILE_BYTES / 2) break;
      lines.push(line);
      bytes += line.length;
    }
    // Unique enough for one rename; 'wx' refuses to write over a file that happens to have the name.
    const temporary = `${this.file}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`;
    try {
      writeFileSync(temporary, lines.reverse().join(''), { mode: 0o600, flag: 'wx' });
      renameSync(temporary, this.file);
    } catch {
      rmSync(temporary, { force: true });
    }
    return entries;
  }
}

function hashOf(key: string): string {
  return sha256Hex(key);
}

function checksumOf(text: string): string {
  return sha256Hex(text).slice(0, 16);
}

function lineOf(hash: string, value: PatternSafety): string {
  const body = `${hash}\t${JSON.stringify(value)}`;
  return `${body}\t${checksumOf(body)}\n`;
}

/** The last `limit` bytes of a file (or all of it) and its size; empty when it does not exist. */
function readTail(file: string, limit: number): { readonly text: string; readonly size: number } {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { text: '', size: 0 };
    throw e;
  }
  try {
    const size = statSync(file).size;
    const length = Math.min(size, limit);
    const buffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const n = readSync(fd, buffer, read, length - read, size - length + read);
      if (n === 0) break;
      read += n;
    }
    return { text: buffer.subarray(0, read).toString('utf8'), size };
  } finally {
    closeSync(fd);
  }
}

/** A line as read, its checksum and shape not yet checked. */
class KeptLine {
  constructor(
    readonly json: string,
    readonly checksum: string,
  ) {}
}

/** Every line with three fields and a key hash, by key hash (the newest wins); nothing checked yet. */
function indexLines(text: string): Map<string, KeptLine> {
  const lines = new Map<string, KeptLine>();
  for (const line of text.split('\n')) {
    const fields = line.split('\t');
    if (fields.length !== 3) continue;
    const [hash = '', json = '', checksum = ''] = fields;
    if (!/^[0-9a-f]{64}$/.test(hash)) continue;
    lines.delete(hash);
    lines.set(hash, new KeptLine(json, checksum));
  }
  return lines;
}

/** A line's verdict when its checksum and shape are right; undefined for a torn, edited or unknown line. */
function verdictOf(hash: string, line: KeptLine): PatternSafety | undefined {
  if (checksumOf(`${hash}\t${line.json}`) !== line.checksum) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line.json);
  } catch {
    return undefined;
  }
  return isVerdict(value) ? value : undefined;
}

/** Every line's verdict by key hash (the newest line of a key wins), without the torn, edited or unknown ones. */
export function parseLines(text: string): Map<string, PatternSafety> {
  const entries = new Map<string, PatternSafety>();
  for (const [hash, kept] of indexLines(text)) {
    const verdict = verdictOf(hash, kept);
    if (verdict !== undefined) entries.set(hash, verdict);
  }
  return entries;
}

/** Whether a value read back has the shape of a checker's verdict (`invalid` is never the checker's). */
function isVerdict(value: unknown): value is PatternSafety {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  switch (v['status']) {
    case 'safe':
      return typeof v['proven'] === 'boolean' && typeof v['complexity'] === 'string';
    case 'unknown':
      return typeof v['message'] === 'string';
    case 'vulnerable':
      return (
        (v['complexity'] === 'exponential' || v['complexity'] === 'polynomial') &&
        (v['degree'] === undefined || typeof v['degree'] === 'number') &&
        typeof v['message'] === 'string' &&
        Array.isArray(v['hotspots']) &&
        v['hotspots'].every(
          (h: unknown) =>
            typeof h === 'object' &&
            h !== null &&
            typeof (h as Record<string, unknown>)['start'] === 'number' &&
            typeof (h as Record<string, unknown>)['end'] === 'number' &&
            typeof (h as Record<string, unknown>)['text'] === 'string',
        )
      );
    default:
      return false;
  }
}
