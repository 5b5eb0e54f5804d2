// Small numeric and process helpers the benchmarks share.
import { execFileSync } from 'node:child_process';

export const round = (x, d = 0) =>
  x === undefined || x === null || Number.isNaN(x) ? x : Math.round(x * 10 ** d) / 10 ** d;

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Median, min and max of one numeric field over runs (undefined when no run has it). */
export const stat = (runs, key) => {
  const xs = runs.map((r) => r[key]).filter((x) => typeof x === 'number');
  return xs.length ? { median: median(xs), min: Math.min(...xs), max: Math.max(...xs), n: xs.length } : undefined;
};

/** A command's output for the machine description, or why it is unavailable. */
export const capture = (cmd, argv, opts = {}) => {
  try {
    return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...opts }).trim();
  } catch (e) {
    return `unavailable (${(e.stderr || e.message || '').toString().trim().split('\n')[0]})`;
  }
};
