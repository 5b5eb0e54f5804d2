import { existsSync, readFileSync } from 'node:fs';

/** The pids a test fixture recorded in `file`, one a line. */
export function recordedPids(file: string): number[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map(Number);
}

/**
 * Whether the process is dead: no such pid, or a zombie (dead, waiting to be reaped: an orphan is
 * reaped by pid 1, and some container init processes never do).
 */
export function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

/** Polls (bounded) until every pid is gone; rejects naming the survivors and what they are. */
export async function waitAllGone(pids: readonly number[], limitMs = 10_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const alive = pids.filter((pid) => !isGone(pid));
    if (alive.length === 0) return;
    if (Date.now() > deadline) {
      const described = alive.map((pid) => {
        try {
          return `${pid} (${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim()})`;
        } catch {
          return String(pid);
        }
      });
      throw new Error(`${alive.length} of ${pids.length} processes outlived the run: ${described.join(', ')}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** SIGKILLs whatever is left (a failed test must not leave sleepers behind for the next). */
export function killLeftovers(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone.
    }
  }
}
