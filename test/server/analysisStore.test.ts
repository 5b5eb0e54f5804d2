/**
 * The diagnostics of earlier sessions (server/analysis/analysisStore.ts): an entry is used only for the
 * same text of the same file, by the same server build, with the environment variables and files it
 * depended on unchanged, and only when it is whole; the built server shows a kept entry at once on
 * reopen and then publishes its own analysis's diagnostics when they differ.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import {
  type Diagnostic,
  DiagnosticSeverity,
  DidCloseTextDocumentNotification,
  HoverRequest,
} from 'vscode-languageserver/node';
import {
  ANALYSES_FOLDER,
  AnalysisStore,
  envDigest,
  MAX_ENTRIES,
  type StoredAnalysis,
} from '../../server/analysis/analysisStore';
import { ensureServerBuilt, within, withServer } from '../support/lspClient';

const DIAGNOSTIC: Diagnostic = {
  range: { start: { line: 1, character: 0 }, end: { line: 1, character: 7 } },
  severity: DiagnosticSeverity.Error,
  source: 'evallens',
  code: 'unknown-key',
  message: 'unknown key "scorerz"',
};

function entry(overrides: Partial<StoredAnalysis> = {}): StoredAnalysis {
  return {
    diagnostics: [DIAGNOSTIC],
    envNames: ['DATA_DIR'],
    envDigest: envDigest(['DATA_DIR'], { DATA_DIR: '/data' }),
    files: { '/data/cases.jsonl': true },
    ...overrides,
  };
}

describe('analysis store', () => {
  let home = '';
  before(() => (home = mkdtempSync(join(tmpdir(), 'evallens-analyses-'))));
  after(() => rmSync(home, { recursive: true, force: true }));

  const world = { env: { DATA_DIR: '/data' }, fileExists: (path: string) => path === '/data/cases.jsonl' };
  const fresh = (build = 'build-1') => new AnalysisStore(mkdtempSync(join(home, 'h-')), build);

  it('gives back what was kept for the same text, file and build', () => {
    const store = fresh();
    store.put('/w/a.eval.yaml', 'text', entry());
    assert.deepEqual(store.get('/w/a.eval.yaml', 'text', world), [DIAGNOSTIC]);
    // Another process of the same build reads it too.
    assert.deepEqual(new AnalysisStore(store.directory, 'build-1').get('/w/a.eval.yaml', 'text', world), [DIAGNOSTIC]);
  });

  it('ignores an entry when the text, the file or the server build differs', () => {
    const store = fresh();
    store.put('/w/a.eval.yaml', 'text', entry());
    assert.equal(store.get('/w/a.eval.yaml', 'text ', world), undefined);
    assert.equal(store.get('/w/b.eval.yaml', 'text', world), undefined);
    assert.equal(new AnalysisStore(store.directory, 'build-2').get('/w/a.eval.yaml', 'text', world), undefined);
  });

  it('ignores an entry when a variable it read or a file it asked about changed', () => {
    const store = fresh();
    store.put('/w/a.eval.yaml', 'text', entry());
    assert.equal(store.get('/w/a.eval.yaml', 'text', { ...world, env: { DATA_DIR: '/other' } }), undefined);
    assert.equal(store.get('/w/a.eval.yaml', 'text', { ...world, env: {} }), undefined);
    assert.equal(store.get('/w/a.eval.yaml', 'text', { ...world, fileExists: () => false }), undefined);
    assert.equal(store.get('/w/a.eval.yaml', 'text', { ...world, fileExists: undefined }), undefined);
    // A variable it did not read may change.
    assert.deepEqual(store.get('/w/a.eval.yaml', 'text', { ...world, env: { DATA_DIR: '/data', OTHER: 'x' } }), [
      DIAGNOSTIC,
    ]);
  });

  it('ignores a corrupt, torn or foreign entry', () => {
    const store = fresh();
    store.put('/w/a.eval.yaml', 'text', entry());
    const [name] = readdirSync(store.folder);
    const path = join(store.folder, name ?? '');
    const whole = readFileSync(path, 'utf8');
    writeFileSync(path, whole.replace('scorerz', 'scorers'));
    assert.equal(store.get('/w/a.eval.yaml', 'text', world), undefined, 'edited body');
    writeFileSync(path, whole.slice(0, whole.length / 2));
    assert.equal(store.get('/w/a.eval.yaml', 'text', world), undefined, 'torn');
    writeFileSync(path, 'not json');
    assert.equal(store.get('/w/a.eval.yaml', 'text', world), undefined, 'not JSON');
    writeFileSync(path, whole);
    assert.deepEqual(store.get('/w/a.eval.yaml', 'text', world), [DIAGNOSTIC], 'whole again');
  });

  it(`keeps at most ${MAX_ENTRIES} entries`, () => {
    const store = fresh();
    for (let i = 0; i < MAX_ENTRIES + 5; i++) store.put('/w/a.eval.yaml', `text ${i}`, entry());
    assert.equal(readdirSync(store.folder).length, MAX_ENTRIES);
  });
});

describe('language server: diagnostics of the previous session', () => {
  let dir = '';
  let home = '';
  before(() => {
    ensureServerBuilt();
    dir = mkdtempSync(join(tmpdir(), 'evallens-reopen-'));
    writeFileSync(join(dir, 'cases.jsonl'), '{"id":"a","output":"x","expected":"x"}\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const env = () => ({ ...process.env, EVALLENS_CACHE_HOME: home });
  const TEXT = 'dataset: cases.jsonl\nscorerz: {}\nscorers:\n  exact_match: {}\n  regex:\n    pattern: "(a+)+$"\n';
  const uriOf = (name: string) => pathToFileURL(join(dir, name)).href;

  /** Opens `text` in a fresh server; every publish for it until a hover (which needs the full analysis) has answered. */
  async function openInNewServer(uri: string, text: string): Promise<Diagnostic[][]> {
    let publishes: Diagnostic[][] = [];
    await withServer(
      async (server) => {
        await server.openAndWait(uri, text);
        const hover = { textDocument: { uri }, position: { line: 0, character: 0 } };
        await within(server.connection.sendRequest(HoverRequest.type, hover), 'hover');
        await within(server.connection.sendRequest(HoverRequest.type, hover), 'hover');
        publishes = server.published.filter((p) => p.uri === uri).map((p) => p.diagnostics);
      },
      {},
      env(),
    );
    return publishes;
  }

  it('shows the kept diagnostics on reopen: the same as the full analysis, published once', async () => {
    home = mkdtempSync(join(dir, 'home-'));
    const uri = uriOf('same.eval.yaml');
    const first = await openInNewServer(uri, TEXT);
    assert.equal(first.length, 1);
    assert.ok((first[0] ?? []).length >= 2, JSON.stringify(first));
    assert.equal(readdirSync(join(home, ANALYSES_FOLDER)).length, 1, 'the analysis was kept');
    const again = await openInNewServer(uri, TEXT);
    assert.deepEqual(again, first);
  });

  it('publishes the full analysis after kept diagnostics that are not its own', async () => {
    home = mkdtempSync(join(dir, 'home-'));
    const uri = uriOf('stale.eval.yaml');
    const [full] = await openInNewServer(uri, TEXT);
    // Make the kept entry say something else, whole (checksum recomputed), as a stale analysis would.
    const folder = join(home, ANALYSES_FOLDER);
    const [name] = readdirSync(folder);
    const path = join(folder, name ?? '');
    const outer = JSON.parse(readFileSync(path, 'utf8')) as { body: string };
    const body = JSON.parse(outer.body) as { stored: { diagnostics: Diagnostic[] } };
    body.stored.diagnostics = [{ ...DIAGNOSTIC, message: 'a stale diagnostic' }];
    const text = JSON.stringify(body);
    const { createHash } = await import('node:crypto');
    writeFileSync(path, JSON.stringify({ checksum: createHash('sha256').update(text).digest('hex'), body: text }));
    const publishes = await openInNewServer(uri, TEXT);
    assert.equal(publishes.length, 2, JSON.stringify(publishes));
    assert.equal(publishes[0]?.[0]?.message, 'a stale diagnostic');
    assert.deepEqual(publishes[1], full);
  });

  it('ignores the kept diagnostics when a file the config names appeared', async () => {
    home = mkdtempSync(join(dir, 'home-'));
    const uri = uriOf('files.eval.yaml');
    const text = TEXT.replace('cases.jsonl', 'later.jsonl');
    const [before] = await openInNewServer(uri, text);
    assert.ok(
      before?.some((d) => d.code === 'missing-file'),
      JSON.stringify(before),
    );
    writeFileSync(join(dir, 'later.jsonl'), '{"id":"a","output":"x","expected":"x"}\n');
    const publishes = await openInNewServer(uri, text);
    assert.equal(publishes.length, 1, JSON.stringify(publishes));
    assert.ok(!publishes[0]?.some((d) => d.code === 'missing-file'), JSON.stringify(publishes));
  });

  it('keeps the text as opened and, at close, as closed: not every edit', async () => {
    home = mkdtempSync(join(dir, 'home-'));
    const uri = uriOf('edits.eval.yaml');
    const folder = join(home, ANALYSES_FOLDER);
    await withServer(
      async (server) => {
        await server.openAndWait(uri, TEXT);
        assert.equal(readdirSync(folder).length, 1);
        for (const key of ['scorerx', 'scorery', 'scorerw'])
          await server.changeAndWait(uri, TEXT.replace('scorerz', key));
        assert.equal(readdirSync(folder).length, 1, 'edits keep nothing');
        const closed = server.nextDiagnostics(uri);
        await server.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
        await closed;
        assert.equal(readdirSync(folder).length, 2, 'the text as closed is kept');
      },
      {},
      env(),
    );
    const publishes = await openInNewServer(uri, TEXT.replace('scorerz', 'scorerw'));
    assert.equal(publishes.length, 1);
    assert.ok(
      publishes[0]?.some((d) => /"scorerw"/.test(typeof d.message === 'string' ? d.message : '')),
      JSON.stringify(publishes),
    );
  });

  it('ignores a corrupt kept entry', async () => {
    home = mkdtempSync(join(dir, 'home-'));
    const uri = uriOf('corrupt.eval.yaml');
    const [full] = await openInNewServer(uri, TEXT);
    const folder = join(home, ANALYSES_FOLDER);
    for (const name of readdirSync(folder)) writeFileSync(join(folder, name), '{"checksum":"0","body":"{}"}');
    assert.deepEqual(await openInNewServer(uri, TEXT), [full]);
  });
});
