/**
 * Activation builds the extension's objects and registers them; it scans nothing and parses nothing
 * (the server checks documents as they open; the Test Explorer finds configs when the Testing view or
 * a CodeLens first asks). Everything that lives as long as the extension goes into
 * `context.subscriptions`; the language client has its own lifetime, ended in `deactivate`.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import {
  ANNOTATED_FILES,
  CaseCodeLensProvider,
  OPEN_RESULTS_COMMAND,
  RUN_CASE_COMMAND,
  RUN_CONFIG_COMMAND,
} from './editor/caseCodeLens';
import { LastComparisons } from './baseline/lastComparisons';
import { RegressionStatus } from './baseline/regressionStatus';
import { SAVE_BASELINE_COMMAND, saveBaselineCommand } from './baseline/saveBaselineCommand';
import { CaseResultDecorations } from './editor/caseResultDecorations';
import { offerFailures, showFirstFailure, SHOW_FAILURES_COMMAND } from './editor/showFailures';
import { createLanguageClient, restartLanguageClient } from './languageClient';
import { registerResultsPanelSerializer } from './results/panelSerializer';
import { COMPARE_RUNS_COMMAND, OPEN_REPORT_FILE_COMMAND, ResultsViewBridge } from './resultsCommands';
import { readSettings, SETTINGS_SECTION, type EvalLensSettings } from './settings';
import { RunBatch } from './results/runBatch';
import { LastRunStatus } from './statusBar';
import { BatchedDiscovery } from './testing/caseDiscovery';
import { CaseIndex } from './testing/caseIndex';
import { LastResults } from './testing/lastResults';
import { LastRuns } from './testing/lastRuns';
import { EvalTestRunner } from './testing/testRunner';
import { EvalTestTree } from './testing/testTree';
import { maskedChannel, rememberHostCredentials } from './runner/maskedText';
import { createTestApi, type EvalLensTestApi } from './testApi';

export const RESTART_SERVER_COMMAND = 'evallens.restartServer';

/** `deactivate` gets no context, so the client it must stop is the one thing kept between the two calls. */
let activeClient: LanguageClient | undefined;

