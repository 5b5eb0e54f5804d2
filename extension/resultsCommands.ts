/**
 * The results view from the rest of the extension: "EvalLens: Open Results" (the run in progress,
 * else the last run, else the newest run folder), "EvalLens: Open Report File…" (any report.json,
 * e.g. one from CI, or a CSV file of an EvalBench results folder, which the CLI turns into a report),
 * live runs fed into the view while it is open, and the reveal callback that opens a case's dataset
 * line. The view itself is ResultsPanel (extension/results/).
 */
import { randomBytes } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as vscode from 'vscode';
import type { RunEvent } from '../protocol/runEvents';
import type { Report } from '../core/report/report';
import { fromDisplay, type RevealTarget } from '../protocol/webview';
import type { ResultsPanel } from './results/resultsPanel';
import type { ConfigOutcome } from './results/runBatch';
import { baselineFileOf, defaultPair, isFile, listRuns, runChoice } from './results/compareSource';
import { importReport } from './runner/reportImport';
import type { EvalLensSettings } from './settings';
import type { CaseIndex } from './testing/caseIndex';
import { maskedText } from './runner/maskedText';

export const OPEN_REPORT_FILE_COMMAND = 'evallens.openReportFile';
export const COMPARE_RUNS_COMMAND = 'evallens.compareRuns';
/** ResultsPanel's view type (kept here so the panel's module, with the engine it imports, loads only when used). */
const RESULTS_VIEW_TYPE = 'evallens.results';

type PanelModule = typeof import('./results/resultsPanel');
let panelModule: Promise<PanelModule> | undefined;
/** The results view's code, loaded the first time it is needed, not at activation. */
function loadPanelModule(): Promise<PanelModule> {
  panelModule ??= import('./results/resultsPanel');
  return panelModule;
}

