/**
 * The server asks the client to watch only the files the open configs name: a change to any other file
 * is not sent (it matches no registered watcher) and, sent anyway, is not acted on; a change to a
 * named dataset re-checks the config. Through the built server over stdio.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import {
  DidCloseTextDocumentNotification,
  DocumentSymbolRequest,
  type FileSystemWatcher,
} from 'vscode-languageserver/node';
import { literalGlob, watchersFor } from '../../server/watchedFiles';
import { waitFor } from '../support/waitFor';
import { ensureServerBuilt, type ServerHandle, within, withServer } from '../support/lspClient';

const WATCHING = { workspace: { didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true } } };

/** The files the latest registration watches, as absolute paths (every pattern names one file literally; the test paths have no glob characters). */
function watchedPaths(server: ServerHandle): string[] {
  const watchers = server.registrations
    .flatMap((r) => r.registrations)
    .filter((r) => r.method === 'workspace/didChangeWatchedFiles');
  const latest = watchers.at(-1)?.registerOptions as { watchers: FileSystemWatcher[] } | undefined;
  return (latest?.watchers ?? []).map(({ globPattern }) => {
    const pattern = typeof globPattern === 'string' ? globPattern : globPattern.pattern;
    assert.doesNotMatch(pattern, /\*|\?/, 'a watcher names one file, not a wildcard');
    if (typeof globPattern === 'string') return globPattern;
    const base = typeof globPattern.baseUri === 'string' ? globPattern.baseUri : globPattern.baseUri.uri;
    return join(fileURLToPath(base), globPattern.pattern);
  });
}

describe('what the server watches', () => {
  let dir = '';
  before(() => {
    ensureServerBuilt();
    dir = mkdtempSync(join(tmpdir(), 'evallens-watch-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const uriOf = (name: string) => pathToFileURL(join(dir, name)).href;

  it('registers watchers for the files an open config names, not the whole workspace', async () => {
    await withServer(async (server) => {
      writeFileSync(join(dir, 'cases.jsonl'), '{"id":"a","output":"x"}\n');
      await server.openAndWait(uriOf('named.eval.yaml'), 'dataset: cases.jsonl\nscorers:\n  exact_match: {}\n');
      await waitFor(
        () => watchedPaths(server).includes(join(dir, 'cases.jsonl')),
        'a watcher registration naming cases.jsonl',
      );
      const watched = watchedPaths(server);
      assert.ok(!watched.includes(join(dir, 'notes.txt')));
      assert.ok(
        watched.every((file) => file.startsWith(dir)),
        JSON.stringify(watched),
      );

      // Closed, the config's files are no longer watched.
      const id = server.registrations.at(-1)?.registrations.at(-1)?.id;
      await server.connection.sendNotification(DidCloseTextDocumentNotification.type, {
        textDocument: { uri: uriOf('named.eval.yaml') },
      });
      await waitFor(() => server.unregistrations.some((u) => u.id === id), 'the watcher registration withdrawn');
    }, WATCHING);
  });

  it('watches a dataset in a folder not made yet by its absolute path, not from an ancestor folder', async () => {
    await withServer(async (server) => {
      await server.openAndWait(uriOf('later.eval.yaml'), 'dataset: data/later.jsonl\nscorers:\n  exact_match: {}\n');
      const wanted = join(dir, 'data', 'later.jsonl');
      const patterns = () =>
        server.registrations
          .flatMap((r) => r.registrations)
          .flatMap((r) => (r.registerOptions as { watchers: FileSystemWatcher[] }).watchers.map((w) => w.globPattern));
      await waitFor(() => patterns().includes(wanted), 'a watcher registration naming data/later.jsonl by its path');
    }, WATCHING);
  });

  it('does not re-check a config for a change to a file it does not name, and re-checks it when its dataset goes', async () => {
    await withServer(async (server) => {
      writeFileSync(join(dir, 'kept.jsonl'), '{"id":"a","output":"x"}\n');
      const uri = uriOf('kept.eval.yaml');
      const first = await server.openAndWait(uri, 'dataset: kept.jsonl\nscorers:\n  exact_match: {}\n');
      assert.deepEqual(first.diagnostics, []);
      const before = server.published.length;
      const publishedSince = () => server.published.slice(before).filter((p) => p.uri === uri);
      // The dataset goes without the server being told; then an unrelated file changes.
      unlinkSync(join(dir, 'kept.jsonl'));
      writeFileSync(join(dir, 'notes.txt'), 'unrelated\n');
      await server.connection.sendNotification('workspace/didChangeWatchedFiles', {
        changes: [{ uri: uriOf('notes.txt'), type: 2 }],
      });
      // A request answered after the notification: a re-check it caused would have been published first.
      await within(
        server.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } }),
        'document symbols',
      );
      assert.deepEqual(publishedSince(), [], 'a change to a file the config does not name re-checked it');

      const again = server.nextDiagnostics(uri);
      await server.connection.sendNotification('workspace/didChangeWatchedFiles', {
        changes: [{ uri: uriOf('kept.jsonl'), type: 3 }],
      });
      assert.ok((await again).diagnostics.some((d) => d.code === 'missing-file'));
    }, WATCHING);
  });
});

describe('watchersFor', () => {
  const files = [join('/w', 'a[1].jsonl'), join('/w', 'x', 'b.csv')];
  it('names each file literally, relative to its folder when that exists, else by its absolute path', () => {
    const watchers = watchersFor(files, true, (path) => path === join('/w'));
    assert.deepEqual(watchers, [
      { globPattern: { baseUri: pathToFileURL('/w').href, pattern: 'a[[]1].jsonl' } },
      { globPattern: '/w/x/b.csv' },
    ]);
  });
  it('falls back to absolute globs for a client without relative patterns', () => {
    assert.deepEqual(
      watchersFor(files, false, () => true),
      [{ globPattern: '/w/a[[]1].jsonl' }, { globPattern: '/w/x/b.csv' }],
    );
  });
  it('escapes every glob metacharacter', () => {
    assert.equal(literalGlob('a*b?c{d}[e]'), 'a[*]b[?]c[{]d[}][[]e]');
  });
});
