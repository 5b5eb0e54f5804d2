/**
 * Brings the results view back after a window reload. VS Code keeps the view's state (what it saved
 * with `setState`: filters, sort, selection, and which run it showed) and, at the first sight of the
 * revived tab, hands the empty panel and that state to the serializer registered for its view type.
 * The panel then shows the run's report.json from its run folder again, or says why it cannot.
 *
 * Registered in `activate`; this module is small on purpose (vscode and the settings reader only):
 * the panel's code, with the engine it imports, loads when a panel is actually revived. The
 * extension's package.json needs the activation event `onWebviewPanel:evallens.results`, so that a
 * window reopened with the view activates the extension.
 */
import { dirname, resolve } from 'node:path';
import * as vscode from 'vscode';
import type { RevealTarget } from '../../protocol/webview';
import { readSettings, SETTINGS_SECTION } from '../settings';
import type { ResultsPanel } from './resultsPanel';

export const RESULTS_VIEW_TYPE = 'evallens.results';

export interface RestoreHooks {
  /** Opens a case where it lives (the same callback `ResultsPanel.createOrShow` takes). */
  reveal(target: RevealTarget): void;
  /** The revived panel, once it is set up, so the rest of the extension can feed it new runs. */
  restored?(panel: ResultsPanel): void;
}

export function registerResultsPanelSerializer(extensionUri: vscode.Uri, hooks: RestoreHooks): vscode.Disposable {
  return vscode.window.registerWebviewPanelSerializer(RESULTS_VIEW_TYPE, {
    deserializeWebviewPanel: (panel, state: unknown) => restorePanel(panel, state, extensionUri, hooks),
  });
}

async function restorePanel(
  webviewPanel: vscode.WebviewPanel,
  state: unknown,
  extensionUri: vscode.Uri,
  hooks: RestoreHooks,
): Promise<void> {
  const [{ ResultsPanel }, { findSavedRun, savedSourceOf }] = await Promise.all([
    import('./resultsPanel'),
    import('./savedRun'),
  ]);
  // The panel is set up (its HTML, its messages) before the report is read, so the view loads meanwhile.
  const panel = ResultsPanel.restore(webviewPanel, extensionUri, (target) => hooks.reveal(target));
  hooks.restored?.(panel);
  const source = savedSourceOf(state);
  if (source === undefined) return;
  const found = await findSavedRun(
    source,
    runsDirectoriesFor(source.configFile),
    vscode.Uri.joinPath(extensionUri, 'dist', 'cli.js').fsPath,
  );
  // Something else may have been shown in the panel while the report was read; that wins.
  if (ResultsPanel.currentPanel !== panel || panel.isShowingSomething) return;
  if (found.found) panel.showReport(found.report);
  else panel.showNotice(found.notice);
}

/** Where the run's folder can be: the runs directory as a run of this config uses it (its workspace folder's, else its own folder's), then every workspace folder's. */
function runsDirectoriesFor(configFile: string): string[] {
  const runsDirectory = readSettings((key) =>
    vscode.workspace.getConfiguration(SETTINGS_SECTION).get(key),
  ).runsDirectory;
  const own = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(configFile))?.uri.fsPath ?? dirname(configFile);
  const folders = (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => f.uri.fsPath);
  return [own, ...folders].map((folder) => resolve(folder, runsDirectory));
}
