import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureBuilt, ROOT, runCli } from '../support/cli';

/**
 * A BAT-style EvalBench config whose SQLite database file does not exist: EvalBench builds it from
 * `setup_directory` before the run, and EvalLens builds it in memory, writing nothing into the checkout.
 */
const FIXTURE = join(ROOT, 'test', 'fixtures', 'evalbench', 'datasets', 'bat_setup');
const CONFIG = 'datasets/bat_setup/example_run_config.yaml';

/** Every file and folder under `dir` with its size and modification time. */
function snapshot(dir: string): string[] {
  const entries: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      const stat = statSync(path);
      entries.push(`${relative(dir, path)} ${stat.isDirectory() ? 'dir' : `${stat.size} ${stat.mtimeMs}`}`);
      if (stat.isDirectory()) walk(path);
    }
  };
  walk(dir);
  return entries.sort();
}

interface JsonReport {
  summary: { passed: number; failed: number; errored: number; total: number };
  results: { caseId: string; scorer: string; status: string; reason: string }[];
}

describe('evallens run: EvalBench setup_directory on SQLite', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'evallens-setupdir-'));
  const checkout = join(scratch, 'checkout');
  before(() => {
    ensureBuilt();
    cpSync(FIXTURE, join(checkout, 'datasets', 'bat_setup'), { recursive: true });
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  for (const trust of [[], ['--untrusted']]) {
    it(`builds the database from the setup folder and passes golden-as-generated SQL, leaving the checkout untouched ${trust.join(' ')}`, async () => {
      const before = snapshot(checkout);
      const out = join(scratch, `report${trust.length}.json`);
      const cli = await runCli(
        ['run', CONFIG, ...trust, '--runs-dir', join(scratch, 'runs'), '--reporter', 'json', '--out', out],
        { cwd: checkout },
      );
      assert.equal(cli.code, 0, cli.stderr);
      const report = JSON.parse(readFileSync(out, 'utf8')) as JsonReport;
      assert.deepEqual(report.summary, { passed: 3, failed: 0, errored: 0, skipped: 0, total: 3 });
      assert.ok(
        report.results.every((r) => r.status === 'pass'),
        JSON.stringify(report.results),
      );
      assert.deepEqual(
        snapshot(checkout),
        before,
        'no database file (nor its db_connections folder) was created in the checkout',
      );
    });
  }

  it('validate says which database is built from where', async () => {
    const cli = await runCli(['validate', CONFIG], { cwd: checkout });
    assert.equal(cli.code, 0, cli.stderr);
    assert.match(
      cli.stderr,
      /information: the SQLite database db_blog is built for the run, in memory, from \S+\/datasets\/bat_setup\/setup\/db_blog as EvalBench builds it/,
    );
    assert.doesNotMatch(cli.stderr, /does not run EvalBench's database setup scripts|database_path\) does not exist/);
  });

  it('validate says that a server database is left to the user (setup scripts run only for SQLite)', async () => {
    const server = join(scratch, 'server');
    mkdirSync(join(server, 'setup', 'db_blog', 'postgres'), { recursive: true });
    writeFileSync(
      join(server, 'pg.yaml'),
      'db_type: postgres\nhost: 127.0.0.1\nport: 5432\nuser_name: postgres\ndatabase_name: db_blog\nmax_executions_per_minute: 10\n',
    );
    writeFileSync(
      join(server, 'prompts.json'),
      JSON.stringify([
        {
          id: 1,
          nl_prompt: 'How many users?',
          query_type: 'dql',
          database: 'db_blog',
          dialects: ['postgres'],
          golden_sql: { postgres: ['SELECT 1'] },
          eval_query: {},
          setup_sql: {},
          cleanup_sql: {},
          tags: [],
          other: {},
          generated_sql: 'SELECT 1',
        },
      ]),
    );
    writeFileSync(
      join(server, 'run.yaml'),
      'dataset_config: prompts.json\ndatabase_configs:\n - pg.yaml\nsetup_directory: setup\nscorers:\n  exact_match: null\n',
    );
    const cli = await runCli(['validate', 'run.yaml'], { cwd: server });
    assert.equal(cli.code, 0, cli.stderr);
    assert.match(
      cli.stderr,
      /information: EvalLens runs EvalBench's setup scripts \(setup_directory\) only for SQLite databases: the postgres databases of \S+pg\.yaml are yours; build them before the run/,
    );
    assert.doesNotMatch(cli.stderr, /is built for the run/);
  });

  it('a database without a setup folder is a warning at validate and an error on its cases', async () => {
    const other = join(scratch, 'other');
    cpSync(FIXTURE, join(other, 'datasets', 'bat_setup'), { recursive: true });
    rmSync(join(other, 'datasets', 'bat_setup', 'setup', 'db_blog'), { recursive: true });
    const validate = await runCli(['validate', CONFIG], { cwd: other });
    assert.match(
      validate.stderr,
      /warning: the SQLite database db_blog cannot be built: its setup folder \S+\/setup\/db_blog\/sqlite does not exist .*its cases are errors in a run/,
    );
    const out = join(scratch, 'missing.json');
    const run = await runCli(['run', CONFIG, '--runs-dir', join(scratch, 'runs'), '--reporter', 'json', '--out', out], {
      cwd: other,
    });
    assert.equal(run.code, 1);
    const report = JSON.parse(readFileSync(out, 'utf8')) as JsonReport;
    assert.equal(report.summary.errored, 3);
    assert.match(report.results[0]?.reason ?? '', /cannot be built: its setup folder/);
  });
});
