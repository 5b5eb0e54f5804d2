/**
 * The built language server (dist/server.js) driven over real stdio JSON-RPC, as an editor drives it:
 * the lifecycle, and diagnostics that follow edits. Every wait is bounded; every server is shut down
 * in a `finally` (test/support/lspClient.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import {
  DiagnosticSeverity,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  TextDocumentSyncKind,
} from 'vscode-languageserver/node';
import { ensureServerBuilt, withServer } from '../support/lspClient';

describe('language server over stdio', () => {
  let dir = '';

  before(() => {
    // `npm test` builds first; run on its own, this file builds what it needs.
    ensureServerBuilt();
    dir = mkdtempSync(join(tmpdir(), 'evallens-server-'));
    writeFileSync(join(dir, 'cases.jsonl'), '{"id":"a","output":"Paris","expected":"Paris"}\n');
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  const uriOf = (name: string) => pathToFileURL(join(dir, name)).href;
  const VALID = 'description: capitals\ndataset: cases.jsonl\nscorers:\n  exact_match: null\n';
  const BROKEN = 'dataset: cases.jsonl\nnum_trials: 1\nscorers: exact_match: null\n';

  it('keeps full text sync', async () => {
    await withServer(async (server) => {
      assert.deepEqual(server.init.capabilities.textDocumentSync, {
        openClose: true,
        change: TextDocumentSyncKind.Full,
      });
    });
  });

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
      await server.connection.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version: 2 },
        contentChanges: [{ text: BROKEN }],
      });
      const afterChange = await changed;
      assert.equal(afterChange.version, 2);
      assert.ok(
        afterChange.diagnostics.some((d) => d.range.start.line === 2 && d.severity === DiagnosticSeverity.Error),
      );

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
