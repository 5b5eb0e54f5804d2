import { isAscii } from 'node:buffer';
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import Module, { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { cacheHome } from '../cacheHome';

/**
 * Starts one of our bundles (dist/cli-main.js, dist/server-main.js) with V8's code cache, so that a
 * process does not compile the same 3–4 MB of JavaScript again each time it starts (compiling it was a
 * third of `evallens validate`'s time, reading it as UTF-8 another third).
 *
 * Node ≥ 22.1 has this built in (`module.enableCompileCache`), which is used when present. On Node 20
 * the bundle is compiled here as Node's CommonJS loader would (the same wrapper, `require` relative to
 * the bundle), with the cached data of an earlier run; the
 * first process, or one whose cache V8 rejected, writes the cache when it exits, so it also holds every
 * function that run compiled lazily.
 *
 * - Keyed by content: V8 itself checks only the source's length, Node's version and V8's flags, so an
 *   entry is named by a SHA-256 of the bundle's bytes, Node's version and architecture, the V8 flags
 *   given to the process (execArgv, NODE_OPTIONS); a rebuilt bundle never meets an old entry.
 * - Checked: an entry starts with the SHA-256 of its payload; one that does not match (torn, edited,
 *   truncated) is not given to V8 and is written again. Entries are written to a temporary file and
 *   renamed, 0600 in a 0700 folder, so two processes starting at once each see a whole entry or none.
 * - Bounded: an entry over MAX_ENTRY_BYTES is neither read nor written; at most KEPT_PER_BUNDLE entries per
 *   bundle name are kept (the least recently written go), so builds side by side do not fight.
 * - Trust: the folder is the user's own cache folder (shared/cacheHome.ts: the process's environment,
 *   never a workspace's), like the regex verdicts. Whoever can write there can already run programs as
 *   the user; the checksum catches corruption, not an attacker.
 * - CommonJS only: a bundle must not use `import()` (Node's loader for it in a compiled script is still
 *   experimental on Node 20 and warns); esbuild.mjs turns each into `require()`.
 * Any error turns the cache off for the process (the bundle is then compiled as usual).
 * `EVALLENS_CODE_CACHE=off` turns it off.
 */
export function runBundle(bundle: string, env: Readonly<Record<string, string | undefined>> = process.env): void {
  const folder = codeCacheFolder(env);
  const nodeCompileCache = (Module as { enableCompileCache?: (directory: string) => unknown }).enableCompileCache;
  if (folder !== undefined && typeof nodeCompileCache === 'function') {
    try {
      nodeCompileCache(join(folder, 'node'));
    } catch {
      // Node's own cache is an optimisation too: without it the bundle is compiled as usual.
    }
  }
  if (folder === undefined || typeof nodeCompileCache === 'function') {
    createRequire(bundle)(bundle);
    return;
  }
  let compiled: CompiledBundle;
  try {
    compiled = compileBundle(bundle, folder);
  } catch {
    createRequire(bundle)(bundle);
    return;
  }
  if (compiled.fresh)
    process.once('exit', () => {
      try {
        compiled.keep();
      } catch {
        // Never the reason a process fails: the next one compiles again.
      }
    });
  compiled.run();
}

/** Where code caches are kept, or undefined when they are off. */
export function codeCacheFolder(env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (env['EVALLENS_CODE_CACHE'] === 'off') return undefined;
  const home = cacheHome(env);
  return home === undefined ? undefined : join(home, 'code-cache');
}

/** An entry over this size is neither read nor written (our bundles' caches are 1–2 MB). */
export const MAX_ENTRY_BYTES = 64 * 1024 * 1024;
/** Entries kept per bundle name: a few builds side by side (a benchmark's old and new) each keep theirs. */
export const KEPT_PER_BUNDLE = 4;
/**
 * An entry holds what the process that wrote it had compiled (V8 compiles most functions lazily), so
 * the first few processes that use it write it again on exit with what they compiled too: after
 * REFRESHES of them it covers the commands in use, and later processes only read it.
 */
export const REFRESHES = 3;
/** An entry: SHA-256 of the rest, then the number of times it was written again, then V8's data. */
const CHECKSUM_BYTES = 32;
const HEADER_BYTES = CHECKSUM_BYTES + 1;

export interface CompiledBundle {
  /** What the cache gave: `hit` (V8 took the entry), `miss` (none, or a corrupt one), `rejected` (V8 refused it). */
  readonly cache: 'hit' | 'miss' | 'rejected';
  /** The entry this bundle's cache is kept in. */
  readonly entry: string;
  /** Whether to `keep` on exit: no entry, a rejected one, or one still among its first REFRESHES uses. */
  readonly fresh: boolean;
  /** Runs the bundle as a CommonJS module (its `module.exports` are returned). */
  run(): unknown;
  /** Writes the cache of what has been compiled so far (on exit, so lazily compiled functions are in it). */
  keep(): void;
}

/** Compiles `bundle` with the cache kept in `folder` (not run yet). */
export function compileBundle(bundle: string, folder: string): CompiledBundle {
  const bytes = readBounded(bundle, MAX_ENTRY_BYTES);
  if (bytes === undefined) throw new Error(`${bundle}: cannot read the bundle`);
  // A one-byte string when the bundle is ASCII (ours are: esbuild escapes the rest): decoding UTF-8 into
  // a two-byte string took longer than compiling.
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const entry = join(folder, `${basename(bundle)}-${entryKey(bytes)}.v8`);
  const kept = readEntry(entry);
  const cachedData = kept?.data;
  const script = new Script(Module.wrap(source.startsWith('#!') ? `//${source}` : source), {
    filename: bundle,
    ...(cachedData === undefined ? {} : { cachedData }),
  });
  const cache = cachedData === undefined ? 'miss' : script.cachedDataRejected === true ? 'rejected' : 'hit';
  const refreshes = cache === 'hit' ? (kept?.refreshes ?? 0) + 1 : 0;
  return {
    cache,
    entry,
    fresh: cache !== 'hit' || refreshes <= REFRESHES,
    run() {
      const module = new Module(bundle);
      module.filename = bundle;
      const wrapper = script.runInThisContext() as (
        exports: unknown,
        require: NodeJS.Require,
        module: Module,
        filename: string,
        dirname: string,
      ) => void;
      wrapper.call(module.exports, module.exports, createRequire(bundle), module, bundle, dirname(bundle));
      module.loaded = true;
      return module.exports;
    },
    keep() {
      writeEntry(folder, entry, refreshes, script.createCachedData());
    },
  };
}

function entryKey(bundle: Buffer): string {
  const flags = [process.version, process.arch, process.execArgv.join(' '), process.env['NODE_OPTIONS'] ?? ''];
  return createHash('sha256')
    .update(bundle)
    .update(`\0${flags.join('\0')}`)
    .digest('hex')
    .slice(0, 40);
}

/** The cached data of an entry whose checksum holds, and how often it was written again; else undefined. */
function readEntry(entry: string): { data: Buffer; refreshes: number } | undefined {
  const bytes = readBounded(entry, MAX_ENTRY_BYTES + HEADER_BYTES);
  if (bytes === undefined || bytes.length <= HEADER_BYTES) return undefined;
  const sum = createHash('sha256').update(bytes.subarray(CHECKSUM_BYTES)).digest();
  if (!sum.equals(bytes.subarray(0, CHECKSUM_BYTES))) return undefined;
  return { data: bytes.subarray(HEADER_BYTES), refreshes: bytes[CHECKSUM_BYTES] ?? 0 };
}

function writeEntry(folder: string, entry: string, refreshes: number, data: Buffer): void {
  if (data.length === 0 || data.length > MAX_ENTRY_BYTES) return;
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const rest = Buffer.concat([Buffer.of(Math.min(refreshes, 255)), data]);
    const temporary = `${entry}.${randomBytes(6).toString('hex')}.tmp`;
    writeFileSync(temporary, Buffer.concat([createHash('sha256').update(rest).digest(), rest]), { mode: 0o600 });
    renameSync(temporary, entry);
    pruneEntries(folder, entry);
  } catch {
    // A cache: a read-only or full disk only means the next process compiles again.
  }
}

/** Keeps the KEPT_PER_BUNDLE most recently written entries of the bundle `entry` belongs to. */
function pruneEntries(folder: string, entry: string): void {
  const name = basename(entry);
  const prefix = name.slice(0, name.lastIndexOf('-') + 1);
  const entries = readdirSync(folder)
    .filter((file) => file.startsWith(prefix) && file.endsWith('.v8'))
    .map((file) => ({ file, written: statSync(join(folder, file)).mtimeMs }))
    .sort((a, b) => b.written - a.written);
  for (const { file } of entries.slice(KEPT_PER_BUNDLE)) rmSync(join(folder, file), { force: true });
}

/** A regular file's bytes when it is at most `limit` bytes long, else undefined (missing, too large, unreadable). */
function readBounded(path: string, limit: number): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > limit) return undefined;
    const bytes = Buffer.allocUnsafe(stat.size);
    let filled = 0;
    while (filled < bytes.length) {
      const read = readSync(fd, bytes, filled, bytes.length - filled, filled);
      if (read === 0) return undefined;
      filled += read;
    }
    return bytes;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
