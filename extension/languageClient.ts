/**
 * The language client: starts dist/server.js (by path: the extension never imports server code) over
 * IPC, for `evallens-yaml` documents on disk and untitled ones, EvalBench configs in plain YAML, and datasets.
 */
import type * as vscode from 'vscode';
import {
  LanguageClient,
  type LanguageClientOptions,
  type ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';

export const LANGUAGE_ID = 'evallens-yaml';

/** Where a debugger attaches to the server when the extension runs under F5 ("Attach to Language Server"). */
const SERVER_DEBUG_PORT = 6009;

/**
 * The server process's environment: in Restricted Mode it is told so (EVALLENS_UNTRUSTED=1) and reads
 * no `${VAR}` a workspace file names. Read at each start, so a restart after trust is granted reads them.
 */
function serverEnv(trusted: boolean): NodeJS.ProcessEnv {
  return trusted ? { EVALLENS_UNTRUSTED: '0' } : { EVALLENS_UNTRUSTED: '1' };
}

export function createLanguageClient(
  context: vscode.ExtensionContext,
  output: vscode.LogOutputChannel,
  trusted: () => boolean,
): LanguageClient {
  const module = context.asAbsolutePath('dist/server.js');
  const run = {
    module,
    transport: TransportKind.ipc,
    options: {
      get env() {
        return serverEnv(trusted());
      },
    },
  };
  const debug = {
    module,
    transport: TransportKind.ipc,
    options: {
      execArgv: ['--nolazy', `--inspect=${SERVER_DEBUG_PORT}`],
      get env() {
        return serverEnv(trusted());
      },
    },
  };
  const serverOptions: ServerOptions = { run, debug };
  const clientOptions: LanguageClientOptions = {
    // Plain YAML too (EvalBench run configs have plain names; the server recognizes them by content
    // and ignores other YAML), and the dataset formats a config may name (checked once a config names them).
    documentSelector: [
      { scheme: 'file', language: LANGUAGE_ID },
      { scheme: 'untitled', language: LANGUAGE_ID },
      { scheme: 'file', language: 'yaml' },
      { scheme: 'file', language: 'json' },
      { scheme: 'file', language: 'jsonl' },
      { scheme: 'file', pattern: '**/*.{jsonl,csv}' },
    ],
    outputChannel: output,
    diagnosticCollectionName: 'evallens',
  };
  return new LanguageClient('evallens', 'EvalLens Language Server', serverOptions, clientOptions);
}

/** Starts the client, or restarts it when it runs; a client whose start failed is started again. */
export async function restartLanguageClient(client: LanguageClient): Promise<void> {
  if (client.isRunning()) await client.restart();
  else await client.start();
}
