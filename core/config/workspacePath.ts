import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

/**
 * Whether `path` (absolute, maybe not there yet) lies outside the folder `workspace` once symbolic
 * links are followed: the nearest part of it that exists is resolved, so a link inside the workspace
 * that points out of it counts as outside.
 */
export function outsideOf(workspace: string, path: string): boolean {
  const root = realPath(resolve(workspace));
  const target = realPath(resolve(workspace, path));
  const rel = relative(root, target);
  return rel === '..' || rel.startsWith(`..${'/'}`) || rel.startsWith('..\\') || isAbsolute(rel);
}

/** The real path of `path`'s nearest existing ancestor, with the parts that do not exist yet appended. */
function realPath(path: string): string {
  const missing: string[] = [];
  let current = path;
  while (!existsSync(current)) {
    const parent = dirname(current);
    if (parent === current) break;
    missing.unshift(current.slice(parent.length).replace(/^[\\/]+/, ''));
    current = parent;
  }
  let real = current;
  try {
    real = realpathSync(current);
  } catch {
    // Unreadable: compare the path as written.
  }
  return missing.length === 0 ? real : join(real, ...missing);
}
