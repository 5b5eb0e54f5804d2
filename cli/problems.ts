import { relative } from 'node:path';
import type { Problem } from '../core/problem';
import { printable } from '../shared/text/printable';
import { displayLineColumn } from '../shared/text/displayPosition';

/**
 * `file:line:col: error: message [code]`, 1-based, with the path relative to the working directory.
 * One line, whatever the path or the keys a message quotes hold: controls and bidi characters escaped.
 */
export function formatProblem(problem: Problem, cwd: string): string {
  const { file, start } = problem.range;
  return printable(
    `${displayPath(file, cwd)}:${displayLineColumn(start)}: ${problem.severity}: ${problem.message} [${problem.code}]`,
  );
}

export function displayPath(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel === '' || rel.startsWith('..') ? file : rel;
}

/**
 * Problems in the order a person reads the files: by file (in the order the files first appear),
 * then by position. Checks run by kind (syntax, schema, scorers, files), so their output would
 * otherwise jump back and forth through the config.
 */
export function byPosition(problems: readonly Problem[]): Problem[] {
  const fileOrder = new Map<string, number>();
  for (const problem of problems)
    if (!fileOrder.has(problem.range.file)) fileOrder.set(problem.range.file, fileOrder.size);
  return [...problems].sort(
    (a, b) =>
      (fileOrder.get(a.range.file) ?? 0) - (fileOrder.get(b.range.file) ?? 0) ||
      a.range.start.offset - b.range.start.offset,
  );
}
