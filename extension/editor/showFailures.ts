/**
 * "Show failures": opens the first failing case's line and its failure peek, with VS Code's default
 * settings (which do not open the peek after a run). After a run started from the Testing view, a
 * CodeLens or a command (not a save) with failing cases, a notification offers it; the command
 * `evallens.showFailures` does the same at any time.
 */
import * as vscode from 'vscode';
import type { LastResults } from '../testing/lastResults';
import { failingCases, failureNotice } from './failureNavigation';

export const SHOW_FAILURES_COMMAND = 'evallens.showFailures';
export const SHOW_FAILURES_ACTION = 'Show failures';
/** VS Code's "Peek Output": opens the peek of the test message nearest the cursor in the active editor. */
const OPEN_PEEK_COMMAND = 'testing.openOutputPeek';

/** The first failing case of `configFiles` (every config that ran, when not given), revealed with its peek. */
export async function showFirstFailure(lastResults: LastResults, configFiles?: readonly string[]): Promise<void> {
  const configs = configFiles ?? lastResults.configs();
  const first = failingCases(configs.flatMap((c) => lastResults.ofConfig(c)))[0];
  if (first === undefined) {
    void vscode.window.showInformationMessage('EvalLens: no failing case in the last runs of this window.');
    return;
  }
  const at = new vscode.Position(first.range.start.line, first.range.start.column);
  await vscode.window.showTextDocument(vscode.Uri.file(first.range.file), {
    selection: new vscode.Range(at, at),
    preview: false,
  });
  await vscode.commands.executeCommand(OPEN_PEEK_COMMAND);
}

/** After a run: offers "Show failures" when cases of `configFiles` failed. */
export function offerFailures(lastResults: LastResults, configFiles: readonly string[]): void {
  const outcomes = configFiles.flatMap((c) => lastResults.ofConfig(c));
  const notice = failureNotice(failingCases(outcomes), outcomes.length);
  if (notice === undefined) return;
  void vscode.window.showWarningMessage(notice, SHOW_FAILURES_ACTION).then((choice) => {
    if (choice === SHOW_FAILURES_ACTION) return vscode.commands.executeCommand(SHOW_FAILURES_COMMAND, configFiles);
    return undefined;
  });
}
