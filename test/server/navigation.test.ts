/** Hover, document symbols and go to definition, over stdio. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { DefinitionRequest, type DocumentSymbol, DocumentSymbolRequest, HoverRequest, type Location, type MarkupContent } from 'vscode-languageserver/node';
import { ensureServerBuilt, textIn, withCursor, withServer, type ServerHandle } from '../support/lspClient';

describe('hover, outline and navigation', () => {
  let dir = '';
  before(() => {
    ensureServerBuilt();
    dir = mkdtempSync(join(tmpdir(), 'evallens-navigation-'));
    writeFileSync(join(dir, 'cases.jsonl'), '{"id":"a","output":"x","expected":"x"}\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  let counter = 0;

  async function hoverAt(server: ServerHandle, marked: string): Promise<{ value: string; covers: string } | null> {
    const { text, position } = withCursor(marked);
    const uri = pathToFileURL(join(dir, `h${counter++}.eval.yaml`)).href;
    await server.openAndWait(uri, text);
    const hover = await server.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
    if (hover === null) return null;
    return { value: (hover.contents as MarkupContent).value, covers: hover.range === undefined ? '' : textIn(text, hover.range) };
  }

  it('hovers a scorer key with what it measures, its range, options with defaults and an example', async () => {
    await withServer(async (server) => {
      const hover = await hoverAt(server, 'dataset: cases.jsonl\nscorers:\n  reg|ex:\n    pattern: a\n');
      assert.ok(hover !== null);
      assert.equal(hover.covers, 'regex');
      assert.match(hover.value, /^\*\*regex\*\* — score 0–1 · EvalBook/);
      assert.match(hover.value, /Passes when the output text satisfies the pattern/);
      assert.match(hover.value, /- `mode` \(match \| full_match \| no_match\), default `match` — `match`: the pattern is found anywhere/);
      assert.match(hover.value, /\*\*Example\*\*\n\n```yaml\nscorers:\n  regex:\n    pattern: "\^order #\\\\d\+ confirmed"\n    flags: i\n```/);
      const listed = await hoverAt(server, 'dataset: cases.jsonl\nscorers:\n  - type: skills_traj|ectory\n');
      assert.match(listed?.value ?? '', /^\*\*skills_trajectory\*\* — score 0–100 · EvalBench/);
    });
  });

  it('hovers an option and a top-level key with its description and default', async () => {
    await withServer(async (server) => {
      const option = await hoverAt(server, 'dataset: cases.jsonl\nscorers:\n  regex:\n    pattern: a\n    match_time|out_ms: 10\n');
      assert.equal(option?.covers, 'match_timeout_ms');
      assert.match(option?.value ?? '', /^\*\*match_timeout_ms\*\* \(integer\), default `100`\n\nTime limit for matching one pattern/);
      const common = await hoverAt(server, 'dataset: cases.jsonl\nscorers:\n  regex:\n    pattern: a\n    wei|ght: 2\n');
      assert.match(common?.value ?? '', /\*\*weight\*\* \(number\), default `1`/);
      const top = await hoverAt(server, 'num_tri|als: 2\ndataset: cases.jsonl\nscorers:\n  exact_match: {}\n');
      assert.match(top?.value ?? '', /How many times each case is scored/);
    });
  });

  it('lists scorers and inline cases as document symbols', async () => {
    await withServer(async (server) => {
      const uri = pathToFileURL(join(dir, 'symbols.eval.yaml')).href;
      await server.openAndWait(uri, 'cases:\n  - id: first\n    output: x\n  - output: y\nscorers:\n  - type: regex\n    name: strict\n    pattern: a\n  - type: exact_match\n');
      const symbols = (await server.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } })) as DocumentSymbol[];
      assert.deepEqual(symbols.map((s) => s.name), ['cases', 'scorers']);
      assert.deepEqual(symbols[0]?.children?.map((s) => s.name), ['first', 'case 2']);
      assert.deepEqual(symbols[1]?.children?.map((s) => [s.name, s.detail]), [['regex', 'strict'], ['exact_match', '']]);
      assert.deepEqual(symbols[1]?.children?.[0]?.selectionRange.start, { line: 5, character: 10 });
    });
  });

  it('goes from a dataset path to the file', async () => {
    await withServer(async (server) => {
      const { text, position } = withCursor('dataset: cas|es.jsonl\nscorers:\n  exact_match: {}\n');
      const uri = pathToFileURL(join(dir, 'definition.eval.yaml')).href;
      await server.openAndWait(uri, text);
      const location = (await server.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position })) as Location | null;
      assert.equal(location?.uri, pathToFileURL(join(dir, 'cases.jsonl')).href);
      const none = await server.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position: { line: 2, character: 4 } });
      assert.equal(none, null);
    });
  });
});
