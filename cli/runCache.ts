/**
 * The result cache of one `evallens run` (docs/cache.md): opened unless `--no-cache` or `--untrusted`,
 * closed (its writes waited for) when the run ends, and a line saying how many results it gave.
 *
 * An untrusted run neither reads nor writes the cache: the cache lives in the workspace, and a
 * verdict read from it is workspace data — a cache planted in a repository could make failing cases
 * pass without any scorer running. (An untrusted run calls none of the scorers that are cached
 * either, so it would have nothing to look up.)
 */
import { relative } from 'node:path';
import type { RunCache } from '../core/cache/scoringCache';
import type { RunConfig } from '../core/config/runConfig';
import packageJson from '../package.json';
import { printable } from '../shared/text/printable';
import { cacheDirOf } from './cacheCommand';
import { openCacheStore, type CacheStore } from './cacheStore';
import type { TargetCache } from './preparers';

export interface RunCacheOptions {
  readonly noCache?: boolean;
  readonly cacheDir?: string;
  readonly runsDir?: string;
  readonly untrusted: boolean;
}

export interface OpenedRunCache {
  /** What runEval takes; absent when the run does not cache. */
  readonly cache?: RunCache;
  /** What the target preparer takes (cli/preparers.ts); absent when the run does not cache. */
  readonly targets?: TargetCache;
  /** Waits for the cache's writes, closes it and says what it gave. */
  close(): Promise<void>;
}

/**
 * Whether a run of `config` has anything the cache keeps: a target, or a scorer that runs workspace
 * code or calls a service (the microsecond scorers are never looked up). A run without one neither
 * opens the store (its native module costs start-up time) nor makes a cache folder.
 */
export function cachesAnything(config: RunConfig): boolean {
  return config.target !== undefined || config.scorers.some((s) => s.definition.reaches !== undefined);
}

export function openRunCache(
  options: RunCacheOptions,
  config: RunConfig,
  stderr: NodeJS.WritableStream,
): OpenedRunCache {
  if (options.noCache === true || options.untrusted || !cachesAnything(config))
    return { close: () => Promise.resolve() };
  const say = (message: string) => stderr.write(`evallens: warning: ${printable(message)}\n`);
  const store = openCacheStore(cacheDirOf(options), say);
  if (store === undefined) return { close: () => Promise.resolve() };
  // Closed once, whether the run ended or threw.
  let closing: Promise<void> | undefined;
  return {
    cache: { store, version: packageJson.version },
    targets: { store, version: packageJson.version },
    close: () =>
      (closing ??= store.close().then(() => {
        summarize(store, stderr);
      })),
  };
}

/** One line when the cache gave results or found corrupt entries; nothing on a run it did not touch. */
function summarize(store: CacheStore, stderr: NodeJS.WritableStream): void {
  const { hits, outputHits, corrupt } = store.counts;
  const where = printable(relative(process.cwd(), store.dir) || store.dir);
  if (hits > 0)
    stderr.write(
      `evallens: ${hits} result${hits === 1 ? '' : 's'} from the cache (${where}; --no-cache scores everything again)\n`,
    );
  if (outputHits > 0)
    stderr.write(
      `evallens: ${outputHits} target output${outputHits === 1 ? '' : 's'} from the cache (${where}; --no-cache calls the target again)\n`,
    );
  if (corrupt > 0)
    stderr.write(
      `evallens: warning: ${corrupt} corrupt cache entr${corrupt === 1 ? 'y was' : 'ies were'} ignored and scored again\n`,
    );
}
