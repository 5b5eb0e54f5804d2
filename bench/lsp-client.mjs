// A small LSP client over stdio for the language-server benchmark: starts a server process, plays the
// editor's part (initialize, settings it asks for, open/change documents, requests) and times what
// comes back. Works with any server that speaks LSP; nothing here is EvalLens-specific.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const rpc = require('vscode-languageserver/node');

/** Rejects naming `what` when `promise` does not settle within `ms`. */
export async function within(promise, what, ms) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** VmRSS and VmHWM of a process, in MB, from /proc/<pid>/status. */
export function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMB: kb('VmRSS') / 1024, hwmMB: kb('VmHWM') / 1024 };
}

/** CPU time (user + system, ms) a process has used so far, from /proc/<pid>/stat (all its threads). */
export function cpuTimeOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime (fields 14 and 15 of stat; 11 and 12 after the command name), in clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Starts `node <args>` as a language server over stdio. `settings` answers the server's
 * workspace/configuration requests by section (a missing section answers null); `env` (optional)
 * replaces the process's environment.
 * `waitMs` bounds every wait.
 */
export async function startLanguageServer({ name, args, cwd, env, settings = {}, languageId, waitMs = 60_000 }) {
  const child = spawn(process.execPath, args, { cwd, stdio: 'pipe', ...(env === undefined ? {} : { env }) });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((done) => child.once('exit', (code) => done(code)));
  const connection = rpc.createMessageConnection(
    new rpc.StreamMessageReader(child.stdout),
    new rpc.StreamMessageWriter(child.stdin),
  );

  const waiters = new Map();
  const logErrors = [];
  let configurationAnswered;
  const configured = new Promise((done) => (configurationAnswered = done));
  const publishes = new Map();
  // Every publish of each document with the time it arrived, and waiters for one that satisfies a test.
  const published = new Map();
  let matchers = [];
  connection.onNotification(rpc.PublishDiagnosticsNotification.type, (params) => {
    const at = performance.now();
    publishes.set(params.uri, (publishes.get(params.uri) ?? 0) + 1);
    published.set(params.uri, [...(published.get(params.uri) ?? []), { params, at }]);
    matchers = matchers.filter((m) => m.uri !== params.uri || !m.test(params) || (m.resolve({ params, at }), false));
    const pending = waiters.get(params.uri) ?? [];
    waiters.delete(params.uri);
    for (const resolveWaiter of pending) resolveWaiter({ params, at });
  });
  connection.onNotification(rpc.LogMessageNotification.type, (params) => {
    if (params.type === rpc.MessageType.Error) logErrors.push(params.message);
  });
  connection.onRequest(rpc.ConfigurationRequest.type, (params) => {
    configurationAnswered();
    return params.items.map((item) => settings[item.section ?? ''] ?? null);
  });
  connection.onRequest(rpc.RegistrationRequest.type, () => null);
  connection.onRequest(rpc.UnregistrationRequest.type, () => null);
  connection.onRequest(rpc.WorkDoneProgressCreateRequest.type, () => null);
  connection.listen();

  const init = await within(
    connection.sendRequest(rpc.InitializeRequest.type, {
      processId: process.pid,
      rootUri: null,
      workspaceFolders: null,
      capabilities: {
        workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: false } },
        textDocument: {
          synchronization: { dynamicRegistration: false },
          completion: { completionItem: { snippetSupport: true, documentationFormat: ['markdown', 'plaintext'] } },
          hover: { contentFormat: ['markdown', 'plaintext'] },
          documentSymbol: { hierarchicalDocumentSymbolSupport: true },
          publishDiagnostics: { relatedInformation: true, versionSupport: true },
        },
      },
    }),
    `${name}: initialize`,
    waitMs,
  );
  await connection.sendNotification(rpc.InitializedNotification.type, {});
  const sync = init.capabilities.textDocumentSync;
  const syncKind = typeof sync === 'number' ? sync : (sync?.change ?? rpc.TextDocumentSyncKind.None);
  const server = {
    name,
    pid: child.pid,
    capabilities: init.capabilities,
    /** Whether the server takes ranged (incremental) changes; else every change carries the whole text. */
    incremental: syncKind === rpc.TextDocumentSyncKind.Incremental,
    get stderr() {
      return stderr;
    },
    logErrors,
    /** Every publishDiagnostics for `uri` so far, with the time each arrived. */
    publishLog: (uri) => published.get(uri) ?? [],
    /** How many publishDiagnostics for `uri` have arrived so far. */
    publishedCount: (uri) => publishes.get(uri) ?? 0,
    /** Resolves once the server has asked for its settings (await it only for a server that asks). */
    whenConfigured: () => within(configured, `${name}: a workspace/configuration request`, waitMs),
    /** The next publishDiagnostics for `uri`, with the time it arrived (register before sending what triggers it). */
    nextDiagnostics: (uri) =>
      within(
        new Promise((resolveWaiter) => waiters.set(uri, [...(waiters.get(uri) ?? []), resolveWaiter])),
        `${name}: diagnostics for ${uri} (stderr: ${stderr.slice(-500) || 'empty'})`,
        waitMs,
      ),
    /**
     * The first publishDiagnostics for `uri` (among those arrived since `since`, a count from
     * publishedCount, and those to come) whose params satisfy `test`, with the time it arrived.
     */
    diagnosticsWhere: (uri, test, since = 0) =>
      within(
        new Promise((resolveMatch) => {
          const hit = (published.get(uri) ?? []).slice(since).find((p) => test(p.params));
          if (hit !== undefined) resolveMatch(hit);
          else matchers.push({ uri, test, resolve: resolveMatch });
        }),
        `${name}: diagnostics of a given kind for ${uri} (stderr: ${stderr.slice(-500) || 'empty'})`,
        waitMs,
      ),
    open: (uri, text, version = 1) =>
      connection.sendNotification(rpc.DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId, version, text },
      }),
    change: (uri, version, contentChanges) =>
      connection.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version },
        contentChanges,
      }),
    close: (uri) => connection.sendNotification(rpc.DidCloseTextDocumentNotification.type, { textDocument: { uri } }),
    request: (method, params) => within(connection.sendRequest(method, params), `${name}: ${method}`, waitMs),
    async stop() {
      try {
        await within(connection.sendRequest(rpc.ShutdownRequest.type), `${name}: shutdown`, 5000);
        await connection.sendNotification(rpc.ExitNotification.type);
        await within(exited, `${name}: exit`, 5000);
      } catch {
        // A server that does not stop cleanly is ended below; the benchmark's figures are already taken.
      } finally {
        connection.dispose();
        if (child.exitCode === null) child.kill();
      }
    },
  };
  return server;
}

/** Whether an error response means "the server has no such method" (a feature not implemented). */
export const isMethodNotFound = (error) =>
  error instanceof rpc.ResponseError && error.code === rpc.ErrorCodes.MethodNotFound;

export const CompletionRequestMethod = 'textDocument/completion';
export const HoverRequestMethod = 'textDocument/hover';
export const DocumentSymbolRequestMethod = 'textDocument/documentSymbol';