export class ResultsViewBridge implements vscode.Disposable {
  /** The view this bridge opened, until its tab closes (the panel does not say when it is disposed). */
  private current: ResultsPanel | undefined;
  private readonly tabs: vscode.Disposable;
  /** The run in progress: its config and its events so far, so a view opened mid-run shows all of it. */
  private live: { readonly configFile: string; readonly events: RunEvent[] } | undefined;
  /** report.json of the last run that finished in this window, per config and overall. */
  private readonly lastReports = new Map<string, string>();
  private lastReport: string | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly index: CaseIndex,
    private readonly settings: () => EvalLensSettings,
    private readonly output: vscode.LogOutputChannel,
    /** The configs of the latest test run (a "Run All" over several configs has one each). */
    private readonly lastBatch: () => readonly ConfigOutcome[] = () => [],
  ) {
    this.tabs = vscode.window.tabGroups.onDidChangeTabs((change) => {
      if (
        change.closed.some(isResultsTab) &&
        !vscode.window.tabGroups.all.some((group) => group.tabs.some(isResultsTab))
      )
        this.current = undefined;
    });
  }

  dispose(): void {
    this.tabs.dispose();
  }

  /** A results view VS Code revived after a reload: new runs are shown in it, as in one this bridge opened. */
  adopt(panel: ResultsPanel): void {
    this.current = panel;
  }

  onRunStart(configFile: string): void {
    this.live = { configFile, events: [] };
    this.current?.startRun(configFile);
  }

  onEvent(event: RunEvent): void {
    this.live?.events.push(event);
    this.current?.pushEvent(event);
  }

  /** `reportJson`: the report as the run handed it over (no process needed to read it), when it did. */
  onRunEnd(configFile: string, reportFile: string | undefined, reportJson?: string): void {
    this.live = undefined;
    if (reportFile === undefined) return;
    this.lastReports.set(configFile, reportFile);
    this.lastReport = reportFile;
    // The finished run's report (same runId) replaces the live view and keeps the person's selection.
    if (this.current !== undefined) void this.showReportFile(reportFile, false, reportJson);
  }

  /**
   * "EvalLens: Open Results": the run in progress, else the config's (or any) last run. When the last
   * test run covered several configs, the person picks one of them (each with its counts): every
   * config the run covered can be opened from the status bar, not only the one that ended last.
   */
  async openResults(configFile?: string): Promise<void> {
    const live = this.live;
    if (live !== undefined && (configFile === undefined || live.configFile === configFile)) {
      const panel = await this.panel();
      panel.startRun(live.configFile);
      for (const event of live.events) panel.pushEvent(event);
      return;
    }
    if (configFile === undefined) {
      const reported = this.lastBatch().filter((o) => o.reportFile !== undefined);
      if (reported.length > 1) {
        const picked = await vscode.window.showQuickPick(
          reported.map((o) => ({
            label: o.label,
            description: o.summary === undefined ? '' : outcomeCounts(o),
            outcome: o,
          })),
          { title: `EvalLens: the last run covered ${reported.length} configs`, placeHolder: 'Open the results of…' },
        );
        if (picked?.outcome.reportFile !== undefined) await this.showReportFile(picked.outcome.reportFile, true);
        return;
      }
    }
    const report =
      (configFile === undefined ? this.lastReport : this.lastReports.get(configFile)) ?? (await this.newestReport());
    if (report === undefined) {
      void vscode.window.showInformationMessage(
        'EvalLens: no run yet. Run a config from the Test Explorer or with "Run all" above its `scorers:`.',
      );
      return;
    }
    await this.showReportFile(report, true);
  }

  /**
   * "EvalLens: Open Report File…": a report.json the person picks, or a CSV file of an EvalBench
   * results folder (configs.csv, evals.csv, scores.csv or summary.csv of a `<job_id>/` folder).
   */
  async openReportFile(): Promise<void> {
    const picked = await vscode.window.showOpenDialog({
      canSelectMany: false,
      openLabel: 'Open Report',
      filters: { 'EvalLens report or EvalBench results': ['json', 'csv'] },
      title: 'EvalLens: Open Report File (a report.json, or a CSV file of an EvalBench results folder)',
    });
    const file = picked?.[0];
    if (file === undefined) return;
    if (file.fsPath.toLowerCase().endsWith('.csv')) await this.importResults(file.fsPath);
    else await this.showReportFile(file.fsPath, true);
  }

  /**
   * "EvalLens: Compare Runs…": the results view in compare mode, the runs of the runs folder (and the
   * config's baseline file) to pick from; the config's newest run against its baseline file, else
   * against its run before, compared at once. The CLI compares (extension/results/compareSource.ts).
   */
  async compareRuns(configFile?: string): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const runs = (
      await Promise.all(
        (vscode.workspace.workspaceFolders ?? []).map((f) =>
          listRuns(resolve(f.uri.fsPath, this.settings().runsDirectory)),
        ),
      )
    ).flat();
    const config = configFile ?? this.live?.configFile;
    const baselineFile = config === undefined ? undefined : baselineFileOf(config);
    const hasBaseline = baselineFile !== undefined && (await isFile(baselineFile));
    const label = (file: string): string => vscode.workspace.asRelativePath(file);
    const choices = [
      ...(hasBaseline
        ? [{ path: baselineFile, label: `${label(baselineFile)} (baseline file)`, detail: 'committed baseline' }]
        : []),
      ...runs.map((run) => runChoice(run, label)),
    ];
    const pair = defaultPair(runs, config, hasBaseline ? baselineFile : undefined);
    (await this.panel()).showCompare(choices, pair, folder ?? tmpdir());
  }

  /** EvalBench's results, read by the CLI (never parsed here) into a report the view shows. */
  private async importResults(path: string): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const runsDir =
      folder === undefined ? join(tmpdir(), 'evallens-runs') : resolve(folder, this.settings().runsDirectory);
    const reportFile = join(tmpdir(), `evallens-report-${randomBytes(6).toString('hex')}.json`);
    const cliPath = vscode.Uri.joinPath(this.extensionUri, 'dist', 'cli.js').fsPath;
    const answer = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'EvalLens: reading EvalBench results' },
      () => importReport(cliPath, path, runsDir, reportFile, folder ?? tmpdir()),
    );
    if (!answer.ok) {
      this.output.error(`Cannot read the results: ${answer.reason}`);
      void vscode.window.showErrorMessage(maskedText(`EvalLens: ${answer.reason}`));
      return;
    }
    try {
      await this.showReportFile(answer.reportFile, true);
    } finally {
      await rm(answer.reportFile, { force: true });
    }
  }

  /** `handedOver`: the text of `path` as the run that wrote it handed it over; read by the CLI otherwise. */
  private async showReportFile(path: string, complain: boolean, handedOver?: string): Promise<void> {
    let shown: ResultsPanel | undefined;
    try {
      if (handedOver !== undefined) {
        (await this.panel()).showReport(JSON.parse(handedOver) as Report);
        return;
      }
      const { streamReportFile, fileStamp, ResultsPanel: Panel } = await loadPanelModule();
      // The panel opens with the report's checked head (summary, first rows); the rest follows part by part.
      let parts: ReturnType<ResultsPanel['reportParts']> | undefined;
      // Taken before the CLI reads the file: a row's details are read where the stream said while it is unchanged.
      const stamp = await fileStamp(path);
      await streamReportFile(vscode.Uri.joinPath(this.extensionUri, 'dist', 'cli.js').fsPath, path, {
        head: (report, detailsApart, resultsAt) => {
          shown = this.current = Panel.createOrShow(this.extensionUri, (target) => void this.reveal(target));
          parts = shown.reportParts(path, stamp);
          parts.head(report, detailsApart, resultsAt);
        },
        more: (cases, results, resultsAt) => parts?.more(cases, results, resultsAt),
      });
      shown?.reportEnded();
    } catch (e) {
      // Rows already shown stay (they were checked); the message names where the report broke.
      shown?.reportEnded();
      const message = e instanceof Error ? e.message : String(e);
      this.output.error(`Cannot show the report: ${message}`);
      if (complain) void vscode.window.showErrorMessage(maskedText(`EvalLens: ${message}`));
    }
  }

  private async panel(): Promise<ResultsPanel> {
    const { ResultsPanel } = await loadPanelModule();
    this.current = ResultsPanel.createOrShow(this.extensionUri, (target) => void this.reveal(target));
    return this.current;
  }

  /** Opens a case where it lives: the location the view knows, else the line discovery read. */
  async reveal(target: RevealTarget): Promise<void> {
    let file = target.configFile;
    let line = 0;
    let column = 0;
    if (target.location !== undefined) {
      file = target.location.file;
      ({ line, column } = fromDisplay(target.location));
    } else {
      const found = this.index.get(target.configFile)?.cases.find((c) => c.id === target.caseId);
      if (found !== undefined) {
        file = found.range.file;
        line = found.range.start.line;
        column = found.range.start.column;
      }
    }
    const position = new vscode.Position(line, column);
    try {
      // Beside the results view (which opens in the active group), so the view stays in sight.
      await vscode.window.showTextDocument(vscode.Uri.file(file), {
        selection: new vscode.Range(position, position),
        viewColumn: vscode.ViewColumn.Beside,
        preview: true,
      });
    } catch (e) {
      void vscode.window.showErrorMessage(
        maskedText(`EvalLens: cannot open ${file}: ${e instanceof Error ? e.message : String(e)}`),
      );
    }
  }

  /** The newest report.json in the workspace's runs folders (run ids start with their UTC time). */
  private async newestReport(): Promise<string | undefined> {
    let newest: { readonly id: string; readonly file: string } | undefined;
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const runsDir = resolve(folder.uri.fsPath, this.settings().runsDirectory);
      let ids: string[];
      try {
        ids = await readdir(runsDir);
      } catch {
        continue;
      }
      for (const id of ids.sort().reverse()) {
        if (newest !== undefined && id <= newest.id) break;
        const file = join(runsDir, id, 'report.json');
        if (await exists(file)) {
          newest = { id, file };
          break;
        }
      }
    }
    return newest?.file;
  }
}

function outcomeCounts(outcome: ConfigOutcome): string {
  const s = outcome.summary;
  if (s === undefined) return '';
  const parts = [`${s.passed} passed`, `${s.failed} failed`];
  if (s.errored > 0) parts.push(`${s.errored} errored`);
  if (s.skipped > 0) parts.push(`${s.skipped} skipped`);
  return `${parts.join(', ')} of ${s.total}${outcome.cancelled ? ' (stopped)' : ''}`;
}

function isResultsTab(tab: vscode.Tab): boolean {
  return tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(RESULTS_VIEW_TYPE);
}

async function exists(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
