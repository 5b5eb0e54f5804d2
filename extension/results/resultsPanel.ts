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
 *   await streamReportFile(cliPath, path, panel.reportParts(path)); panel.reportEnded();
 *                                                   // the same, shown part by part as the CLI checks it (reportStream.ts);
 *                                                   // reportEnded() also when it failed part-way: the parts shown stay;
 *                                                   // results the CLI sent without details: the view asks for a case's,
 *                                                   // read from `path` by the CLI (resultDetailsSource.ts)
 *   panel.startRun(configFile);                     // clears the view for a live run of this config
 *   panel.pushEvent(event);                         // each RunEvent of that run, as it comes
 *   panel.pushCases(configFile, cases);             // optional: case data already in memory
 *   ResultsPanel.currentPanel;                      // the open panel, or undefined (opens nothing)
 *   panel.onDidDispose(() => …);                    // the panel's tab closed
 *   panel.showNotice(text);                         // nothing to show, and why (e.g. a restored run that is gone)
 *   ResultsPanel.restore(webviewPanel, extensionUri, reveal);  // a panel VS Code revived after a reload (panelSerializer.ts)
 *   panel.showCompare(runs, pair, cwd);             // compare mode: the runs to pick from; compares `pair` at once when both are set
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
import type { Report, ReportCase } from '../../core/report/report';
import type { ScorerResult } from '../../core/result';
import type { RunEvent } from '../../core/runner/events';
import {
  type CaseData,
  type HostToWebview,
  isWebviewToHost,
  PROTOCOL_VERSION,
  type RevealTarget,
  type WebviewToHost,
} from '../../protocol/webview';
import type { RunChoice } from '../../protocol/compareView';
import { CaseDataSource } from './caseDataSource';
import { type CompareAnswer, compareMessages, runCompare } from './compareSource';
import { importedCaseData } from './importedCaseData';
import { LiveRun } from './liveRun';
import { panelHtml } from './panelHtml';
import { RESULTS_VIEW_TYPE } from './panelSerializer';
import { reportMessages } from './reportMessages';
import { ResultDetailsSource } from './resultDetailsSource';
import { type FileStamp, ResultsAtIndex } from './resultsAt';

export { readReportFile } from './reportFile';
export { streamReportFile } from './reportStream';
export { fileStamp } from './resultsAt';
import type { ResultsAt } from './reportStream';
export type { RevealTarget } from '../../protocol/webview';

export { RESULTS_VIEW_TYPE };
const FLUSH_MS = 50;

