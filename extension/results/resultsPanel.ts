/**
 * The results view's host side: one webview panel, reused, that shows a finished run (a report) or
 * a run in progress (its events), and answers the view's requests for case data and reveals.
 *
 * API (what the rest of the extension calls):
 *
 *   const panel = ResultsPanel.createOrShow(context.extensionUri, (target) => revealCase(target));
 *     // One panel; a second call shows the same panel (and takes the newer `reveal`).
 *     // `target` is { configFile, caseId, location?: { file, line, column } } (1-based), from
 *     // the report or the run's case/start; open `location` when present, else find the case.
 *   panel.showReport(await readReportFile(cliPath, path));   // a finished run, e.g. a report.json from CI (read by the CLI)
 *   panel.startRun(configFile);                     // clears the view for a live run of this config
 *   panel.pushEvent(event);                         // each RunEvent of that run, as it comes
 *   panel.pushCases(configFile, cases);             // optional: case data already in memory
 *   ResultsPanel.currentPanel;                      // the open panel, or undefined (opens nothing)
 *   panel.onDidDispose(() => …);                    // the panel's tab closed
 *   panel.showNotice(text);                         // nothing to show, and why (e.g. a restored run that is gone)
 *   ResultsPanel.restore(webviewPanel, extensionUri, reveal);  // a panel VS Code revived after a reload (panelSerializer.ts)
 *   // After run/end, showing the run folder's report.json (same runId) keeps the person's selection.
 *
 * Events are batched (one flush per 50 ms, at most EVENTS_PER_MESSAGE events a message), and a report
 * is sent in chunks, so 100,000 results are a few dozen messages. Nothing is posted until the view
 * says `webview/ready` with our PROTOCOL_VERSION; the panel does not keep its context while hidden,
 * so each time it is shown again the view says ready and gets the run again (its filters, sort and
 * selection it restores itself from its webview state). Case data for the detail pane is read on
 * request from the config's dataset by the CLI (caseDataSource.ts); the live job score's threshold
 * comes in the run's run/start event. The host loads no config itself.
 */
import * as vscode from 'vscode';
import type { Report } from '../../core/report/report';
import type { RunEvent } from '../../core/runner/events';
import {
  type CaseData,
  type HostToWebview,
  isWebviewToHost,
  PROTOCOL_VERSION,
  type RevealTarget,
  type WebviewToHost,
} from '../../protocol/webview';
import { CaseDataSource } from './caseDataSource';
import { importedCaseData } from './importedCaseData';
import { LiveRun } from './liveRun';
import { panelHtml } from './panelHtml';
import { RESULTS_VIEW_TYPE } from './panelSerializer';
import { reportMessages } from './reportMessages';

export { readReportFile } from './reportFile';
export type { RevealTarget } from '../../protocol/webview';

export { RESULTS_VIEW_TYPE };
const FLUSH_MS = 50;

type Shown =
  | { readonly kind: 'none' }
  | { readonly kind: 'notice'; readonly text: string }
  | { readonly kind: 'report'; readonly report: Report }
  | { readonly kind: 'live'; readonly run: LiveRun };

export class ResultsPanel implements vscode.Disposable {
  private static current: ResultsPanel | undefined;

  /** The open panel, if any (without opening one). */
  static get currentPanel(): ResultsPanel | undefined {
    return ResultsPanel.current;
  }

  private readonly disposed = new vscode.EventEmitter<void>();
  /** Fires once when the panel closes (its tab was closed, or dispose was called). */
  readonly onDidDispose: vscode.Event<void> = this.disposed.event;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly cases: CaseDataSource;
  private shown: Shown = { kind: 'none' };
  private ready = false;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;

  static createOrShow(extensionUri: vscode.Uri, reveal: (target: RevealTarget) => void): ResultsPanel {
    const existing = ResultsPanel.current;
    if (existing !== undefined) {
      existing.reveal = reveal;
      existing.panel.reveal(undefined, true);
      return existing;
    }
    const dist = vscode.Uri.joinPath(extensionUri, 'dist');
    const panel = vscode.window.createWebviewPanel(
      RESULTS_VIEW_TYPE,
      'EvalLens Results',
      // The active editor group, at its full width: beside an editor, half a window cut off Scorer and Reason.
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      { ...webviewOptions(dist), retainContextWhenHidden: false, enableFindWidget: true },
    );
    ResultsPanel.current = new ResultsPanel(panel, dist, reveal);
    return ResultsPanel.current;
  }

