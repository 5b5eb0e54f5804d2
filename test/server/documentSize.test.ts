/**
 * Documents past the size the server analyses, through the real server over stdio: one diagnostic
 * on the first line saying how large the document is and what the limit is, no analysis, and
 * completion and hover answer at once with nothing. Edits that bring a document under the limit
 * analyse it again, and back over it the analysis stops.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { CompletionRequest, HoverRequest } from 'vscode-languageserver-protocol';
import { ensureServerBuilt, messageOf, within, withServer } from '../support/lspClient';

const MiB = 1024 * 1024;

/** A run config of about `chars` characters: many inline cases (each a line). */
function bigConfig(chars: number): string {
  const lines = ['scorers:', '  exact_match: null', 'cases:'];
  let length = 0;
  for (let i = 0; length < chars; i++) {
    const line = `  - {id: case-${i}, output: "answer ${i}", expected: "answer ${i}"}`;
    lines.push(line);
    length += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

describe('language server: documents too large to analyse', () => {
  let dir = '';
  before(() => {
    ensureServerBuilt();
    dir = mkdtempSync(join(tmpdir(), 'evallens-lsp-size-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('gives a config over 4 MiB one diagnostic on line 1 and no analysis; completion and hover answer nothing; edits under and over the limit switch', async () => {
    const uri = pathToFileURL(join(dir, 'big.eval.yaml')).href;
    const text = bigConfig(5 * MiB);
    await withServer(async (server) => {
      const { diagnostics } = await server.openAndWait(uri, text);
      assert.equal(diagnostics.length, 1);
      const [only] = diagnostics;
      assert.deepEqual(only?.range, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
      assert.equal(only?.code, 'too-large-to-analyse');
      assert.equal(
        messageOf(only ?? { message: '' }),
        `This run config is too large to analyse: ${(text.length / MiB).toFixed(1)} MB, the limit is 4 MB (in characters); the editor shows no other diagnostics, completions or hovers for it`,
      );

      const position = { line: 1, character: 4 };
      assert.deepEqual(
        await within(
          server.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position }),
          'completion',
        ),
        [],
      );
      assert.equal(
        await within(server.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position }), 'hover'),
        null,
      );

      const small = await server.changeAndWait(
        uri,
        'scorers:\n  exact_matc: null\ncases:\n  - {id: a, output: "x", expected: "x"}\n',
      );
      assert.ok(
        small.diagnostics.length >= 1 && small.diagnostics.every((d) => d.code !== 'too-large-to-analyse'),
        'a small version is analysed again',
      );
      const again = await server.changeAndWait(uri, `${text}# one more line\n`);
      assert.deepEqual(
        again.diagnostics.map((d) => d.code),
        ['too-large-to-analyse'],
      );
    });
  });

  it('gives a dataset over 16 MiB that an open config names one diagnostic, not a read of every line', async () => {
    const configUri = pathToFileURL(join(dir, 'data.eval.yaml')).href;
    const datasetPath = join(dir, 'data.jsonl');
    writeFileSync(datasetPath, '{"id": "a", "output": "x", "expected": "x"}\n');
    const line = `${JSON.stringify({ output: 'x'.repeat(200), expected: 'y' })}\n`;
    const dataset = line.repeat(Math.ceil((17 * MiB) / line.length));
    await withServer(async (server) => {
      await server.openAndWait(configUri, 'dataset: data.jsonl\nscorers:\n  exact_match: null\n');
      const { diagnostics } = await server.openAndWait(pathToFileURL(datasetPath).href, dataset, 'jsonl');
      assert.deepEqual(
        diagnostics.map((d) => [d.code, d.range.start.line, messageOf(d)]),
        [
          [
            'too-large-to-analyse',
            0,
            `This dataset is too large to analyse: ${(dataset.length / MiB).toFixed(1)} MB, the limit is 16 MB (in characters); the editor shows no other diagnostics, completions or hovers for it`,
          ],
        ],
      );
    });
  });
});
