/**
 * Drives the built language server (dist/server.js) over real stdio JSON-RPC, as an editor does:
 * spawn, initialize, open and change documents, send requests, wait for diagnostics. Every wait is
 * bounded; the server is shut down in a `finally`. Also: fixtures with a `|` cursor marker, and
 * applying a WorkspaceEdit to a text.
 */
import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  type ClientCapabilities,
  createMessageConnection,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  type InitializeResult,
  type MessageConnection,
  type Position,
  type PublishDiagnosticsParams,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  type RegistrationParams,
  UnregistrationRequest,
  type Unregistration,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type TextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver/node';

export const ROOT = resolve(__dirname, '..', '..');
export const SERVER = join(ROOT, 'dist', 'server.js');
const WAIT_MS = 10_000;

/** Builds the bundles when dist/server.js is missing (`npm test` builds first). */
export function ensureServerBuilt(): void {
  if (existsSync(SERVER)) return;
  const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'inherit' });
  assert.equal(build.status, 0, 'node esbuild.mjs failed');
}

/** Rejects with a message naming what was awaited when `promise` does not settle within `ms`. */
export async function within<T>(promise: Promise<T>, what: string, ms = WAIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface ServerHandle {
  readonly connection: MessageConnection;
  readonly init: InitializeResult;
  /** Registrations the server asked the client for (client/registerCapability). */
  readonly registrations: RegistrationParams[];
  /** Registrations the server withdrew (client/unregisterCapability). */
  readonly unregistrations: Unregistration[];
  /** Every publishDiagnostics so far, in the order they arrived. */
  readonly published: PublishDiagnosticsParams[];
  /** The next publishDiagnostics for `uri` after this call (register before sending what triggers it). */
  nextDiagnostics(uri: string): Promise<PublishDiagnosticsParams>;
  /** Opens a document and waits for its first diagnostics. */
  openAndWait(uri: string, text: string, languageId?: string): Promise<PublishDiagnosticsParams>;
  open(uri: string, text: string, languageId?: string): void;
  /** Replaces a document's text (full sync) and waits for the diagnostics of the new version. */
  changeAndWait(uri: string, text: string): Promise<PublishDiagnosticsParams>;
  stderr(): string;
}

export async function withServer(
  body: (server: ServerHandle) => Promise<void>,
  capabilities: ClientCapabilities = {},
  /** The server process's environment (default: this process's). */
  env?: NodeJS.ProcessEnv,
): Promise<void> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [SERVER, '--stdio'], {
    cwd: ROOT,
    stdio: 'pipe',
    ...(env === undefined ? {} : { env }),
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));

  const connection = createMessageConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const waiters = new Map<string, ((params: PublishDiagnosticsParams) => void)[]>();
  const published: PublishDiagnosticsParams[] = [];
  connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
    published.push(params);
    const pending = waiters.get(params.uri) ?? [];
    waiters.delete(params.uri);
    for (const resolveWaiter of pending) resolveWaiter(params);
  });
  const registrations: RegistrationParams[] = [];
  connection.onRequest(RegistrationRequest.type, (params) => {
    registrations.push(params);
  });
  const unregistrations: Unregistration[] = [];
  connection.onRequest(UnregistrationRequest.type, (params) => {
    unregistrations.push(...params.unregisterations);
  });
  connection.listen();

  const versions = new Map<string, number>();
  const nextDiagnostics = (uri: string) =>
    within(
      new Promise<PublishDiagnosticsParams>((resolveWaiter) =>
        waiters.set(uri, [...(waiters.get(uri) ?? []), resolveWaiter]),
      ),
      `diagnostics for ${uri} (server stderr: ${stderr || 'empty'})`,
    );
  const open = (uri: string, text: string, languageId = 'evallens-yaml') => {
    versions.set(uri, 1);
    void connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId, version: 1, text },
    });
  };

  try {
    const init = await within(
      connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities }),
      'initialize',
    );
    await connection.sendNotification(InitializedNotification.type, {});
    const server: ServerHandle = {
      connection,
      init,
      registrations,
      published,
      unregistrations,
      nextDiagnostics,
      open,
      openAndWait: async (uri, text, languageId) => {
        const published = nextDiagnostics(uri);
        open(uri, text, languageId);
        return published;
      },
      changeAndWait: async (uri, text) => {
        const version = (versions.get(uri) ?? 1) + 1;
        versions.set(uri, version);
        // Diagnostics of an earlier version may still be on their way: wait for this one's.
        const waitForVersion = async (): Promise<PublishDiagnosticsParams> => {
          for (;;) {
            const published = await nextDiagnostics(uri);
            if (published.version === version) return published;
          }
        };
        const published = waitForVersion();
        await connection.sendNotification(DidChangeTextDocumentNotification.type, {
          textDocument: { uri, version },
          contentChanges: [{ text }],
        });
        return published;
      },
      stderr: () => stderr,
    };
    await body(server);
  } finally {
    try {
      await within(connection.sendRequest(ShutdownRequest.type), 'shutdown');
      await connection.sendNotification(ExitNotification.type);
      await within(exited, 'the server process to exit');
    } finally {
      connection.dispose();
      if (child.exitCode === null) child.kill();
    }
  }
}

/** A fixture with one `|` marking the cursor: the text without it, and the cursor's position. */
export function withCursor(marked: string): { text: string; position: Position; offset: number } {
  const offset = marked.indexOf('|');
  assert.ok(offset >= 0, 'the fixture has no | cursor marker');
  assert.equal(marked.indexOf('|', offset + 1), -1, 'the fixture has more than one | cursor marker');
  const text = marked.slice(0, offset) + marked.slice(offset + 1);
  return { text, position: positionAt(text, offset), offset };
}

export function positionAt(text: string, offset: number): Position {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length - 1, character: (before[before.length - 1] ?? '').length };
}

export function offsetAt(text: string, position: Position): number {
  const lines = text.split('\n');
  let offset = 0;
  for (let i = 0; i < position.line; i++) offset += (lines[i] ?? '').length + 1;
  return offset + position.character;
}

/** Applies text edits (non-overlapping, any order) to a text, as an editor applies them. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => offsetAt(text, b.range.start) - offsetAt(text, a.range.start));
  let result = text;
  for (const edit of sorted)
    result =
      result.slice(0, offsetAt(text, edit.range.start)) + edit.newText + result.slice(offsetAt(text, edit.range.end));
  return result;
}

/** Applies the edits a WorkspaceEdit makes to one document. */
export function applyWorkspaceEdit(text: string, uri: string, edit: WorkspaceEdit | undefined): string {
  const edits = edit?.changes?.[uri];
  assert.ok(edits !== undefined && edits.length > 0, `the edit changes nothing in ${uri}: ${JSON.stringify(edit)}`);
  return applyEdits(text, edits);
}

/** The text a range covers. */
export function textIn(text: string, range: { start: Position; end: Position }): string {
  return text.slice(offsetAt(text, range.start), offsetAt(text, range.end));
}

/** A snippet as the editor inserts it: each placeholder's default text, escapes undone, tab stops dropped. */
export function expandSnippet(snippet: string): string {
  return snippet
    .replace(/\$\{\d+:((?:\\.|[^}\\])*)\}/g, (_m, inner: string) => inner.replace(/\\(.)/g, '$1'))
    .replace(/\$\d+/g, '');
}

/** A diagnostic's message as text (LSP 3.18 allows markup there too). */
export function messageOf(diagnostic: { readonly message: string | { readonly value: string } }): string {
  return typeof diagnostic.message === 'string' ? diagnostic.message : diagnostic.message.value;
}
