/**
 * The status bar item with the last test run's regressions against the baselines: "▼ 3 regressed",
 * its tooltip naming the first ids; clicking it opens the results (of the config, when one config
 * was compared). Hidden when no config of the last test run was compared with a baseline.
 */
import * as vscode from 'vscode';
import { OPEN_RESULTS_COMMAND } from '../editor/caseCodeLens';
import { regressionStatusText, type ConfigRegressions, type RunComparison } from './runComparison';

export class RegressionStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('evallens.regressions', vscode.StatusBarAlignment.Left, -1);
  /** The test run the configs below belong to: a new test run starts over. */
  private testRun: object | undefined;
  private readonly configs = new Map<string, ConfigRegressions>();

  constructor() {
    this.item.name = 'EvalLens: regressions against the baseline';
  }

  /** A config's part of `testRun` ended, compared with its baseline or not. */
  record(testRun: object, configFile: string, label: string, comparison: RunComparison | undefined): void {
    if (testRun !== this.testRun) {
      this.testRun = testRun;
      this.configs.clear();
    }
    if (comparison === undefined) this.configs.delete(configFile);
    else this.configs.set(configFile, { label, comparison });
    this.show();
  }

  /** The config's last run became its baseline: its regressions are no longer news. */
  forget(configFile: string): void {
    if (this.configs.delete(configFile)) this.show();
  }

  /** What the item shows, for the in-host tests (undefined while hidden). */
  get shown(): { readonly text: string; readonly tooltip: string } | undefined {
    return this.visible ? { text: this.item.text, tooltip: String(this.item.tooltip ?? '') } : undefined;
  }

  private visible = false;

  private show(): void {
    const words = regressionStatusText([...this.configs.values()]);
    if (words === undefined) {
      this.item.hide();
      this.visible = false;
      return;
    }
    const only = this.configs.size === 1 ? [...this.configs.keys()][0] : undefined;
    this.item.text = words.text;
    this.item.tooltip = words.tooltip;
    this.item.command = {
      title: 'Open Results',
      command: OPEN_RESULTS_COMMAND,
      arguments: only === undefined ? [] : [only],
    };
    this.item.backgroundColor =
      words.regressed > 0 ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
    this.visible = true;
  }

  dispose(): void {
    this.item.dispose();
  }
}
