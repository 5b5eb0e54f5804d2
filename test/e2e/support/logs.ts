/**
 * The extension host's logs in a code-server profile: `<user-data>/logs/<session>/exthost<n>/`, which
 * holds the host's own log and one file per output channel (the EvalLens channel among them).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Per file, at most this much of its end: a failure report stays readable. */
const TAIL_CHARACTERS = 6000;

export function extensionHostLogs(userDataDir: string): string {
  const logs = join(userDataDir, 'logs');
  const files = existsSync(logs)
    ? listFiles(logs).filter((path) => /exthost/i.test(relative(logs, path)) && path.endsWith('.log'))
    : [];
  if (files.length === 0) return `(no extension host log under ${logs})`;
  return files
    .map((path) => {
      const text = readFileSync(path, 'utf8');
      const tail = text.length > TAIL_CHARACTERS ? `…${text.slice(-TAIL_CHARACTERS)}` : text;
      return `--- ${path}\n${tail.trimEnd() === '' ? '(empty)' : tail.trimEnd()}`;
    })
    .join('\n');
}

function listFiles(folder: string): string[] {
  return readdirSync(folder)
    .sort()
    .flatMap((name) => {
      const path = join(folder, name);
      return statSync(path).isDirectory() ? listFiles(path) : [path];
    });
}
