// `promises` (node:fs/promises, with Node's streams) is read when a file is first opened with it, not at
// start-up: `--version` and `--help` load this file too (configureReadLimits).
import {
  closeSync,
  constants,
  createReadStream,
  fstatSync,
  openSync,
  promises,
  readSync,
  type ReadStream,
} from 'node:fs';

const MiB = 1024 * 1024;

/**
 * The one place for how much EvalLens reads of a file a config names (documented in
 * docs/limits.md). A file read whole is refused past its kind's cap before a byte is read; a dataset
 * that is streamed (JSON Lines, JSON, CSV) has no whole-file cap and is bounded per case instead
 * (`MAX_CASE_CHARS`, the CSV row limit).
 */
export const READ_LIMITS = {
  /** Run configs, model configs, database configs. */
  config: 4 * MiB,
  /** A json_schema `schema_path`. */
  schema: 4 * MiB,
  /** A SKILL.md a judge reads, a judge prompt. */
  prompt: 1 * MiB,
  /** A dataset read whole (YAML); JSON, JSON Lines and CSV are streamed. */
  wholeDataset: 256 * MiB,
  /** An SQLite database file (held in memory while it runs). */
  sqliteDatabase: 1024 * MiB,
  /** One setup `.sql` script. */
  setupScript: 64 * MiB,
  /** A report.json given to `evallens report`. */
  report: 512 * MiB,
} as const;

export type ReadKind = keyof typeof READ_LIMITS;

/**
 * The caps a user may raise (docs/limits.md), by the environment variable that raises each. A file
 * is read as one JavaScript string, so no cap goes past MAX_RAISED_BYTES (V8's longest string).
 */
export const RAISABLE_LIMITS = {
  wholeDataset: 'EVALLENS_MAX_DATASET_BYTES',
  report: 'EVALLENS_MAX_REPORT_BYTES',
} as const;
export const MAX_RAISED_BYTES = 500 * MiB;
const raised: Partial<Record<ReadKind, number>> = {};

/** The cap in force for a kind of file: READ_LIMITS, or what the host set from the environment. */
export function readLimit(kind: ReadKind): number {
  return raised[kind] ?? READ_LIMITS[kind];
}

/**
 * Sets the raisable caps from the user's environment (the host calls this once, at start). Returns
 * what is wrong with a value that is not a whole number of bytes between 1 and MAX_RAISED_BYTES;
 * that cap then stays at its default.
 */
export function configureReadLimits(env: Readonly<Record<string, string | undefined>>): string[] {
  const problems: string[] = [];
  for (const [kind, name] of Object.entries(RAISABLE_LIMITS) as [ReadKind, string][]) {
    const value = env[name];
    delete raised[kind];
    if (value === undefined || value.trim() === '') continue;
    const bytes = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
    if (!Number.isSafeInteger(bytes) || bytes < 1 || bytes > MAX_RAISED_BYTES) {
      problems.push(
        `${name} must be a whole number of bytes from 1 to ${MAX_RAISED_BYTES} (${MAX_RAISED_BYTES / MiB} MiB); the default cap of ${READ_LIMITS[kind]} bytes is used`,
      );
      continue;
    }
    raised[kind] = bytes;
  }
  return problems;
}

/** A read that did not happen, with why in words ("it is a character device, not a regular file"). */
export interface ReadRefusal {
  readonly ok: false;
  /** ENOENT, EACCES, … for a system error; `not-regular` or `too-large` for a refusal. */
  readonly code: string;
  readonly reason: string;
}

const ERRNO_REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a folder, not a file',
  ENOTDIR: 'a part of the path is not a folder',
  ELOOP: 'its symbolic links go round in a loop',
  EMFILE: 'too many open files',
};

// O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever. It changes nothing for a regular file.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

function errnoRefusal(error: unknown): ReadRefusal {
  const code =
    typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
      ? error.code
      : 'EIO';
  return { ok: false, code, reason: ERRNO_REASONS[code] ?? `system error ${code}` };
}

function kindOfNode(stats: {
  isFIFO(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSocket(): boolean;
}): string {
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isCharacterDevice()) return 'a character device (such as /dev/zero)';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a file';
}

