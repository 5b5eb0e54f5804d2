/** The status bar's words for a finished run. Pure; statusBar.ts shows them. */
import type { RunSummary } from '../../protocol/runEvents';
import { printable } from '../../shared/text/printable';

export interface SummaryText {
  readonly text: string;
  readonly tooltip: string;
  readonly failing: boolean;
}

export function runSummaryText(summary: RunSummary, cancelled: boolean, configName: string): SummaryText {
  const parts = [`$(pass) ${summary.passed}`, `$(error) ${summary.failed}`];
  if (summary.errored > 0) parts.push(`$(warning) ${summary.errored}`);
  if (summary.skipped > 0) parts.push(`$(circle-slash) ${summary.skipped}`);
  const counts = [
    `${summary.passed} passed`,
    `${summary.failed} failed`,
    `${summary.errored} errored`,
    `${summary.skipped} skipped`,
  ].join(', ');
  return {
    text: `EvalLens ${parts.join(' ')}${cancelled ? ' (stopped)' : ''}`,
    tooltip: `Last run of ${printable(configName)}: ${counts} of ${summary.total} case${summary.total === 1 ? '' : 's'}${cancelled ? ', stopped before the end' : ''}. Click to open the results.`,
    failing: summary.failed > 0 || summary.errored > 0,
  };
}
