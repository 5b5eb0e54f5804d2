import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * EvalLens's cache folder: `EVALLENS_CACHE_HOME`, else `$XDG_CACHE_HOME/evallens`, else
 * `%LOCALAPPDATA%\evallens\cache` on Windows, else `~/.cache/evallens`. Read from the user's
 * environment (the process's), never a workspace's: whatever is kept there (regex verdicts, the
 * language server's analyses) is trusted by the next process.
 */
export function cacheHome(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const own = env['EVALLENS_CACHE_HOME'];
  if (own !== undefined && own !== '') return own;
  const xdg = env['XDG_CACHE_HOME'];
  if (xdg !== undefined && xdg.startsWith('/')) return join(xdg, 'evallens');
  const local = env['LOCALAPPDATA'];
  if (process.platform === 'win32' && local !== undefined && local !== '') return join(local, 'evallens', 'cache');
  try {
    const home = homedir();
    return home === '' ? undefined : join(home, '.cache', 'evallens');
  } catch {
    return undefined;
  }
}