  /**
   * Takes over a panel VS Code revived after a window reload; the caller then shows what it showed.
   * There is one results panel: if one was opened meanwhile, the revived one closes and that one is kept.
   */
  static restore(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    reveal: (target: RevealTarget) => void,
  ): ResultsPanel {
    const existing = ResultsPanel.current;
    if (existing !== undefined) {
      panel.dispose();
      return existing;
    }
    const dist = vscode.Uri.joinPath(extensionUri, 'dist');
    panel.webview.options = webviewOptions(dist);
    ResultsPanel.current = new ResultsPanel(panel, dist, reveal);
    return ResultsPanel.current;
  }

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    dist: vscode.Uri,
    private reveal: (target: RevealTarget) => void,
  ) {
    // The CLI reads the case; in Restricted Mode as an untrusted run does (no ${VAR} of the config is read).
    this.cases = new CaseDataSource(vscode.Uri.joinPath(dist, 'cli.js').fsPath, () => vscode.workspace.isTrusted);
    const webview = panel.webview;
    webview.html = panelHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.css')).toString(),
    });
    this.disposables.push(
      webview.onDidReceiveMessage((message: unknown) => this.onMessage(message)),
      // Hidden, the view is torn down; it says ready again when shown, and is sent the run again.
      panel.onDidChangeViewState(() => {
        if (!panel.visible) this.ready = false;
      }),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  showReport(report: Report): void {
    this.stopFlushing();
    this.shown = { kind: 'report', report };
    if (this.ready) this.postAll([labelOf(report.configFile), ...reportMessages(report)]);
  }

  /** Whether a report, a run or a notice is shown (not a fresh, empty panel). */
  get isShowingSomething(): boolean {
    return this.shown.kind !== 'none';
  }

  showNotice(text: string): void {
    this.stopFlushing();
    this.shown = { kind: 'notice', text };
    if (this.ready) this.post({ type: 'view/clear', notice: text });
  }

  startRun(configFile: string): void {
    this.stopFlushing();
    this.shown = { kind: 'live', run: new LiveRun(configFile) };
    this.cases.forget();
    if (this.ready) this.postAll([{ type: 'view/clear' }, labelOf(configFile)]);
  }

  pushEvent(event: RunEvent): void {
    if (this.shown.kind !== 'live') {
      // Events without startRun: a run started elsewhere; show it from its first event.
      if (event.type !== 'run/start') return;
      this.startRun(event.configFile);
    }
    if (this.shown.kind !== 'live') return;
    this.shown.run.push(event);
    this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  pushCases(configFile: string, cases: Iterable<CaseData>): void {
    this.cases.add(configFile, cases);
  }

  dispose(): void {
    if (ResultsPanel.current !== this) return;
    ResultsPanel.current = undefined;
    this.stopFlushing();
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
    this.disposed.fire();
    this.disposed.dispose();
  }

  private flush(): void {
    this.flushTimer = undefined;
    if (this.shown.kind === 'live' && this.ready) this.postAll(this.shown.run.flush());
  }

  private stopFlushing(): void {
    if (this.flushTimer !== undefined) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
  }

  private onMessage(message: unknown): void {
    if (!isWebviewToHost(message)) return;
    void this.handle(message);
  }

  private async handle(message: WebviewToHost): Promise<void> {
    switch (message.type) {
      case 'webview/ready':
        if (message.version !== PROTOCOL_VERSION) {
          void vscode.window.showErrorMessage(
            `EvalLens: the results view speaks protocol ${message.version}, the extension ${PROTOCOL_VERSION}. Reload the window.`,
          );
          return;
        }
        this.ready = true;
        this.replay();
        return;
      case 'case/reveal':
        this.reveal(message.target);
        return;
      case 'case/request': {
        // A report read from EvalBench's results carries its cases' fields in the results' details.
        const imported = this.shown.kind === 'report' ? importedCaseData(this.shown.report, message.caseId) : undefined;
        if (imported !== undefined) {
          this.post({ type: 'case/data', configFile: message.configFile, caseId: message.caseId, data: imported });
          return;
        }
        const found = await this.cases.lookup(message.configFile, message.caseId);
        this.post(
          found.ok
            ? { type: 'case/data', configFile: message.configFile, caseId: message.caseId, data: found.data }
            : {
                type: 'case/unavailable',
                configFile: message.configFile,
                caseId: message.caseId,
                reason: found.reason,
              },
        );
        return;
      }
    }
  }

  private replay(): void {
    this.stopFlushing();
    switch (this.shown.kind) {
      case 'none':
        return;
      case 'notice':
        this.post({ type: 'view/clear', notice: this.shown.text });
        return;
      case 'report':
        this.postAll([labelOf(this.shown.report.configFile), ...reportMessages(this.shown.report)]);
        return;
      case 'live':
        this.postAll([{ type: 'view/clear' }, labelOf(this.shown.run.configFile), ...this.shown.run.replay()]);
        return;
    }
  }

  private postAll(messages: readonly HostToWebview[]): void {
    for (const message of messages) this.post(message);
  }

  private post(message: HostToWebview): void {
    void this.panel.webview.postMessage(message);
  }
}

function webviewOptions(dist: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [dist] };
}

/** The config's name as the person reads it elsewhere in VS Code (workspace-relative). */
function labelOf(configFile: string): HostToWebview {
  return { type: 'config/label', configFile, label: vscode.workspace.asRelativePath(configFile) };
}
