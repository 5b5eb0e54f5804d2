/**
 * The language server's wiring: capabilities, open documents, diagnostics. Every piece of state is
 * created here, per server, and passed along; nothing lives at module level. Works over any
 * connection (stdio, IPC, or an in-memory pair in tests).
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { type Connection, type Diagnostic, type InitializeResult, TextDocuments, TextDocumentSyncKind } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { documentFile } from './convert';
import { diagnoseRunConfig, type Environment, type FileExists } from './features/diagnostics';

export interface ServerOptions {
  /** The environment `${VAR}` and `!ENV` references resolve against, read once at the process boundary. */
  readonly env: Environment;
}

export function startServer(connection: Connection, options: ServerOptions = { env: process.env }): void {
  const documents = new TextDocuments(TextDocument);

  connection.onInitialize(
    (): InitializeResult => ({
      capabilities: { textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Full } },
      serverInfo: { name: 'evallens' },
    }),
  );

  // A dataset the person has open but not yet saved counts as existing.
  const fileExists: FileExists = (path) => documents.get(pathToFileURL(path).href) !== undefined || existsSync(path);

  const publish = (document: TextDocument): void => {
    let diagnostics: Diagnostic[];
    try {
      const onDisk = document.uri.startsWith('file:');
      diagnostics = diagnoseRunConfig(document.getText(), documentFile(document.uri), options.env, onDisk ? fileExists : undefined);
    } catch (error) {
      // An engine bug must not take the server down; say which document, keep its text out of the log.
      connection.console.error(`EvalLens could not check ${document.uri}: ${error instanceof Error ? error.message : String(error)}`);
      diagnostics = [];
    }
    void connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics });
  };

  // Fires on open and on every change, with the full text (the sync kind above).
  documents.onDidChangeContent((event) => publish(event.document));
  documents.onDidClose((event) => void connection.sendDiagnostics({ uri: event.document.uri, diagnostics: [] }));

  documents.listen(connection);
  connection.listen();
}
