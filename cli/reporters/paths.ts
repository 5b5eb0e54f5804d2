import { isAbsolute, relative, sep } from 'node:path';

/** A path as people read it: relative to `cwd` when absolute, with `/` separators. */
export function displayPath(cwd: string, file: string): string {
  const shown = isAbsolute(file) ? relative(cwd, file) || file : file;
  return sep === '/' ? shown : shown.split(sep).join('/');
}
