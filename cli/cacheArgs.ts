// `evallens cache`'s command line (cli/cacheCommand.ts runs it), apart so that parsing does not load the cache.
import { parseArgs } from 'node:util';
import { printable } from '../shared/text/printable';

export interface CacheCommand {
  readonly kind: 'cache';
  readonly action: 'stats' | 'clear';
  readonly cacheDir?: string;
  readonly runsDir?: string;
  readonly json: boolean;
}

export class CacheUsageError extends Error {}

export function parseCacheArgs(argv: readonly string[]): CacheCommand | { help: true } {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        'cache-dir': { type: 'string' },
        'runs-dir': { type: 'string' },
        json: { type: 'boolean' },
      },
    });
  } catch {
    throw new CacheUsageError(
      '`evallens cache stats|clear` takes only --cache-dir <folder>, --runs-dir <folder> and --json; see `evallens cache --help`',
    );
  }
  if (parsed.values.help === true) return { help: true };
  const [, action, ...more] = parsed.positionals;
  if ((action !== 'stats' && action !== 'clear') || more.length > 0)
    throw new CacheUsageError(
      `\`evallens cache\` takes \`stats\` or \`clear\`${action === undefined ? '' : `, not "${printable(action)}"`}; see \`evallens cache --help\``,
    );
  const { 'cache-dir': cacheDir, 'runs-dir': runsDir } = parsed.values;
  return {
    kind: 'cache',
    action,
    ...(cacheDir === undefined ? {} : { cacheDir }),
    ...(runsDir === undefined ? {} : { runsDir }),
    json: parsed.values.json === true,
  };
}
