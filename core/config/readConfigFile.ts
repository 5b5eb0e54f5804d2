import { resolve } from 'node:path';
import type { Problem } from '../problem';
import { readBoundedTextSync } from '../text/boundedRead';

/**
 * A config file's text, or the problem of a file that cannot be read (never a thrown error). Only a
 * regular file of at most `READ_LIMITS.config` bytes is read (a symlink to /dev/zero is refused).
 */
export function readConfigFile(
  path: string,
  what: string,
): { readonly file: string; readonly text: string } | { readonly file: string; readonly problem: Problem } {
  const file = resolve(path);
  const read = readBoundedTextSync(file, 'config');
  if (read.ok) return { file, text: read.text };
  const at = { offset: 0, line: 0, column: 0 };
  return {
    file,
    problem: {
      code: 'unreadable-config',
      severity: 'error',
      message: `cannot read the ${what}: ${read.reason}`,
      range: { file, start: at, end: at },
    },
  };
}
