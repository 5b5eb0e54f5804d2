/** How a result reads in one line: its mark and its score. Shared by messages, lenses and hovers. */
import type { ResultStatus } from '../../core/result';
import type { CaseStatus } from '../../protocol/runEvents';
import { printable } from '../../shared/text/printable';

const RESULT_MARKS: Readonly<Record<ResultStatus, string>> = {
  pass: '✓',
  fail: '✗',
  error: '⚠',
  timeout: '⏱',
  inconclusive: '?',
  unsupported: '–',
  skipped: '⊘',
  measured: '•',
};

const CASE_MARKS: Readonly<Record<CaseStatus, string>> = { passed: '✓', failed: '✗', errored: '⚠', skipped: '⊘' };

export function resultMark(status: ResultStatus): string {
  return RESULT_MARKS[status];
}

export function caseMark(status: CaseStatus): string {
  return CASE_MARKS[status];
}

/** At most three decimals, no trailing zeros: 1, 0.5, 0.667, 42. */
export function formatScore(score: number): string {
  return Number.isInteger(score) ? String(score) : String(Math.round(score * 1000) / 1000);
}

/**
 * Text for the Test Results output, which is a terminal (xterm): whatever it quotes from the workspace
 * (case ids, reasons, the CLI's messages) with controls and bidi characters escaped, so no escape
 * sequence in a dataset can act on it; line ends as CRLF, which the terminal wants.
 */
export function terminalText(text: string): string {
  return printable(text, { lines: true }).replace(/\n/g, '\r\n');
}
