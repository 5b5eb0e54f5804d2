/**
 * What the client watches for the server: the files the open configs name (datasets, model, database
 * and judge configs, prompts, scripts, setup folders), registered with `client/registerCapability` and
 * replaced as configs change, instead of every file of the workspace. A change to any other file is
 * then never sent. vscode-eslint likewise watches only the files its checks depend on.
 */
import { statSync } from 'node:fs';
import { basename, dirname, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  DidChangeWatchedFilesNotification,
  type Connection,
  type Disposable,
  type FileSystemWatcher,
} from 'vscode-languageserver';

/** More watchers than this are not registered (a config naming thousands of files keeps the editor responsive). */
export const MAX_WATCHED_FILES = 1000;

/** A file name as a glob that matches only that name: `[`, `{`, `}`, `*` and `?` become one-character classes. */
export function literalGlob(text: string): string {
  return text.replace(/[[{}*?]/g, (c) => `[${c}]`);
}

/**
 * One watcher per file. A file whose folder exists gets a relative pattern on that folder (LSP 3.17;
 * the editor watches just that folder, in the workspace or not). Otherwise, and for a client without
 * relative patterns, the absolute path as a glob, which the editor matches against the changes its
 * workspace watcher already sees: a folder not made yet is not watched from some ancestor, which could
 * be the root of the disk.
 */
export function watchersFor(
  files: readonly string[],
  relativePatterns: boolean,
  isDirectory: (path: string) => boolean,
): FileSystemWatcher[] {
  return files.slice(0, MAX_WATCHED_FILES).map((file) => {
    const folder = dirname(file);
    if (!relativePatterns || !isDirectory(folder)) return { globPattern: file.split(sep).map(literalGlob).join('/') };
    return { globPattern: { baseUri: pathToFileURL(folder).href, pattern: literalGlob(basename(file)) } };
  });
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Keeps the client's registration equal to the files `named()` gives; re-registers only when that set changed. */
export class NamedFileWatch {
  private registration: Promise<Disposable | undefined> = Promise.resolve(undefined);
  private registeredKey = '';
  private scheduled: NodeJS.Immediate | undefined;

  constructor(
    private readonly connection: Connection,
    private readonly relativePatterns: boolean,
    private readonly named: () => ReadonlySet<string>,
  ) {}

  /**
   * Syncs after the work already queued: a config whose analysis was just dropped is re-checked
   * first, so the files it names do not drop out of the registration and come back.
   */
  schedule(): void {
    this.scheduled ??= setImmediate(() => {
      this.scheduled = undefined;
      this.sync();
    });
  }

  dispose(): void {
    if (this.scheduled !== undefined) clearImmediate(this.scheduled);
    this.scheduled = undefined;
  }

  private sync(): void {
    const files = [...this.named()].sort();
    const key = files.join('\n');
    if (key === this.registeredKey) return;
    this.registeredKey = key;
    if (files.length > MAX_WATCHED_FILES) {
      this.connection.console.warn(
        `The open configs name ${files.length} files; changes on disk are followed for the first ${MAX_WATCHED_FILES}.`,
      );
    }
    const watchers = watchersFor(files, this.relativePatterns, isDirectory);
    // One registration at a time, in order: the previous one is withdrawn before the next is made.
    this.registration = this.registration.then(async (previous) => {
      previous?.dispose();
      if (watchers.length === 0) return undefined;
      try {
        return await this.connection.client.register(DidChangeWatchedFilesNotification.type, { watchers });
      } catch (error) {
        this.connection.console.error(
          `EvalLens could not ask the editor to watch the files configs name: ${error instanceof Error ? error.message : String(error)}`,
        );
        return undefined;
      }
    });
  }
}
