import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';

/**
 * What Linux's /proc says about processes, read synchronously (the exit path cannot wait) and
 * bounded. Every reader answers undefined or false for a process that ended while it looked or
 * that it may not read. Elsewhere (/proc absent) nothing here finds anything.
 */

/** Most bytes of one process's environment read when looking for a marker. */
export const ENVIRON_READ_LIMIT = 1024 * 1024;

export const hasProcTable: boolean = process.platform === 'linux' && existsSync('/proc/self/stat');

export interface ProcStat {
  readonly pid: number;
  readonly ppid: number;
  /** R, S, D, T, Z (zombie: dead, waiting for its parent to reap it), … */
  readonly state: string;
  /** Clock ticks after boot at which it started: with the pid, names one process even if the pid is reused. */
  readonly startTime: string;
}

/** Every pid in /proc (empty elsewhere). */
export function listPids(): number[] {
  if (!hasProcTable) return [];
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) if (/^\d+$/.test(name)) pids.push(Number(name));
  return pids;
}

/** `/proc/<pid>/stat`: `pid (comm) state ppid … starttime(22nd field) …`. */
export function readStat(pid: number): ProcStat | undefined {
  if (!hasProcTable) return undefined;
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // comm may hold spaces and parentheses: the fields after it start after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const ppid = Number(fields[1]);
  const startTime = fields[19];
  if (state === undefined || startTime === undefined || !Number.isInteger(ppid)) return undefined;
  return { pid, ppid, state, startTime };
}

/** Whether the process is still the one seen before (same pid, same start time) and not a zombie. */
export function stillSame(seen: { readonly pid: number; readonly startTime: string }): boolean {
  const now = readStat(seen.pid);
  return now !== undefined && now.startTime === seen.startTime && now.state !== 'Z';
}

let environBuffer: Buffer | undefined;

/**
 * Whether the first 1 MiB of the process's environment (`/proc/<pid>/environ`, the environment it
 * was started with) holds `marker`. False for a process this user may not read, a zombie, or one
 * that ended.
 */
export function environHolds(pid: number, marker: string): boolean {
  if (!hasProcTable) return false;
  environBuffer ??= Buffer.alloc(ENVIRON_READ_LIMIT);
  let fd: number | undefined;
  try {
    fd = openSync(`/proc/${pid}/environ`, 'r');
    let filled = 0;
    while (filled < environBuffer.length) {
      const read = readSync(fd, environBuffer, filled, environBuffer.length - filled, null);
      if (read === 0) break;
      filled += read;
    }
    return environBuffer.subarray(0, filled).includes(marker);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Every process below the given roots (their children, and theirs, …), by parent pid, as seen now. */
export function descendantsOf(roots: Iterable<number>): ProcStat[] {
  const children = new Map<number, ProcStat[]>();
  for (const pid of listPids()) {
    const stat = readStat(pid);
    if (stat === undefined) continue;
    const list = children.get(stat.ppid);
    if (list === undefined) children.set(stat.ppid, [stat]);
    else list.push(stat);
  }
  const found: ProcStat[] = [];
  const queue = [...roots];
  const seen = new Set(queue);
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const child of children.get(next) ?? []) {
      if (seen.has(child.pid)) continue;
      seen.add(child.pid);
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}
