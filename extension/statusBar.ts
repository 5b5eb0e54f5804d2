/** The status bar item with the last run's counts; clicking it opens the results view. Hidden until a run ends. */
import * as vscode from 'vscode';
import type { RunSummary } from '../protocol/runEvents';
import { OPEN_RESULTS_COMMAND } from './editor/caseCodeLens';
import { runSummaryText } from './testing/runSummaryText';

export class LastRunStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('evallens.lastRun', vscode.StatusBarAlignment.Left, 0);

  constructor() {
    this.item.name = 'EvalLens: last run';
    this.item.command = OPEN_RESULTS_COMMAND;
  }

  show(summary: RunSummary, cancelled: boolean, configFile: string): void {
    const words = runSummaryText(summary, cancelled, vscode.workspace.asRelativePath(configFile));
    this.item.text = words.text;
    this.item.tooltip = words.tooltip;
    this.item.backgroundColor = words.failing ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
