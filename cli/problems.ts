import { relative } from 'node:path';
import type { Problem } from '../core/problem';

/** `file:line:col: error: message [code]`, 1-based, with the path relative to the working directory. */
export function formatProblem(problem: Problem, cwd: string): string {
  const { file, start } = problem.range;
  return `${displayPath(file, cwd)}:${start.line + 1}:${start.column + 1}: ${problem.severity}: ${problem.message} [${problem.code}]`;
}

export function displayPath(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel === '' || rel.startsWith('..') ? file : rel;
}
