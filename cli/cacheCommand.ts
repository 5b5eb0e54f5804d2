/**
 * `evallens cache stats|clear`: how many verdicts the result cache holds and its size, or empty it
 * (docs/cache.md). The cache is `.evallens/cache` by default, beside the runs; `--cache-dir` names
 * another, as for `run`.
 */
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { printable } from '../shared/text/printable';
import { cacheBytes, DATABASE_FILE, openCacheStore } from './cacheStore';
import type { CacheCommand } from './cacheArgs';
export { CacheUsageError, parseCacheArgs, type CacheCommand } from './cacheArgs';

/** The cache folder a command uses: `--cache-dir`, else `cache` beside the runs folder (`.evallens/cache`). */
export function cacheDirOf(command: { readonly cacheDir?: string; readonly runsDir?: string }): string {
  if (command.cacheDir !== undefined) return resolve(command.cacheDir);
  return resolve(command.runsDir ?? '.evallens/runs', '..', 'cache');
}

export async function cacheCommand(
  command: CacheCommand,
  stdout: NodeJS.WritableStream,
  stderr: NodeJS.WritableStream,
): Promise<number> {
  const dir = cacheDirOf(command);
  const shown = printable(relative(process.cwd(), dir) || dir);
  // Stats of a cache that was never made is an empty cache; neither command creates one.
  if (!existsSync(join(dir, DATABASE_FILE))) {
    if (command.json) stdout.write(`${JSON.stringify({ dir, entries: 0, bytes: 0 })}\n`);
    else stdout.write(`cache: ${shown}: empty (no cache yet)\n`);
    return 0;
  }
  const store = openCacheStore(dir, (message) => stderr.write(`evallens: ${printable(message)}\n`));
  if (store === undefined) return 2;
  try {
    if (command.action === 'clear') {
      const removed = store.clear();
      stdout.write(
        command.json
          ? `${JSON.stringify({ dir, removed })}\n`
          : `cache: ${shown}: removed ${removed} entr${removed === 1 ? 'y' : 'ies'}\n`,
      );
      return 0;
    }
    const entries = store.entries();
    const bytes = cacheBytes(dir);
    stdout.write(
      command.json
        ? `${JSON.stringify({ dir, entries, bytes })}\n`
        : `cache: ${shown}: ${entries} entr${entries === 1 ? 'y' : 'ies'}, ${megabytes(bytes)} on disk\n`,
    );
    return 0;
  } finally {
    await store.close();
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
