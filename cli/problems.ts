import { relative } from 'node:path';
import type { Problem } from '../core/problem';
import { printable } from '../core/text/printable';

/**
 * `file:line:col: error: message [code]`, 1-based, with the path relative to the working directory.
 * One line, whatever the path or the keys a message quotes hold: controls and bidi characters escaped.
 */
export function formatProblem(problem: Problem, cwd: string): string {
  const { file, start } = problem.range;
  return printable(`${displayPath(file, cwd)}:${start.line + 1}:${start.column + 1}: ${problem.severity}: ${problem.message} [${problem.code}]`);
}

export function displayPath(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel === '' || rel.startsWith('..') ? file : rel;
}
