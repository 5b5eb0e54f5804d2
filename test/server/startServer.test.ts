/**
 * The built language server (dist/server.js) driven over real stdio JSON-RPC, as an editor drives it.
 * Every wait is bounded; every server is shut down in a `finally`.
 */
import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import {
  createMessageConnection,
  DiagnosticSeverity,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  type MessageConnection,
  type PublishDiagnosticsParams,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  TextDocumentSyncKind,
} from 'vscode-languageserver/node';

const ROOT = resolve(__dirname, '..', '..');
const SERVER = join(ROOT, 'dist', 'server.js');
const WAIT_MS = 10_000;

/** Rejects with a message naming what was awaited when `promise` does not settle within `ms`. */
async function within<T>(promise: Promise<T>, what: string, ms = WAIT_MS): Promise<T> {
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

interface ServerHandle {
  readonly connection: MessageConnection;
  /** The next publishDiagnostics for `uri` after this call (register before sending what triggers it). */
  nextDiagnostics(uri: string): Promise<PublishDiagnosticsParams>;
  open(uri: string, text: string): void;
}

async function withServer(body: (server: ServerHandle) => Promise<void>): Promise<void> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [SERVER, '--stdio'], { cwd: ROOT, stdio: 'pipe' });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));

  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const waiters = new Map<string, ((params: PublishDiagnosticsParams) => void)[]>();
  connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
    const pending = waiters.get(params.uri) ?? [];
    waiters.delete(params.uri);
    for (const resolveWaiter of pending) resolveWaiter(params);
  });
  connection.listen();

  const server: ServerHandle = {
    connection,
    nextDiagnostics: (uri) =>
      within(
        new Promise((resolveWaiter) => waiters.set(uri, [...(waiters.get(uri) ?? []), resolveWaiter])),
        `diagnostics for ${uri} (server stderr: ${stderr || 'empty'})`,
      ),
    open: (uri, text) => void connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'evallens-yaml', version: 1, text } }),
  };

  try {
    const init = await within(connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: {} }), 'initialize');
    assert.deepEqual(init.capabilities.textDocumentSync, { openClose: true, change: TextDocumentSyncKind.Full });
    await connection.sendNotification(InitializedNotification.type, {});
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

describe('language server over stdio', () => {
  let dir = '';

  before(() => {
    // `npm test` builds first; run on its own, this file builds what it needs.
    if (!existsSync(SERVER)) {
      const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'inherit' });
      assert.equal(build.status, 0, 'node esbuild.mjs failed');
    }
    dir = mkdtempSync(join(tmpdir(), 'evallens-server-'));
    writeFileSync(join(dir, 'cases.jsonl'), '{"id":"a","output":"Paris","expected":"Paris"}\n');
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  const uriOf = (name: string) => pathToFileURL(join(dir, name)).href;
  const VALID = 'description: capitals\ndataset: cases.jsonl\nscorers:\n  exact_match: null\n';
  const BROKEN = 'dataset: cases.jsonl\nnum_trials: 1\nscorers: exact_match: null\n';

  it('reports a YAML syntax error at its 0-based line', async () => {
    await withServer(async (server) => {
      const uri = uriOf('broken.eval.yaml');
      const published = server.nextDiagnostics(uri);
      server.open(uri, BROKEN);
      const { diagnostics, version } = await published;
      assert.equal(version, 1);
      const errors = diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error);
      assert.ok(errors.length > 0, `expected an error, got ${JSON.stringify(diagnostics)}`);
      for (const d of errors) {
        assert.equal(d.range.start.line, 2, `expected the error on line 2 (0-based): ${JSON.stringify(d)}`);
        assert.equal(d.source, 'evallens');
        assert.equal(typeof d.code, 'string');
      }
    });
  });

  it('publishes no diagnostics for a valid config', async () => {
    await withServer(async (server) => {
      const uri = uriOf('valid.eval.yaml');
      const published = server.nextDiagnostics(uri);
      server.open(uri, VALID);
      assert.deepEqual((await published).diagnostics, []);
    });
  });

  it('checks again on change and clears on close', async () => {
    await withServer(async (server) => {
      const uri = uriOf('edited.eval.yaml');
      const opened = server.nextDiagnostics(uri);
      server.open(uri, VALID);
      assert.deepEqual((await opened).diagnostics, []);

      const changed = server.nextDiagnostics(uri);
      await server.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: 2 }, contentChanges: [{ text: BROKEN }] });
      const afterChange = await changed;
      assert.equal(afterChange.version, 2);
      assert.ok(afterChange.diagnostics.some((d) => d.range.start.line === 2 && d.severity === DiagnosticSeverity.Error));

      const closed = server.nextDiagnostics(uri);
      await server.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
      assert.deepEqual((await closed).diagnostics, []);
    });
  });

  it('reports a dataset file that does not exist, on the dataset line', async () => {
    await withServer(async (server) => {
      const uri = uriOf('missing.eval.yaml');
      const published = server.nextDiagnostics(uri);
      server.open(uri, 'scorers:\n  exact_match: {}\ndataset: nowhere.jsonl\n');
      const { diagnostics } = await published;
      const missing = diagnostics.find((d) => d.code === 'missing-file');
      assert.ok(missing, `expected a missing-file diagnostic, got ${JSON.stringify(diagnostics)}`);
      assert.equal(missing.range.start.line, 2);
      assert.equal(missing.range.start.character, 9);
    });
  });

  it('checks an untitled document without looking at the disk', async () => {
    await withServer(async (server) => {
      const uri = 'untitled:Untitled-1';
      const published = server.nextDiagnostics(uri);
      server.open(uri, VALID);
      assert.deepEqual((await published).diagnostics, []);
    });
  });
});
