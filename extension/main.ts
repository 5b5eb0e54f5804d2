/**
 * Activation builds the extension's objects and registers them; it scans nothing and parses nothing
 * (the server checks documents as they open). Everything that lives as long as the extension goes
 * into `context.subscriptions`; the language client has its own lifetime, ended in `deactivate`.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { createLanguageClient, restartLanguageClient } from './languageClient';

export const RESTART_SERVER_COMMAND = 'evallens.restartServer';

/** `deactivate` gets no context, so the client it must stop is the one thing kept between the two calls. */
let activeClient: LanguageClient | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const output = vscode.window.createOutputChannel('EvalLens', { log: true });
  context.subscriptions.push(output);

  const client = createLanguageClient(context, output);
  activeClient = client;

  context.subscriptions.push(
    vscode.commands.registerCommand(RESTART_SERVER_COMMAND, async () => {
      output.info('Restarting the language server.');
      await runReportingFailure(restartLanguageClient(client), output, 'restart');
    }),
  );

  // Not awaited: activation stays quick, and a server that fails to start is reported, not thrown.
  void runReportingFailure(client.start(), output, 'start');
}

export async function deactivate(): Promise<void> {
  const client = activeClient;
  activeClient = undefined;
  if (client?.isRunning() === true) await client.stop();
}

async function runReportingFailure(work: Promise<void>, output: vscode.LogOutputChannel, verb: 'start' | 'restart'): Promise<void> {
  try {
    await work;
  } catch (error) {
    output.error(`The language server did not ${verb}: ${error instanceof Error ? error.message : String(error)}`);
    void vscode.window.showErrorMessage(`EvalLens: the language server did not ${verb}. See the EvalLens output for details.`);
  }
}
