/**
 * Opening a config whose schema_path or model config is a symlink to /dev/zero: the language server
 * answers with a diagnostic naming the file instead of reading it until the process aborts, and it
 * keeps answering. A database config and a dataset are not read from disk by the server at all (a
 * dataset is checked only as an open document's text); those cases guard that it stays so.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { ensureServerBuilt, messageOf, withServer } from '../support/lspClient';

describe('language server: files that are not regular files', () => {
  let dir = '';
  before(() => {
    ensureServerBuilt();
    dir = mkdtempSync(join(tmpdir(), 'evallens-bounded-lsp-'));
    for (const name of ['zero.json', 'zero.yaml', 'zero.jsonl']) symlinkSync('/dev/zero', join(dir, name));
    execFileSync('mkfifo', [join(dir, 'pipe.jsonl')]);
    writeFileSync(join(dir, 'prompts.json'), '[]\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const uriOf = (name: string) => pathToFileURL(join(dir, name)).href;

  const configs: readonly [string, string, RegExp | undefined][] = [
    [
      'schema.eval.yaml',
      'scorers:\n  json_schema: {schema_path: zero.json}\ncases:\n  - {id: a, output: "{}"}\n',
      /zero\.json.*expected a regular file, but it is a character device/,
    ],
    [
      'model.eval.yaml',
      'scorers:\n  llmrater: {model_config: zero.yaml}\ncases:\n  - {id: a, output: "x", expected: "x"}\n',
      /zero\.yaml.*expected a regular file, but it is a character device/,
    ],
    [
      'database.eval.yaml',
      'dataset_config: prompts.json\ndataset_format: evalbench-standard-format\ndatabase_configs:\n  - zero.yaml\ndialects: [sqlite]\nscorers:\n  executable_sql: null\n',
      undefined,
    ],
    ['dataset.eval.yaml', 'dataset: zero.jsonl\nscorers:\n  exact_match: null\n', undefined],
    ['fifo.eval.yaml', 'dataset: pipe.jsonl\nscorers:\n  exact_match: null\n', undefined],
  ];

  for (const [name, text, expected] of configs) {
    it(`${name}: ${expected === undefined ? 'diagnostics come back' : 'a diagnostic names the file'}, and the server still answers`, async () => {
      await withServer(async (server) => {
        // openAndWait is bounded: a server reading /dev/zero never publishes and the test fails.
        const { diagnostics } = await server.openAndWait(uriOf(name), text);
        const messages = diagnostics.map((d) => messageOf(d));
        if (expected !== undefined)
          assert.ok(
            messages.some((m) => expected.test(m)),
            messages.join('\n'),
          );
        const again = await server.openAndWait(
          uriOf('fine.eval.yaml'),
          'scorers:\n  exact_match: null\ncases:\n  - {id: a, output: "x", expected: "x"}\n',
        );
        assert.deepEqual(again.diagnostics, []);
      });
    });
  }
});
