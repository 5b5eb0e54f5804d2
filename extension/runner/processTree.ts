/**
 * Ending a process and everything it started. The CLI leads its own process group, but a subprocess
 * scorer starts its command in a group of its own (so its time limit can end it), which a group kill
 * of the CLI does not reach. So the tree is walked by parent pid and each process is killed.
 * Linux reads /proc; macOS and others ask `ps`; Windows has `taskkill /T`. A process that left the
 * tree (`setsid`, then its parent died) is not below the CLI any more: on Linux, every process whose
 * environment carries the run's marker (`marker`, shared/process/runProcesses.ts) is ended as well.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { sweepMarked } from '../../shared/process/runProcesses';

/** Kills `pid` (when given) and its tree, then every process carrying `marker` (when given). */
export function killProcessTree(pid: number | undefined, marker?: string): void {
  if (pid !== undefined) killTree(pid);
  if (marker !== undefined) sweepMarked(marker);
}

function killTree(pid: number): void {
  if (process.platform === 'win32') {
    try {
      execFileSync('taskkill', ['/PID', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
    } catch {
      // Already gone.
    }
    return;
  }
  const doomed = [pid, ...descendantPids(pid)];
  // Stop the parents first so they cannot start replacements, then end every process and its group.
  for (const p of doomed) signal(p, 'SIGSTOP');
  for (const p of doomed) {
    signal(-p, 'SIGKILL');
    signal(p, 'SIGKILL');
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone, or not a group leader.
  }
}

/** pid → parent pid of every process we can see. */
function parentPids(): Map<number, number> {
  const parents = new Map<number, number>();
  if (existsSync('/proc/self/stat')) {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        // `pid (comm) state ppid …`; comm may hold spaces or parentheses, so read after the last ')'.
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (Number.isInteger(ppid)) parents.set(Number(name), ppid);
      } catch {
        // The process ended while we looked.
      }
    }
    return parents;
  }
  try {
    const table = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' });
    for (const line of table.split('\n')) {
      const [pid, ppid] = line.trim().split(/\s+/).map(Number);
      if (pid !== undefined && ppid !== undefined && Number.isInteger(pid) && Number.isInteger(ppid))
        parents.set(pid, ppid);
    }
  } catch {
    // No ps: only the process itself and its group are ended.
  }
  return parents;
}

/** Every process below `root` (children, their children, …); empty on Windows. */
export function descendantPids(root: number): number[] {
  return process.platform === 'win32' ? [] : descendants(root, parentPids());
}

function descendants(root: number, parents: ReadonlyMap<number, number>): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parents) {
    const list = children.get(ppid);
    if (list === undefined) children.set(ppid, [pid]);
    else list.push(pid);
  }
  const found: number[] = [];
  const queue = [root];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const child of children.get(next) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}