/** Checks what was opened (fstat of the descriptor, so the path cannot change in between). */
function checkOpened(
  stats: Parameters<typeof kindOfNode>[0] & { isFile(): boolean; isDirectory(): boolean; size: number },
  limit: number | undefined,
  kind?: ReadKind,
): ReadRefusal | undefined {
  // A folder keeps the words (and code) of the EISDIR a read of it would give.
  if (stats.isDirectory()) return { ok: false, code: 'EISDIR', reason: ERRNO_REASONS['EISDIR'] ?? '' };
  if (!stats.isFile())
    return { ok: false, code: 'not-regular', reason: `expected a regular file, but it is ${kindOfNode(stats)}` };
  if (limit !== undefined && stats.size > limit) {
    const refusal = tooLarge(stats.size, limit);
    const variable = kind === undefined ? undefined : (RAISABLE_LIMITS as Partial<Record<ReadKind, string>>)[kind];
    return variable === undefined
      ? refusal
      : { ...refusal, reason: `${refusal.reason} (set ${variable} to read more, up to ${MAX_RAISED_BYTES} bytes)` };
  }
  return undefined;
}

function tooLarge(size: number | string, limit: number): ReadRefusal {
  const mib = limit % MiB === 0 ? ` (${limit / MiB} MiB)` : '';
  return { ok: false, code: 'too-large', reason: `expected at most ${limit} bytes${mib}, but it has ${size}` };
}

function grew(): ReadRefusal {
  return { ok: false, code: 'changed', reason: 'it grew while it was read (read it again once it is written)' };
}

/** Reads a regular file of at most `READ_LIMITS[kind]` bytes as UTF-8 text, synchronously; never throws for I/O. */
export function readBoundedTextSync(
  file: string,
  kind: ReadKind,
): { readonly ok: true; readonly text: string } | ReadRefusal {
  const limit = readLimit(kind);
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (error) {
    return errnoRefusal(error);
  }
  try {
    const stats = fstatSync(fd);
    const refused = checkOpened(stats, limit, kind);
    if (refused !== undefined) return refused;
    // One byte more than fstat said, to notice a file that grows while it is read.
    const buffer = Buffer.alloc(stats.size + 1);
    let filled = 0;
    for (let got = 1; got > 0 && filled < buffer.length; filled += got)
      got = readSync(fd, buffer, filled, buffer.length - filled, filled);
    if (filled > stats.size) return grew();
    return { ok: true, text: buffer.toString('utf8', 0, filled) };
  } catch (error) {
    return errnoRefusal(error);
  } finally {
    closeSync(fd);
  }
}

/** Reads a regular file of at most `READ_LIMITS[kind]` bytes; never throws for I/O. */
export async function readBoundedBytes(
  file: string,
  kind: ReadKind,
  limit: number = readLimit(kind),
): Promise<{ readonly ok: true; readonly bytes: Buffer } | ReadRefusal> {
  let handle;
  try {
    handle = await promises.open(file, OPEN_FLAGS);
  } catch (error) {
    return errnoRefusal(error);
  }
  try {
    const stats = await handle.stat();
    const refused = checkOpened(stats, limit, kind);
    if (refused !== undefined) return refused;
    const buffer = Buffer.alloc(stats.size + 1);
    let filled = 0;
    for (let got = 1; got > 0 && filled < buffer.length; filled += got)
      got = (await handle.read(buffer, filled, buffer.length - filled, filled)).bytesRead;
    if (filled > stats.size) return grew();
    return { ok: true, bytes: buffer.subarray(0, filled) };
  } catch (error) {
    return errnoRefusal(error);
  } finally {
    await handle.close();
  }
}

/** Reads a regular file of at most `READ_LIMITS[kind]` bytes as UTF-8 text; never throws for I/O. */
export async function readBoundedText(
  file: string,
  kind: ReadKind,
  limit: number = readLimit(kind),
): Promise<{ readonly ok: true; readonly text: string } | ReadRefusal> {
  const read = await readBoundedBytes(file, kind, limit);
  if (!read.ok) return read;
  // A file near 512 MiB can decode to more characters than a JavaScript string can hold.
  try {
    return { ok: true, text: read.bytes.toString('utf8') };
  } catch {
    return tooLarge(read.bytes.length, MAX_RAISED_BYTES);
  }
}

/**
 * Opens a regular file to be streamed (no size cap: its reader bounds each record). Refuses anything
 * else (a symlink to /dev/zero, a FIFO, a folder) before a byte is read.
 */
export function openRegularFileStream(file: string): { readonly ok: true; readonly stream: ReadStream } | ReadRefusal {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (error) {
    return errnoRefusal(error);
  }
  try {
    const refused = checkOpened(fstatSync(fd), undefined);
    if (refused !== undefined) {
      closeSync(fd);
      return refused;
    }
  } catch (error) {
    closeSync(fd);
    return errnoRefusal(error);
  }
  return { ok: true, stream: createReadStream('', { fd, autoClose: true }) };
}
