import { randomBytes } from 'node:crypto';
import { descendantsOf, environHolds, listPids, readStat, stillSame, type ProcStat } from './procTable';

/**
 * Everything a run starts, and how to end all of it — synchronously, so it also works in the exit
 * path of a second Ctrl-C, a SIGTERM or a SIGHUP. Three nets, each catching what the one before
 * cannot:
 *
 * 1. Process groups. Every command starts in a group of its own (processGroup.ts), registered here
 *    while its leader lives; killing the group ends what a shell started with it.
 * 2. Parent pids. While groups are live, their descendants are noted every 250 ms (less often on a
 *    machine with many processes; pid and start time), so a process that left the group (`setsid`) but was seen is ended even with a scrubbed
 *    environment.
 * 3. A marker in the environment. Every process a run starts gets `EVALLENS_RUN_TOKEN` holding a
 *    random token, which its descendants inherit through `setsid` and double forks; the sweep reads
 *    each process's environment (Linux /proc, first 1 MiB) and ends those that carry it.
 *
 * Out of reach: a descendant that both leaves the group and scrubs its environment before it was
 * seen (only cgroups could hold it). Without /proc (macOS, Windows) only net 1 exists. Before
 * killing a pid found by net 2 or 3 its start time is checked, so a reused pid is not killed.
 */

/** The variable carrying the marker; a nested run appends its token to the one it inherited (`a:b`). */
export const RUN_TOKEN_VAR = 'EVALLENS_RUN_TOKEN';

/** A new random marker (128 bits, hex). */
export function newRunToken(): string {
  return randomBytes(16).toString('hex');
}

/** The marker of everything this host process starts through `spawnGroup`. */
export const hostRunToken: string = newRunToken();

/** `env` with `token` added to the marker variable, which comes first (so a bounded read meets it early). */
export function markedEnv(
  env: Readonly<Record<string, string | undefined>>,
  token: string,
): Record<string, string | undefined> {
  const { [RUN_TOKEN_VAR]: inherited, ...rest } = env;
  return { [RUN_TOKEN_VAR]: inherited === undefined || inherited === '' ? token : `${inherited}:${token}`, ...rest };
}

const TRACK_EVERY_MS = 250;
/** Most descendants remembered (a fork bomb must not grow this without end). */
const MAX_TRACKED = 10_000;
/** Rounds of the marker sweep: a process may fork between a look and a kill; stopped ones cannot. */
const SWEEP_ROUNDS = 20;

const liveGroups = new Set<number>();
/** Whether anything was ever started: a host that started nothing has nothing to sweep for. */
let anyStarted = false;
const tracked = new Map<number, ProcStat>();
let tracker: ReturnType<typeof setTimeout> | undefined;

/** Notes a group whose leader has started; `groupEnded` when the leader has exited and its group was killed. */
export function groupStarted(pid: number): void {
  anyStarted = true;
  liveGroups.add(pid);
  if (tracker === undefined) scheduleLook(TRACK_EVERY_MS);
}

/**
 * The next look by parent pid. A look reads every process's stat, so on a machine with a large
 * process table it waits longer: looking takes at most about 2% of the time.
 */
function scheduleLook(ms: number): void {
  tracker = setTimeout(() => {
    const started = performance.now();
    noteDescendants();
    if (liveGroups.size > 0) scheduleLook(Math.max(TRACK_EVERY_MS, 50 * (performance.now() - started)));
    else tracker = undefined;
  }, ms);
  tracker.unref();
}

export function groupEnded(pid: number): void {
  liveGroups.delete(pid);
  if (liveGroups.size === 0 && tracker !== undefined) {
    clearTimeout(tracker);
    tracker = undefined;
  }
}

function noteDescendants(): void {
  for (const [pid, seen] of tracked) if (!stillSame(seen)) tracked.delete(pid);
  for (const stat of descendantsOf(liveGroups)) {
    if (tracked.size >= MAX_TRACKED) break;
    if (stat.state !== 'Z') tracked.set(stat.pid, stat);
  }
}

/** The descendants noted so far (net 2), for tests. */
export function trackedPids(): number[] {
  return [...tracked.keys()];
}

/**
 * Ends, synchronously and with SIGKILL, everything this host process started through `spawnGroup`:
 * every live group, every noted descendant that is still the same process, and every process
 * carrying this host's marker. Returns how many processes (or groups) it signalled.
 */
export function endRunProcesses(): number {
  if (!anyStarted) return 0;
  const groups = [...liveGroups];
  liveGroups.clear();
  if (tracker !== undefined) clearTimeout(tracker);
  tracker = undefined;
  // Stopped first, so none can start a replacement between the kills.
  for (const pgid of groups) signal(-pgid, 'SIGSTOP');
  for (const pgid of groups) signal(-pgid, 'SIGKILL');
  const noted = [...tracked.values()];
  tracked.clear();
  const doomed = noted.filter(stillSame);
  for (const p of doomed) signal(p.pid, 'SIGSTOP');
  for (const p of doomed) if (readStat(p.pid)?.startTime === p.startTime) signal(p.pid, 'SIGKILL');
  return groups.length + doomed.length + sweepMarked(hostRunToken);
}

/**
 * Ends every process (but this one) whose environment carries `token`, stopping each before killing
 * it, until a look finds none (at most 20 rounds). Returns how many it killed. Linux only; elsewhere 0.
 */
export function sweepMarked(token: string): number {
  let killed = 0;
  for (let round = 0; round < SWEEP_ROUNDS; round++) {
    const found: ProcStat[] = [];
    for (const pid of listPids()) {
      if (pid === process.pid) continue;
      const stat = readStat(pid);
      if (stat === undefined || stat.state === 'Z') continue;
      if (environHolds(pid, token)) found.push(stat);
    }
    if (found.length === 0) break;
    for (const p of found) if (stillSame(p)) signal(p.pid, 'SIGSTOP');
    for (const p of found) {
      // Stopped (or already dying) and still the process that carried the marker: a reused pid is left alone.
      if (readStat(p.pid)?.startTime === p.startTime) {
        signal(p.pid, 'SIGKILL');
        killed++;
      }
    }
  }
  return killed;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone, or not ours.
  }
}
