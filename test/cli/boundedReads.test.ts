/**
 * A repository symlink to /dev/zero (or a FIFO) where a config names a file: `validate` and `run` say
 * which file and what was expected, exit 2 and never read it (before: 17 GB, then SIGABRT, or a hang).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureBuilt, runCli } from '../support/cli';

let work = '';

const CONFIGS: Readonly<Record<string, string>> = {
  'schema.eval.yaml': 'scorers:\n  json_schema: {schema_path: zero.json}\ncases:\n  - {id: a, output: "{}"}\n',
  'model.eval.yaml':
    'scorers:\n  llmrater: {model_config: zero.yaml}\ncases:\n  - {id: a, output: "x", expected: "x"}\n',
  'database.eval.yaml':
    'dataset_config: prompts.json\ndataset_format: evalbench-standard-format\ndatabase_configs:\n  - zero.yaml\ndialects: [sqlite]\nscorers:\n  executable_sql: null\n',
  'dataset.eval.yaml': 'dataset: zero.jsonl\nscorers:\n  exact_match: null\n',
  'fifo.eval.yaml': 'dataset: pipe.jsonl\nscorers:\n  exact_match: null\n',
};

const EXPECTED: readonly [string, RegExp][] = [
  [
    'schema.eval.yaml',
    /^schema\.eval\.yaml:2:30: error: json_schema: the schema file "zero\.json" \(.*zero\.json\) cannot be used: expected a regular file, but it is a character device/m,
  ],
  [
    'model.eval.yaml',
    /^model\.eval\.yaml:2:28: error: llmrater: .*zero\.yaml:1:1: cannot read the model config: expected a regular file, but it is a character device/m,
  ],
  [
    'database.eval.yaml',
    /^zero\.yaml:1:1: error: cannot read the database config: expected a regular file, but it is a character device/m,
  ],
  [
    'dataset.eval.yaml',
    /^dataset\.eval\.yaml:1:10: error: cannot read dataset zero\.jsonl: expected a regular file, but it is a character device/m,
  ],
  [
    'fifo.eval.yaml',
    /^fifo\.eval\.yaml:1:10: error: cannot read dataset pipe\.jsonl: expected a regular file, but it is a named pipe/m,
  ],
];

before(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-bounded-cli-'));
  for (const name of ['zero.json', 'zero.yaml', 'zero.jsonl']) symlinkSync('/dev/zero', join(work, name));
  execFileSync('mkfifo', [join(work, 'pipe.jsonl')]);
  writeFileSync(join(work, 'prompts.json'), '[]\n');
  for (const [name, text] of Object.entries(CONFIGS)) writeFileSync(join(work, name), text);
});

after(() => rmSync(work, { recursive: true, force: true }));

describe('files that are not regular files, through the built CLI', () => {
  for (const command of ['validate', 'run']) {
    for (const [config, expected] of EXPECTED) {
      it(`${command} ${config}: refused at its place, exit 2, no stack trace`, async () => {
        // Bounded: a CLI that reads /dev/zero or waits on the FIFO is killed and the test fails.
        const run = await runCli(command === 'run' ? [command, config, '--runs-dir', 'runs'] : [command, config], {
          cwd: work,
          limitMs: 30_000,
        });
        assert.equal(run.signal, null, run.stderr);
        assert.equal(run.code, 2, run.stdout + run.stderr);
        assert.match(run.stdout + run.stderr, expected);
        assert.doesNotMatch(run.stderr, /\n\s+at /);
      });
    }
  }
});

describe('run folders handed to merge, through the built CLI', () => {
  it('a run.json linked to /dev/zero is refused naming it, exit 2 (a shard folder from a CI artifact may hold anything)', async () => {
    const folder = join(work, 'shard-folder');
    mkdirSync(folder);
    symlinkSync('/dev/zero', join(folder, 'run.json'));
    const merged = await runCli(['merge', 'shard-folder', '--runs-dir', 'merged'], { cwd: work, limitMs: 30_000 });
    assert.equal(merged.signal, null, merged.stderr);
    assert.equal(merged.code, 2, merged.stdout + merged.stderr);
    assert.match(
      merged.stderr,
      /run\.json:1:1: .*it cannot be read \(expected a regular file, but it is a character device/,
    );
    assert.doesNotMatch(merged.stderr, /\n\s+at /);
  });
});
