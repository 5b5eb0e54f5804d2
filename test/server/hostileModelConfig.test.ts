/**
 * Issue 13, item 8: a model config with an unresolved alias or an alias bomb threw out of the
 * server's analysis of every config that named it, so no diagnostic at all came back for that
 * config (its other mistakes were hidden too). Now the model config's problem is one diagnostic
 * among the others, and the server keeps answering.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { ensureServerBuilt, messageOf, withServer } from '../support/lspClient';

const LAUGHS = [
  'a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]',
  ...Array.from(
    { length: 8 },
    (_, n) => `a${n + 1}: &a${n + 1} [${Array.from({ length: 9 }, () => `*a${n}`).join(', ')}]`,
  ),
].join('\n');

describe('language server: hostile model configs', () => {
  let dir = '';
  before(() => {
    ensureServerBuilt();
    dir = mkdtempSync(join(tmpdir(), 'evallens-hostile-model-'));
    writeFileSync(join(dir, 'nope.yaml'), 'provider: openai\nmodel: *nope\n');
    writeFileSync(join(dir, 'laughs.yaml'), `provider: openai\nmodel: gpt\n${LAUGHS}\n`);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const [file, expected] of [
    ['nope.yaml', /nope\.yaml:2:8: YAML: the alias \*nope names no anchor/],
    ['laughs.yaml', /laughs\.yaml:\d+:\d+: YAML: the aliases expand to too much data/],
  ] as const) {
    it(`${file}: its problem and the config's other diagnostics are all published`, async () => {
      await withServer(async (server) => {
        const text = `scorers:\n  llmrater: {model_config: ${file}}\n  contains: {ignore_cas: true}\ncases:\n  - {id: a, output: "x", expected: "x"}\n`;
        const { diagnostics } = await server.openAndWait(pathToFileURL(join(dir, 'judge.eval.yaml')).href, text);
        const messages = diagnostics.map((d) => messageOf(d));
        assert.ok(
          messages.some((m) => expected.test(m)),
          messages.join('\n'),
        );
        assert.ok(
          messages.some((m) => /ignore_cas/.test(m)),
          `the other mistake is still reported:\n${messages.join('\n')}`,
        );
        const again = await server.openAndWait(
          pathToFileURL(join(dir, 'fine.eval.yaml')).href,
          'scorers:\n  exact_match: null\ncases:\n  - {id: a, output: "x", expected: "x"}\n',
        );
        assert.deepEqual(again.diagnostics, []);
        assert.doesNotMatch(server.stderr(), /\n\s+at /);
      });
    });
  }
});
