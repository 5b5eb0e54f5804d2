/**
 * Issue 13, item 8, through the built CLI: inputs that ended in "internal error", a stack trace and
 * exit 70. Each now gives a message at file:line:col saying what was expected, a documented exit
 * code, and (for the SQLite case) a run that goes on and writes its report.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureBuilt, runCli } from '../support/cli';

let work = '';
const LAUGHS = [
  'a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]',
  ...Array.from(
    { length: 8 },
    (_, n) => `a${n + 1}: &a${n + 1} [${Array.from({ length: 9 }, () => `*a${n}`).join(', ')}]`,
  ),
].join('\n');
/** A stack frame ("    at fn (/x/cli.js:1:2)", "    at node:internal/…"); the console's own "at file:line:col" for a case is not one. */
const STACK = /\n\s+at (?:.*\.[cm]?js:\d+:\d+|node:internal)|internal error/;
const judge = (model: string) =>
  `scorers:\n  llmrater: {model_config: ${model}}\ncases:\n  - {id: a, output: "x", expected: "x"}\n`;

const FILES: Readonly<Record<string, string>> = {
  'nope.yaml': 'provider: openai\nmodel: *nope\n',
  'laughs.yaml': `provider: openai\nmodel: gpt\n${LAUGHS}\n`,
  'nope.eval.yaml': judge('nope.yaml'),
  'laughs.eval.yaml': judge('laughs.yaml'),
  'alias.yaml': '*nope\n',
  'alias.eval.yaml': 'dataset: alias.yaml\nscorers:\n  exact_match: null\n',
  'deep.json': `[{"id": "a", "output": "x", "expected": ${'['.repeat(5000)}${']'.repeat(5000)}}, {"id": "b", "output": "x", "expected": "x"}]\n`,
  'deep.eval.yaml': 'dataset: deep.json\nscorers:\n  exact_match: null\n',
  'expand.eval.yaml': `dataset: data.jsonl\ndescription: "${'${BIG}'.repeat(5000)}"\nscorers:\n  exact_match: null\n`,
  'data.jsonl': '{"id": "a", "output": "x", "expected": "x"}\n',
  'db.yaml': 'db_type: sqlite\ndialect: sqlite\ndatabase_name: t\ndatabase_path: db\nextension: .sqlite\n',
  'prompts.json': JSON.stringify(
    [
      ['zero', 'SELECT zeroblob(300000000) AS b'],
      ['ok', 'SELECT 1 AS x'],
    ].map(([id, sql]) => ({
      id,
      nl_prompt: 'q',
      query_type: 'dql',
      database: 't',
      dialects: ['sqlite'],
      golden_sql: { sqlite: ['SELECT 1 AS x'] },
      eval_query: {},
      setup_sql: {},
      cleanup_sql: {},
      generated_sql: sql,
    })),
  ),
  'sql.eval.yaml':
    'dataset_config: prompts.json\ndataset_format: evalbench-standard-format\ndatabase_configs:\n  - db.yaml\ndialects: [sqlite]\nscorers:\n  executable_sql: null\n',
};

const CASES: readonly [string, number, RegExp][] = [
  [
    'nope.eval.yaml',
    2,
    /nope\.yaml:2:8: YAML: the alias \*nope names no anchor \(expected `&nope` on a value before it\)/,
  ],
  ['laughs.eval.yaml', 2, /laughs\.yaml:\d+:\d+: YAML: the aliases expand to too much data/],
  [
    'alias.eval.yaml',
    2,
    /alias\.yaml:1:1: error: dataset alias\.yaml must hold a list of cases .* but it holds only the alias \*nope, which names no anchor/,
  ],
  [
    'deep.eval.yaml',
    1,
    /line 1, column 296 cannot be read: it has arrays and objects nested more than 256 levels deep; expected at most 256\n\s+at deep\.json:1:296\nPASS b/,
  ],
  [
    'expand.eval.yaml',
    2,
    /expand\.eval\.yaml:2:14: error: expanding the `\$\{…\}` variables here makes a string of more than 1048576 characters; expected at most 1048576/,
  ],
];

before(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-no-stack-'));
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(work, name), text);
  execFileSync('mkdir', ['-p', join(work, 'db')]);
  writeFileSync(join(work, 'db', 't.sqlite'), '');
});
after(() => rmSync(work, { recursive: true, force: true }));

describe('no stack trace, no exit 70 (built CLI)', () => {
  for (const [config, code, expected] of CASES) {
    it(`run ${config}: exit ${code}, the place and what was expected`, async () => {
      const run = await runCli(['run', config, '--runs-dir', 'runs'], {
        cwd: work,
        env: { BIG: 'x'.repeat(100_000) },
        limitMs: 60_000,
      });
      assert.notEqual(run.code, 70, run.stderr);
      assert.equal(run.code, code, run.stdout + run.stderr);
      assert.match(run.stdout + run.stderr, expected);
      assert.doesNotMatch(run.stdout + run.stderr, STACK);
    });
  }

  it('SQLite zeroblob(300000000): that case fails with a reason, the next one passes, the report is written', async () => {
    const run = await runCli(['run', 'sql.eval.yaml', '--runs-dir', 'sqlruns'], { cwd: work, limitMs: 120_000 });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /FAIL zero[\s\S]*PASS ok/);
    assert.doesNotMatch(run.stdout + run.stderr, STACK);
    const folders = readdirSync(join(work, 'sqlruns'));
    assert.equal(folders.length, 1);
    assert.ok(existsSync(join(work, 'sqlruns', folders[0] ?? '', 'report.json')));
  });
});
