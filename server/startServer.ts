/**
 * The language server's wiring: capabilities, open documents, and the features. Every piece of state
 * is created here, per server, and passed along; nothing lives at module level. Works over any
 * connection (stdio, IPC, or an in-memory pair in tests).
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import {
  CodeActionKind,
  type Connection,
  type InitializeParams,
  type InitializeResult,
  TextDocuments,
  TextDocumentSyncKind,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { AnalysisCache } from './analysis/analysisCache';
import type { AnalysisStore } from './analysis/analysisStore';
import type { Environment, FileExists } from './analysis/configAnalysis';
import { documentFile } from './convert';
import { DiagnosticsPublisher } from './publisher';
import { registerRequests } from './requests';
import { NamedFileWatch } from './watchedFiles';
import { rememberCredentialEnvironment } from '../shared/text/secretMask';

export interface ServerOptions {
  /** The environment `${VAR}` and `!ENV` references resolve against, read once at the process boundary. */
  readonly env: Environment;
  /** Where the diagnostics of earlier sessions are kept (absent: none are kept or shown). */
  readonly analysisStore?: AnalysisStore;
}

export function startServer(connection: Connection, options: ServerOptions = { env: process.env }): void {
  const documents = new TextDocuments(TextDocument);
  // A file the person has open but not yet saved counts as existing.
  const fileExists: FileExists = (path) => documents.get(pathToFileURL(path).href) !== undefined || existsSync(path);
  // A value of a variable named like a credential is masked in every diagnostic, whether or not a config reads it.
  rememberCredentialEnvironment(options.env);
  // The files the open configs name are watched (and nothing else), so that their diagnostics follow the disk.
  let watch: NamedFileWatch | undefined;
  const cache = new AnalysisCache(options.env, fileExists, () => watch?.schedule(), options.analysisStore);
  const publisher = new DiagnosticsPublisher(connection, documents, cache);
  let watchDynamically = false;
  let relativePatterns = false;

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const watching = params.capabilities.workspace?.didChangeWatchedFiles;
    watchDynamically = watching?.dynamicRegistration === true;
    relativePatterns = watching?.relativePatternSupport === true;
    cache.prepareForFirstCheck();
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Full },
        completionProvider: { triggerCharacters: [':', '/', ' '] },
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.RefactorRewrite] },
        documentSymbolProvider: true,
        definitionProvider: true,
      },
      serverInfo: { name: 'evallens' },
    };
  });

  connection.onInitialized(() => {
    if (!watchDynamically) return;
    watch = new NamedFileWatch(connection, relativePatterns, () => cache.namedFiles());
    watch.schedule();
  });

  /** Re-checks the open configs that name any of `files` (a file changed, appeared, or was opened or closed). */
  const recheckReferencing = (files: readonly string[]): void => {
    for (const uri of cache.forgetReferencing(files)) publisher.schedule(uri);
  };

  connection.onDidChangeWatchedFiles((params) => {
    const files = params.changes.filter((c) => c.uri.startsWith('file:')).map((c) => documentFile(c.uri));
    recheckReferencing(files);
    // A dataset that changed on disk while open keeps the editor's text; nothing else to do for it.
  });

  // Fires on open and on every change, with the full text (the sync kind above).
  documents.onDidChangeContent((event) => publisher.schedule(event.document.uri));
  documents.onDidOpen((event) => {
    if (event.document.uri.startsWith('file:')) recheckReferencing([documentFile(event.document.uri)]);
  });
  documents.onDidClose((event) => {
    publisher.keep(event.document);
    cache.forget(event.document.uri);
    publisher.clear(event.document.uri);
    if (event.document.uri.startsWith('file:')) recheckReferencing([documentFile(event.document.uri)]);
  });

  registerRequests(connection, documents, cache, fileExists);
  connection.onShutdown(() => {
    // What the open configs show now is what a later session opening them will show first.
    for (const document of documents.all()) publisher.keep(document);
    publisher.dispose();
    watch?.dispose();
  });

  documents.listen(connection);
  connection.listen();
}
