/**
 * "EvalLens: Save as Baseline": the config's latest finished run written as its baseline file beside
 * it (`<name>.baseline.json`), by the CLI (`evallens baseline save`, extension/runner/baselineCli.ts),
 * from the command palette, a config's item in the Test Explorer or the results view's title. Then it
 * says which file it wrote and offers to open it. Allowed in Restricted Mode, as running is: the CLI
 * only reads the runs folder and writes that one file; there, a baseline path that is a symbolic link
 * (which could point outside the workspace) is refused.
 */
import { dirname, resolve } from 'node:path';
import * as vscode from 'vscode';
import { baselineFileOf } from '../../shared/baseline/baselinePath';
import { saveBaseline } from '../runner/baselineCli';
import { maskedText } from '../runner/maskedText';
import type { EvalLensSettings } from '../settings';
import { baselineWriteRefusal, configOfArgument } from './commandTarget';

export const SAVE_BASELINE_COMMAND = 'evallens.saveBaseline';
const OPEN_ACTION = 'Open';

export interface SaveBaselineDeps {
  readonly cliPath: string;
  readonly settings: () => EvalLensSettings;
  readonly output: vscode.LogOutputChannel;
  /** The configs of the last test run: the command names none and no config is open, it saves that run's (one config) or asks. */
  readonly lastRunConfigs: () => readonly string[];
  /** Every config the Test Explorer knows, offered after the last run's. */
  readonly allConfigs: () => readonly string[];
  /** The baseline was written: the last run is now the baseline, so what it was compared with is stale. */
  readonly saved?: (configFile: string) => void;
}

/** Returns the baseline file written, or undefined when none was. */
export async function saveBaselineCommand(deps: SaveBaselineDeps, argument: unknown): Promise<string | undefined> {
  const configFile =
    configOfArgument(argument, (uri) => vscode.Uri.parse(uri).fsPath) ?? activeConfigFile() ?? (await pickConfig(deps));
  if (configFile === undefined) return undefined;
  const name = vscode.workspace.asRelativePath(configFile);
  const target = baselineFileOf(configFile);
  const refusal = await baselineWriteRefusal(
    target,
    vscode.workspace.isTrusted,
    vscode.workspace.asRelativePath(target),
  );
  if (refusal !== undefined) {
    deps.output.warn(refusal);
    void vscode.window.showErrorMessage(maskedText(`EvalLens: ${refusal}.`));
    return undefined;
  }
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(configFile));
  const cwd = folder?.uri.fsPath ?? dirname(configFile);
  const runsDir = resolve(cwd, deps.settings().runsDirectory);
  const answer = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: `EvalLens: saving the baseline of ${name}` },
    () => saveBaseline(deps.cliPath, configFile, runsDir, cwd),
  );
  if (!answer.ok) {
    deps.output.error(`Cannot save the baseline of ${name}: ${answer.reason}`);
    void vscode.window.showErrorMessage(maskedText(`EvalLens: ${answer.reason}`));
    return undefined;
  }
  const written = vscode.workspace.asRelativePath(target);
  deps.output.info(`Saved the baseline of ${name}: ${written}.`);
  deps.saved?.(configFile);
  // Not awaited: the command is done when the file is written, whether or not the person answers.
  void vscode.window
    .showInformationMessage(
      maskedText(`EvalLens: saved the last run of ${name} as its baseline, ${written}. Commit it to share it.`),
      OPEN_ACTION,
    )
    .then((choice) => (choice === OPEN_ACTION ? vscode.window.showTextDocument(vscode.Uri.file(target)) : undefined));
  return target;
}

function activeConfigFile(): string | undefined {
  const uri = vscode.window.activeTextEditor?.document.uri;
  return uri?.scheme === 'file' ? configOfArgument(uri.fsPath, (u) => u) : undefined;
}

async function pickConfig(deps: SaveBaselineDeps): Promise<string | undefined> {
  const lastRun = deps.lastRunConfigs();
  if (lastRun.length === 1) return lastRun[0];
  const configs = [...new Set([...lastRun, ...deps.allConfigs()])];
  if (configs.length === 0) {
    void vscode.window.showInformationMessage(
      'EvalLens: open an *.eval.yaml config to save its last run as a baseline.',
    );
    return undefined;
  }
  if (configs.length === 1) return configs[0];
  const picked = await vscode.window.showQuickPick(
    configs.map((file) => ({ label: vscode.workspace.asRelativePath(file), file })),
    { title: 'EvalLens: Save as Baseline', placeHolder: 'Save the last run of…' },
  );
  return picked?.file;
}
