/** What both in-host suites need: the extension activated, files opened, a run's states per case. */
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { EvalLensTestApi, RecordedRun } from '../../../extension/testApi';

export const EXTENSION_ID = 'evallens.evallens';

/**
 * Activates EvalLens and returns the API `activate` gives in test mode. The test runner waits only for
 * `*` and `workspaceContains` activations, so the suite activates it itself.
 */
export async function activateEvalLens(): Promise<EvalLensTestApi> {
  const extension = vscode.extensions.getExtension<EvalLensTestApi | undefined>(EXTENSION_ID);
  if (extension === undefined) throw new Error(`${EXTENSION_ID} is not loaded in this extension host`);
  const api = await extension.activate();
  if (api === undefined)
    throw new Error(
      `${EXTENSION_ID} activated without its test API: is the host running extension tests (ExtensionMode.Test)?`,
    );
  activated = api;
  return api;
}

/** The API a suite's first test activated; each suite runs in its own extension host. */
let activated: EvalLensTestApi | undefined;

export function evalLens(): EvalLensTestApi {
  if (activated === undefined) throw new Error('the extension did not activate (see the first test)');
  return activated;
}

/** A file of the workspace the launcher opened. */
export function workspaceFile(relative: string): string {
  return join(workspaceRoot(), relative);
}

export function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (folder === undefined) throw new Error('no workspace folder is open: the launcher opens one');
  return folder.uri.fsPath;
}

/** Opens `file` in an editor, with the cursor at the start of the 0-based `line` when given. */
export async function openAt(file: string, line?: number): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  const position = new vscode.Position(line ?? 0, 0);
  return vscode.window.showTextDocument(document, {
    preview: false,
    ...(line === undefined ? {} : { selection: new vscode.Range(position, position) }),
  });
}

/** The test id of a case (extension/testing/testIds.ts): its config's URI, `#`, its id. */
export function caseTestId(configUri: string, caseId: string): string {
  return `${configUri}#${caseId}`;
}

/** The last state each item got over these runs, in order. */
export function caseStates(runs: readonly RecordedRun[]): RecordedRun['states'] {
  return Object.assign({}, ...runs.map((run) => run.states)) as RecordedRun['states'];
}
