import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Problem } from '../problem';

/** A config file's text, or the problem of a file that cannot be read (never a thrown error). */
export function readConfigFile(path: string, what: string): { readonly file: string; readonly text: string } | { readonly file: string; readonly problem: Problem } {
  const file = resolve(path);
  try {
    return { file, text: readFileSync(file, 'utf8') };
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message;
    const at = { offset: 0, line: 0, column: 0 };
    return { file, problem: { code: 'unreadable-config', severity: 'error', message: `cannot read the ${what}: ${reason}`, range: { file, start: at, end: at } } };
  }
}