/** Returns the test API (extension/testApi.ts) only when VS Code runs extension tests. */
export function activate(context: vscode.ExtensionContext): EvalLensTestApi | undefined {
  const activationStarted = performance.now();
  const channel = vscode.window.createOutputChannel('EvalLens', { log: true });
  context.subscriptions.push(channel);
  // Every line the channel shows (the CLI's stderr, the server's log, the extension's own messages) is masked.
  rememberHostCredentials(process.env);
  const output = maskedChannel(channel);

  const client = createLanguageClient(context, output, () => vscode.workspace.isTrusted);
  activeClient = client;

  let settings = readSettings((key) => vscode.workspace.getConfiguration(SETTINGS_SECTION).get(key));
  const currentSettings = (): EvalLensSettings => settings;

  const cliPath = context.asAbsolutePath('dist/cli.js');
  // Cases are listed by the CLI in a child process, on first use, not here.
  const index = new CaseIndex(
    new BatchedDiscovery(cliPath, context.extensionPath, () => vscode.workspace.isTrusted).discover,
  );
  const lastResults = new LastResults();
  const lastRuns = new LastRuns();
  /** The configs of the last test run: "Show failures" starts with theirs. */
  let lastRunConfigs: readonly string[] | undefined;
  const tree = new EvalTestTree(index, output, vscode);
  const status = new LastRunStatus();
  // The last runs against their baselines: ▼/▲ lenses per case, the regressions in the status bar.
  const comparisons = new LastComparisons();
  const regressions = new RegressionStatus();
  // The configs of the latest test run: the status bar adds them up, "Open Results" offers each.
  const lastBatch = new RunBatch();
  const results = new ResultsViewBridge(context.extensionUri, index, currentSettings, output, () => lastBatch.outcomes);
  const runner = new EvalTestRunner({
    tree,
    index,
    cliPath,
    output,
    settings: currentSettings,
    observers: {
      onRunStart(configFile, cases) {
        results.onRunStart(configFile);
        status.running(vscode.workspace.asRelativePath(configFile), cases);
      },
      onEvent(configFile, event) {
        results.onEvent(event);
        status.onEvent(event);
        lastRuns.onEvent(configFile, event);
      },
      onCaseEnd: (configFile, event) => lastResults.record(configFile, event),
      onComparison(configFile, comparison, testRun) {
        comparisons.record(configFile, comparison);
        regressions.record(testRun, configFile, vscode.workspace.asRelativePath(configFile), comparison);
      },
      onRunEnd(configFile, run, reportFile, testRun, reportJson) {
        results.onRunEnd(configFile, reportFile, reportJson);
        lastBatch.record(testRun, {
          configFile,
          label: vscode.workspace.asRelativePath(configFile),
          ...(run.summary === undefined ? {} : { summary: run.summary }),
          cancelled: run.cancelled,
          ...(reportFile === undefined ? {} : { reportFile }),
          endedAt: Date.now(),
        });
        status.show(lastBatch.outcomes);
      },
    },
    // VS Code does not open the failure peek by default: offer it (not after a save, which would nag).
    afterRun: (configFiles, fromSave) => {
      lastRunConfigs = configFiles;
      if (!fromSave && settings.offerShowFailures) offerFailures(lastResults, configFiles);
    },
  });
  const lenses = new CaseCodeLensProvider(index, lastResults, tree, lastRuns, comparisons);

  context.subscriptions.push(
    tree,
    runner,
    status,
    regressions,
    results,
    // Revives the results view after a reload (the panel's code loads only when one is revived).
    registerResultsPanelSerializer(context.extensionUri, {
      reveal: (target) => void results.reveal(target),
      restored: (panel) => results.adopt(panel),
    }),
    lenses,
    new CaseResultDecorations(lastResults),
    vscode.languages.registerCodeLensProvider(ANNOTATED_FILES, lenses),
    vscode.commands.registerCommand(RESTART_SERVER_COMMAND, async () => {
      output.info('Restarting the language server.');
      await runReportingFailure(restartLanguageClient(client), output, 'restart');
    }),
    vscode.commands.registerCommand(RUN_CASE_COMMAND, (configFile: unknown, caseId: unknown) => {
      if (typeof configFile === 'string' && typeof caseId === 'string') return runner.runItems(configFile, caseId);
      return undefined;
    }),
    vscode.commands.registerCommand(RUN_CONFIG_COMMAND, (configFile: unknown) => {
      const file = typeof configFile === 'string' ? configFile : activeConfigFile();
      if (file === undefined)
        return vscode.window.showInformationMessage('EvalLens: open an *.eval.yaml config to run it.');
      return runner.runItems(file);
    }),
    vscode.commands.registerCommand(OPEN_RESULTS_COMMAND, (configFile: unknown) =>
      results.openResults(typeof configFile === 'string' ? configFile : undefined),
    ),
    vscode.commands.registerCommand(OPEN_REPORT_FILE_COMMAND, () => results.openReportFile()),
    vscode.commands.registerCommand(SAVE_BASELINE_COMMAND, (target: unknown) =>
      saveBaselineCommand(
        {
          cliPath,
          settings: currentSettings,
          output,
          lastRunConfigs: () => lastBatch.outcomes.map((o) => o.configFile),
          allConfigs: () => index.configFiles(),
          saved(configFile) {
            comparisons.record(configFile, undefined);
            regressions.forget(configFile);
          },
        },
        target,
      ),
    ),
    vscode.commands.registerCommand(COMPARE_RUNS_COMMAND, (configFile: unknown) =>
      results.compareRuns(typeof configFile === 'string' ? configFile : activeConfigFile()),
    ),
    vscode.commands.registerCommand(SHOW_FAILURES_COMMAND, (configFiles: unknown) =>
      showFirstFailure(
        lastResults,
        Array.isArray(configFiles) && configFiles.every((c) => typeof c === 'string') ? configFiles : lastRunConfigs,
      ),
    ),
    vscode.workspace.onDidChangeConfiguration((change) => {
      if (change.affectsConfiguration(SETTINGS_SECTION))
        settings = readSettings((key) => vscode.workspace.getConfiguration(SETTINGS_SECTION).get(key));
    }),
    vscode.workspace.onDidSaveTextDocument((document) => {
      if (!settings.runOnSave || document.uri.scheme !== 'file') return;
      for (const configFile of index.configsReading(document.uri.fsPath)) void runner.runOnSave(configFile);
    }),
    // Trust is read at each run; lenses and hovers hold nothing that depends on it. Say it took effect.
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      output.info('Workspace trusted: the next run includes subprocess and Python scorers, targets and LLM judges.');
      // The language server and the case lists read configs without the environment: read them again with it.
      void runReportingFailure(restartLanguageClient(client), output, 'restart');
      for (const configFile of index.configFiles()) void index.refresh(configFile);
    }),
  );

  // Not awaited: activation stays quick, and a server that fails to start is reported, not thrown.
  void runReportingFailure(client.start(), output, 'start');
  output.info(
    `Activated in ${(performance.now() - activationStarted).toFixed(1)} ms (${vscode.workspace.isTrusted ? 'trusted' : 'Restricted Mode'}).`,
  );
  return context.extensionMode === vscode.ExtensionMode.Test
    ? createTestApi(tree.controller, () => regressions.shown)
    : undefined;
}

export async function deactivate(): Promise<void> {
  const client = activeClient;
  activeClient = undefined;
  if (client?.isRunning() === true) await client.stop();
}

function activeConfigFile(): string | undefined {
  const uri = vscode.window.activeTextEditor?.document.uri;
  return uri !== undefined && uri.scheme === 'file' && /\.eval\.ya?ml$/.test(uri.fsPath) ? uri.fsPath : undefined;
}

async function runReportingFailure(
  work: Promise<void>,
  output: vscode.LogOutputChannel,
  verb: 'start' | 'restart',
): Promise<void> {
  try {
    await work;
  } catch (error) {
    output.error(`The language server did not ${verb}: ${error instanceof Error ? error.message : String(error)}`);
    void vscode.window.showErrorMessage(
      `EvalLens: the language server did not ${verb}. See the EvalLens output for details.`,
    );
  }
}
