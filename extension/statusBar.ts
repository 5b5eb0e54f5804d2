/** The status bar item with the last test run's counts, over every config it ran; clicking it opens the results view. Hidden until a run ends. */
import * as vscode from 'vscode';
import { OPEN_RESULTS_COMMAND } from './editor/caseCodeLens';
import { batchSummaryText, type ConfigOutcome } from './results/runBatch';

export class LastRunStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('evallens.lastRun', vscode.StatusBarAlignment.Left, 0);

  constructor() {
    this.item.name = 'EvalLens: last run';
    this.item.command = OPEN_RESULTS_COMMAND;
  }

  /** The configs of the latest test run; nothing changes until one of them got as far as starting. */
  show(outcomes: readonly ConfigOutcome[]): void {
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
