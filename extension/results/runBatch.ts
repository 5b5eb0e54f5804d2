/**
 * What one test run covered: "Run All" over two configs is one test run that forks the CLI once per
 * config, and the status bar and "Open Results" must speak of all of it, not of the config that
 * happened to end last. Pure (no `vscode`): the status bar shows `batchSummaryText`, the results
 * commands offer one entry per config of `outcomes`.
 */
import type { RunSummary } from '../../protocol/runEvents';
import { printable } from '../../shared/text/printable';
import { runSummaryText, type SummaryText } from '../testing/runSummaryText';

/** How one config's part of the test run ended. */
export interface ConfigOutcome {
  readonly configFile: string;
  /** The config's name as the person reads it (workspace-relative). */
  readonly label: string;
  /** Case counts, when the CLI's run got as far as starting. */
  readonly summary?: RunSummary;
  readonly cancelled: boolean;
  /** Where the CLI wrote the run's report.json, when it got that far. */
  readonly reportFile?: string;
  /** When the config's run ended (ms since the epoch). */
  readonly endedAt: number;
}

/**
 * The configs of the latest test run, in the order they ended. A config's run that belongs to a
 * different test run than the one collected so far starts a new batch; the same config twice in one
 * test run (it cannot happen today) keeps its latest outcome.
 */
export class RunBatch {
  private key: object | undefined;
  private readonly byConfig = new Map<string, ConfigOutcome>();

  /** Records a config's run ending; `testRun` is the test run it was part of (any object that identifies it). */
  record(testRun: object, outcome: ConfigOutcome): void {
    if (testRun !== this.key) {
      this.key = testRun;
      this.byConfig.clear();
    }
    this.byConfig.delete(outcome.configFile);
    this.byConfig.set(outcome.configFile, outcome);
  }

  get outcomes(): readonly ConfigOutcome[] {
    return [...this.byConfig.values()];
  }
}

const NO_CASES: RunSummary = { passed: 0, failed: 0, errored: 0, skipped: 0, total: 0 };

function added(a: RunSummary, b: RunSummary): RunSummary {
  return {
    passed: a.passed + b.passed,
    failed: a.failed + b.failed,
    errored: a.errored + b.errored,
    skipped: a.skipped + b.skipped,
    total: a.total + b.total,
  };
}

function countsText(summary: RunSummary): string {
  const counts = [`${summary.passed} passed`, `${summary.failed} failed`];
  if (summary.errored > 0) counts.push(`${summary.errored} errored`);
  if (summary.skipped > 0) counts.push(`${summary.skipped} skipped`);
  return `${counts.join(', ')} of ${summary.total} case${summary.total === 1 ? '' : 's'}`;
}

/** The status bar's words for a test run: every config's cases added up, each config on its own tooltip line. */
export function batchSummaryText(outcomes: readonly ConfigOutcome[]): SummaryText {
  const only = outcomes.length === 1 ? outcomes[0] : undefined;
  if (only?.summary !== undefined) return runSummaryText(only.summary, only.cancelled, only.label);
  const counted = outcomes.filter((o) => o.summary !== undefined);
  const total = counted.reduce((sum, o) => added(sum, o.summary ?? NO_CASES), NO_CASES);
  const cancelled = outcomes.some((o) => o.cancelled);
  const parts = [`$(pass) ${total.passed}`, `$(error) ${total.failed}`];
  if (total.errored > 0) parts.push(`$(warning) ${total.errored}`);
  if (total.skipped > 0) parts.push(`$(circle-slash) ${total.skipped}`);
  const lines = [
    `Last run, ${outcomes.length} config${outcomes.length === 1 ? '' : 's'}: ${countsText(total)}${cancelled ? ', stopped before the end' : ''}.`,
  ];
  for (const o of outcomes)
    lines.push(
      `${printable(o.label)}: ${o.summary === undefined ? 'did not start (see the EvalLens output)' : countsText(o.summary)}${o.cancelled ? ' (stopped)' : ''}`,
    );
  lines.push('Click to open the results.');
  return {
    text: `EvalLens ${parts.join(' ')} · ${outcomes.length} config${outcomes.length === 1 ? '' : 's'}${cancelled ? ' (stopped)' : ''}`,
    tooltip: lines.join('\n'),
    // A config whose run never started (config or dataset problems) is a failure of the test run too.
    failing: total.failed > 0 || total.errored > 0 || counted.length < outcomes.length,
  };
}
