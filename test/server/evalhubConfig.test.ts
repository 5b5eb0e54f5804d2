/**
 * The language server knows `evalhub:` from the run-config schema: a wrong key in a collection entry
 * written inline gets a diagnostic on that key, and the collection's keys complete and hover.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { CompletionRequest, HoverRequest, type MarkupContent } from 'vscode-languageserver/node';
import { ensureServerBuilt, messageOf, textIn, withCursor, withServer } from '../support/lspClient';

describe('evalhub: in a run config', () => {
  let dir = '';
  before(() => {
    ensureServerBuilt();
    dir = mkdtempSync(join(tmpdir(), 'evallens-evalhub-server-'));
    writeFileSync(join(dir, 'results.json'), '{"results": {"arc_easy": {"acc,none": 0.8}}}');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const config = (entry: string) =>
    `dataset: {path: results.json, format: lm_eval_results}\nevalhub:\n  collection:\n    id: demo\n    benchmarks:\n      - id: arc_easy\n${entry}scorers:\n  evalhub_benchmark: {}\n`;

  it('a wrong key in a collection entry gets a diagnostic on that key, naming the right one', async () => {
    await withServer(async (server) => {
      const text = config('        wieght: 2\n');
      const { diagnostics } = await server.openAndWait(pathToFileURL(join(dir, 'bad.eval.yaml')).href, text);
      const found = diagnostics.find((d) => messageOf(d).includes('wieght'));
      assert.ok(found, JSON.stringify(diagnostics));
      assert.equal(textIn(text, found.range), 'wieght');
      assert.equal(found.range.start.line, 6);
      assert.match(messageOf(found), /weight/);
    });
  });

  it('a right collection entry gets no diagnostic', async () => {
    await withServer(async (server) => {
      const text = config(
        '        weight: 2\n        primary_score: {metric: acc}\n        pass_criteria: {threshold: 0.5}\n',
      );
      const { diagnostics } = await server.openAndWait(pathToFileURL(join(dir, 'good.eval.yaml')).href, text);
      assert.deepEqual(
        diagnostics.filter((d) => d.severity === 1),
        [],
      );
    });
  });

  it('completes and hovers the keys of a collection entry', async () => {
    await withServer(async (server) => {
      const { text, position } = withCursor(config('        |\n'));
      const uri = pathToFileURL(join(dir, 'complete.eval.yaml')).href;
      await server.openAndWait(uri, text);
      const completion = await server.connection.sendRequest(CompletionRequest.type, {
        textDocument: { uri },
        position,
      });
      const items = Array.isArray(completion) ? completion : (completion?.items ?? []);
      const labels = items.map((i) => i.label);
      for (const key of ['weight', 'primary_score', 'pass_criteria', 'provider_id'])
        assert.ok(labels.includes(key), labels.join(', '));
      const hoverText = config('        weight: 2\n');
      const hoverUri = pathToFileURL(join(dir, 'hover.eval.yaml')).href;
      await server.openAndWait(hoverUri, hoverText);
      const hover = await server.connection.sendRequest(HoverRequest.type, {
        textDocument: { uri: hoverUri },
        position: { line: 6, character: 10 },
      });
      assert.match((hover?.contents as MarkupContent | undefined)?.value ?? '', /weight in the job score/);
    });
  });
});
