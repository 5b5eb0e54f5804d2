import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/**
 * The first executable file called `name` in the directories of `path` (a PATH value), found by
 * looking at the file system only: never by starting a process, because configs are loaded on every
 * keystroke in the editor. Relative PATH entries are skipped (they would depend on the cwd).
 */
export function findOnPath(name: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not there, or not executable: try the next directory.
    }
  }
  return undefined;
}
