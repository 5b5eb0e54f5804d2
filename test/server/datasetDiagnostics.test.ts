/** Diagnostics in the dataset file an open config names: each malformed line and each bad case, at line and column. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { ensureServerBuilt, messageOf, withServer } from '../support/lspClient';

describe('dataset diagnostics', () => {
  let dir = '';
  before(() => {
    ensureServerBuilt();
    dir = mkdtempSync(join(tmpdir(), 'evallens-datasets-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const uriOf = (name: string) => pathToFileURL(join(dir, name)).href;

  it('marks each malformed JSONL line and each case that breaks the case schema, in the editor text', async () => {
    const saved = '{"id":"a","output":"x"}\n';
    writeFileSync(join(dir, 'cases.jsonl'), saved);
    await withServer(async (server) => {
      await server.openAndWait(uriOf('run.eval.yaml'), 'dataset: cases.jsonl\nscorers:\n  exact_match: {}\n');
      const edited = '{"id":"a","output":"x"}\n{"id":"b", oops}\n{"id":["c"]}\n{"id":"a"}\n';
      const { diagnostics } = await server.openAndWait(uriOf('cases.jsonl'), edited, 'jsonl');
      const found = diagnostics.map((d) => `${d.range.start.line}:${d.range.start.character} ${messageOf(d)}`);
      assert.equal(found.length, 3, found.join('\n'));
      assert.match(found[0] ?? '', /^1:11 line 2 is not valid JSON/);
      assert.match(found[1] ?? '', /^2:0 field "id" must be a string or a number/);
      assert.match(found[2] ?? '', /^3:0 duplicate case id "a"; first defined at line 1/);
      const fixed = await server.changeAndWait(uriOf('cases.jsonl'), saved);
      assert.deepEqual(fixed.diagnostics, []);
    });
  });

  it('marks a YAML dataset that is not a list of cases', async () => {
    writeFileSync(join(dir, 'cases.yaml'), '');
    await withServer(async (server) => {
      await server.openAndWait(uriOf('yaml.eval.yaml'), 'dataset: cases.yaml\nscorers:\n  exact_match: {}\n');
      const { diagnostics } = await server.openAndWait(uriOf('cases.yaml'), 'just: a mapping\n', 'yaml');
      assert.equal(diagnostics.length, 1);
      assert.match(diagnostics[0] === undefined ? '' : messageOf(diagnostics[0]), /must hold a list of cases/);
    });
  });
});
