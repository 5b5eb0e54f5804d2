/**
 * The status bar item: while a config runs, its cases done of the total and the failures so far;
 * then the last test run's counts, over every config it ran. Clicking it opens the results view.
 * Hidden until a run starts.
 */
import * as vscode from 'vscode';
import { OPEN_RESULTS_COMMAND } from './editor/caseCodeLens';
import { batchSummaryText, type ConfigOutcome } from './results/runBatch';
import type { RunEvent } from '../core/runner/events';
import { runProgressText, type RunProgress } from './runProgressText';

export class LastRunStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('evallens.lastRun', vscode.StatusBarAlignment.Left, 0);

  constructor() {
    this.item.name = 'EvalLens: last run';
    this.item.command = OPEN_RESULTS_COMMAND;
  }

  private progress: RunProgress | undefined;

  /** A config's run started: the item shows its cases done of `total` until the run ends. */
  running(config: string, total: number | undefined): void {
    this.progress = { config, done: 0, total, failed: 0, errored: 0 };
    this.showProgress();
  }

  /** Counts a run's case/end events into the progress shown. */
  onEvent(event: RunEvent): void {
    if (this.progress === undefined || event.type !== 'case/end') return;
    const { status } = event;
    this.progress = {
      ...this.progress,
      done: this.progress.done + 1,
      failed: this.progress.failed + (status === 'failed' ? 1 : 0),
      errored: this.progress.errored + (status === 'errored' ? 1 : 0),
    };
    this.showProgress();
  }

  private showProgress(): void {
    if (this.progress === undefined) return;
    const words = runProgressText(this.progress);
    this.item.text = words.text;
    this.item.tooltip = words.tooltip;
    this.item.backgroundColor = undefined;
    this.item.show();
  }

  /** The configs of the latest test run; nothing changes until one of them got as far as starting. */
  show(outcomes: readonly ConfigOutcome[]): void {
    this.progress = undefined;
    if (!outcomes.some((o) => o.summary !== undefined)) return;
    const words = batchSummaryText(outcomes);
    this.item.text = words.text;
    this.item.tooltip = words.tooltip;
    this.item.backgroundColor = words.failing ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