type Shown =
  | { readonly kind: 'none' }
  | { readonly kind: 'notice'; readonly text: string }
  | {
      readonly kind: 'report';
      readonly report: Report;
      arriving?: { cases: ReportCase[]; results: ScorerResult[] };
      /** The report file its results' details are read from: they came without them. */
      readonly detailsFrom?: string;
      /** Where those results are in that file, as the stream said (read there while it is unchanged). */
      readonly resultsAt?: ResultsAtIndex;
    }
  | { readonly kind: 'live'; readonly run: LiveRun }
  | {
      readonly kind: 'compare';
      readonly runs: readonly RunChoice[];
      /** The CLI's working folder (the workspace's). */
      readonly cwd: string;
      pair?: { readonly baseline: string; readonly candidate: string };
      answer?: CompareAnswer;
      /** What was shown before, shown again when the person leaves compare mode. */
      readonly previous: Exclude<Shown, { readonly kind: 'compare' }>;
    };

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
  private readonly details: ResultDetailsSource;
  private shown: Shown = { kind: 'none' };
  private ready = false;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly cliPath: string;

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
    this.cliPath = vscode.Uri.joinPath(dist, 'cli.js').fsPath;
    // The CLI reads the case; in Restricted Mode as an untrusted run does (no ${VAR} of the config is read).
    this.cases = new CaseDataSource(this.cliPath, () => vscode.workspace.isTrusted);
    this.details = new ResultDetailsSource(this.cliPath);
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

  /**
   * Parts of a report as they come (streamReportFile): the head shows at once, each further part is
   * appended. Results without their details (`detailsApart`) have them read from `path` on request:
   * where the stream said they are while the file keeps `stamp` (taken before the stream), else by the CLI.
   */
  reportParts(
    path: string,
    stamp?: FileStamp,
  ): {
    head(report: Report, detailsApart: boolean, resultsAt?: ResultsAt): void;
    more(cases: readonly ReportCase[], results: readonly ScorerResult[], resultsAt?: ResultsAt): void;
  } {
    let shown: Shown | undefined;
    return {
      head: (report, detailsApart, resultsAt) => {
        this.stopFlushing();
        const arriving = { cases: [...report.cases], results: [...report.results] };
        const index = detailsApart && stamp !== undefined ? new ResultsAtIndex(path, stamp) : undefined;
        index?.add(report.results, resultsAt);
        this.shown = shown = {
          kind: 'report',
          report: { ...report, ...arriving },
          arriving,
          ...(detailsApart ? { detailsFrom: path } : {}),
          ...(index === undefined ? {} : { resultsAt: index }),
        };
        if (this.ready)
          this.postAll([
            labelOf(report.configFile),
            ...reportMessages(this.shown.report, undefined, false, detailsApart),
          ]);
      },
      more: (cases, results, resultsAt) => {
        if (this.shown !== shown || shown?.kind !== 'report' || shown.arriving === undefined) return;
        for (const c of cases) shown.arriving.cases.push(c);
        for (const r of results) shown.arriving.results.push(r);
        shown.resultsAt?.add(results, resultsAt);
        if (this.ready) this.post({ type: 'report/append', cases, results, complete: false });
      },
    };
  }

  /** The report arriving in parts is all there is (whole, or stopped by a problem the caller shows): the view stops waiting. */
  reportEnded(): void {
    if (this.shown.kind !== 'report' || this.shown.arriving === undefined) return;
    delete this.shown.arriving;
    if (this.ready) this.post({ type: 'report/append', cases: [], results: [], complete: true });
  }

  /**
   * Compare mode: `runs` to pick from (run folders and baseline files); with both of `pair` set, the CLI
   * compares them at once. The CLI only reads the two reports and starts nothing a workspace chose, so
   * this works in Restricted Mode too (as opening a report does).
   */
  showCompare(
    runs: readonly RunChoice[],
    pair: { readonly baseline?: string; readonly candidate?: string },
    cwd: string,
  ): void {
    this.stopFlushing();
    const previous = this.shown.kind === 'compare' ? this.shown.previous : this.shown;
    this.shown = { kind: 'compare', runs, cwd, previous };
    if (this.ready) this.post({ type: 'compare/choices', runs, ...pair });
    if (pair.baseline !== undefined && pair.candidate !== undefined) void this.compare(pair.baseline, pair.candidate);
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
      case 'compare/request':
        await this.compare(message.baseline, message.candidate);
        return;
      case 'compare/close':
        if (this.shown.kind === 'compare') {
          this.shown = this.shown.previous;
          this.replay();
          if (this.shown.kind === 'none') this.post({ type: 'view/clear' });
        }
        return;
      case 'details/request': {
        const shown = this.shown;
        const answer =
          shown.kind === 'report' && shown.detailsFrom !== undefined && shown.report.runId === message.runId
            ? await this.details.lookup(shown.detailsFrom, message.runId, message.caseId, shown.resultsAt)
            : { ok: false as const, reason: 'the report shown now is another one' };
        const { runId, caseId } = message;
        this.post(
          answer.ok
            ? { type: 'details/data', runId, caseId, results: answer.results }
            : { type: 'details/unavailable', runId, caseId, reason: answer.reason },
        );
        return;
      }
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

  /** Compares two runs with the CLI and shows the comparison (or why there is none); a newer request wins. */
  private async compare(baseline: string, candidate: string): Promise<void> {
    const shown = this.shown;
    if (shown.kind !== 'compare') return;
    const pair = { baseline, candidate };
    shown.pair = pair;
    delete shown.answer;
    if (this.ready) this.post({ type: 'compare/loading', ...pair });
    const answer = await runCompare(this.cliPath, baseline, candidate, shown.cwd);
    if (this.shown !== shown || shown.pair !== pair) return;
    shown.answer = answer;
    if (this.ready) this.postAll(compareAnswerMessages(answer));
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
        this.postAll([
          labelOf(this.shown.report.configFile),
          ...reportMessages(
            this.shown.report,
            undefined,
            this.shown.arriving === undefined,
            this.shown.detailsFrom !== undefined,
          ),
        ]);
        return;
      case 'live':
        this.postAll([{ type: 'view/clear' }, labelOf(this.shown.run.configFile), ...this.shown.run.replay()]);
        return;
      case 'compare': {
        const { runs, pair, answer } = this.shown;
        this.post({ type: 'compare/choices', runs, ...(pair ?? {}) });
        if (pair !== undefined) this.post({ type: 'compare/loading', ...pair });
        if (answer !== undefined) this.postAll(compareAnswerMessages(answer));
        return;
      }
    }
  }

  private postAll(messages: readonly HostToWebview[]): void {
    for (const message of messages) this.post(message);
  }

  private post(message: HostToWebview): void {
    void this.panel.webview.postMessage(message);
  }
}

function compareAnswerMessages(answer: CompareAnswer): HostToWebview[] {
  return answer.ok ? compareMessages(answer.head, answer.cases) : [{ type: 'compare/failed', reason: answer.reason }];
}

function webviewOptions(dist: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [dist] };
}

/** The config's name as the person reads it elsewhere in VS Code (workspace-relative). */
function labelOf(configFile: string): HostToWebview {
  return { type: 'config/label', configFile, label: vscode.workspace.asRelativePath(configFile) };
}
