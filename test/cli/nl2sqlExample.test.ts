import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from 'pg';
import { ensureBuilt, ROOT, runCli } from '../support/cli';

/**
 * The NL2SQL example (examples/nl2sql): its database built from setup/shop/sqlite/setup.sql by
 * scripts/build-example-db.mjs into a copy of examples/, then the same dataset and scorers run on
 * SQLite and on PostgreSQL (when EVALLENS_PG_URL names a server), which must agree on every score.
 */

const EXAMPLE = join('examples', 'nl2sql');
const SQLITE_CONFIG = join(EXAMPLE, 'shop.eval.yaml');
const POSTGRES_CONFIG = join(EXAMPLE, 'shop-postgres.eval.yaml');
const BUILD_SCRIPT = join(ROOT, 'scripts', 'build-example-db.mjs');
const PG_URL = process.env['EVALLENS_PG_URL'];
const PG_MISSING = 'PostgreSQL not available: run scripts/postgres.sh and set EVALLENS_PG_URL';

const WRONG_JOIN = 'early-orders';
const ERRORS = 'grace-email';
const DML = 'raise-tea-prices';
const SCORERS = ['exact_match', 'recall_match', 'set_match', 'executable_sql', 'returned_sql', 'regexp_matcher'];

interface Result {
  readonly caseId: string;
  readonly scorer: string;
  readonly trial: number;
  readonly status: string;
  readonly score?: number;
  readonly reason: string;
  readonly details?: { readonly compared?: string; readonly generated_error?: string };
}
interface Report {
  readonly summary: {
    readonly passed: number;
    readonly failed: number;
    readonly errored: number;
    readonly total: number;
  };
  readonly results: readonly Result[];
}

interface ExampleRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly report: Report;
}

let work = '';
let caseIds: string[] = [];
const runs = new Map<string, Promise<ExampleRun>>();

before(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-nl2sql-example-'));
  // A database built in the checkout must not stand in for the one this test builds.
  const builtDb = join(ROOT, EXAMPLE, 'db');
  cpSync(join(ROOT, 'examples'), join(work, 'examples'), {
    recursive: true,
    filter: (src) => src !== builtDb && !src.startsWith(builtDb + sep),
  });
  const built = buildExampleDb([]);
  assert.equal(built.status, 0, built.stdout + built.stderr);
  assert.ok(existsSync(join(work, EXAMPLE, 'db', 'shop.sqlite')), 'the script writes db/shop.sqlite into --out-dir');
  const items = JSON.parse(readFileSync(join(work, EXAMPLE, 'prompts.json'), 'utf8')) as { id: string }[];
  caseIds = items.map((item) => item.id);
});

after(() => rmSync(work, { recursive: true, force: true }));

/** Runs scripts/build-example-db.mjs with the copy's schema and db/ folder. */
function buildExampleDb(extra: readonly string[]) {
  const args = [
    BUILD_SCRIPT,
    '--out-dir',
    join(work, EXAMPLE, 'db'),
    '--schema',
    join(work, EXAMPLE, 'setup', 'shop', 'sqlite', 'setup.sql'),
    ...extra,
  ];
  return spawnSync(process.execPath, args, { cwd: work, encoding: 'utf8', timeout: 60_000 });
}

/** Runs an example config once with the console and JSON reporters; later calls share the run. */
function runExample(config: string, name: string, env: NodeJS.ProcessEnv = {}, cwd = work): Promise<ExampleRun> {
  let run = runs.get(name);
  if (run === undefined) {
    run = (async () => {
      const out = `${name}.json`;
      const cli = await runCli(['run', config, '--runs-dir', `runs-${name}`, '--reporter', 'json', '--out', out], {
        cwd,
        env,
      });
      assert.ok(existsSync(join(cwd, out)), `the ${name} run wrote no report:\n${cli.stdout}${cli.stderr}`);
      return {
        code: cli.code,
        stdout: cli.stdout,
        stderr: cli.stderr,
        report: JSON.parse(readFileSync(join(cwd, out), 'utf8')) as Report,
      };
    })();
    runs.set(name, run);
  }
  return run;
}

/** What the console and the report must say on either engine. */
function assertExampleOutcome(run: ExampleRun): void {
  const { code, stdout, stderr, report } = run;
  assert.equal(code, 1, stdout + stderr);
  assert.equal(caseIds.length, 12);
  const failLines = stdout.split('\n').filter((line) => line.startsWith('FAIL '));
  assert.deepEqual(
    failLines.map((line) => line.replace(/ \(\d+ms\)$/, '')),
    [`FAIL ${WRONG_JOIN}`, `FAIL ${ERRORS}`],
    stdout,
  );
  for (const id of caseIds.filter((c) => c !== WRONG_JOIN && c !== ERRORS))
    assert.match(stdout, new RegExp(`^PASS ${id} \\(\\d+ms\\)$`, 'm'), stdout);
  assert.doesNotMatch(stdout, /^(ERROR|SKIP) /m);
  assert.match(stdout, /^ {5}exact_match: the results differ: row 3 differs; both 5 rows$/m);
  assert.match(stdout, /^ {5}recall_match: .*recall = 2 \/ 5 generated rows = 40\b/m);
  assert.match(stdout, /^ {5}set_match: the sets of rows differ: golden 5 distinct rows, generated 5, 2 in both/m);
  assert.match(stdout, /^ {5}executable_sql: the generated query failed$/m);
  assert.match(stdout, /^10 passed, 2 failed, 12 total$/m);
  assert.match(stdout, /^FAILED$/m);
  assert.match(
    stderr,
    /information: EvalLens does not run EvalBench's prompt generator \(prompt_generator\).*\[evalbench-key-not-run\]/,
  );

  const { passed, failed, errored, total } = report.summary;
  assert.deepEqual({ passed, failed, errored, total }, { passed: 10, failed: 2, errored: 0, total: 12 });
  assert.equal(report.results.length, caseIds.length * SCORERS.length);
  for (const r of report.results) {
    const failing =
      (r.caseId === WRONG_JOIN && ['exact_match', 'recall_match', 'set_match'].includes(r.scorer)) ||
      (r.caseId === ERRORS && ['exact_match', 'recall_match', 'set_match', 'executable_sql'].includes(r.scorer));
    assert.equal(r.status, failing ? 'fail' : 'pass', `${r.caseId} ${r.scorer}: ${r.status}: ${r.reason}`);
  }
  const score = (caseId: string, scorer: string) =>
    report.results.find((r) => r.caseId === caseId && r.scorer === scorer)?.score;
  assert.equal(score(WRONG_JOIN, 'recall_match'), 40, 'two of the five joined rows are right by coincidence');
  assert.equal(score(WRONG_JOIN, 'executable_sql'), 100, 'the wrong join runs: only the result scorers catch it');
  assert.equal(score(ERRORS, 'returned_sql'), 100, 'the broken query was still returned');
  assert.match(
    report.results.find((r) => r.caseId === ERRORS && r.scorer === 'executable_sql')?.details?.generated_error ?? '',
    /emial/,
  );
  assert.equal(
    report.results.find((r) => r.caseId === DML && r.scorer === 'exact_match')?.details?.compared,
    'eval_results',
    'the UPDATE is compared through its eval query',
  );
}

/** case/scorer/trial → status and score, for comparing two runs. */
function scoresOf(report: Report): Map<string, { status: string; score: number | undefined }> {
  return new Map(
    report.results.map((r) => [`${r.caseId}/${r.scorer}/${r.trial}`, { status: r.status, score: r.score }]),
  );
}

describe('the NL2SQL example (examples/nl2sql)', () => {
  it('builds the same SQLite file again when the script runs twice', () => {
    const file = join(work, EXAMPLE, 'db', 'shop.sqlite');
    const first = readFileSync(file);
    const again = buildExampleDb([]);
    assert.equal(again.status, 0, again.stdout + again.stderr);
    assert.ok(readFileSync(file).equals(first));
  });

  it('on SQLite: passes ten cases, fails the wrong join and the query that errors, exits 1, and leaves the file as it was', async () => {
    const file = join(work, EXAMPLE, 'db', 'shop.sqlite');
    const before = readFileSync(file);
    assertExampleOutcome(await runExample(SQLITE_CONFIG, 'sqlite'));
    assert.ok(readFileSync(file).equals(before), 'nothing under test changes the database file');
  });

  it('on SQLite with nothing prepared (no db/ folder): validates without a warning and runs the same', async () => {
    // A newcomer's checkout: the run config's setup_directory builds the database in memory for the run.
    const bare = mkdtempSync(join(tmpdir(), 'evallens-nl2sql-bare-'));
    try {
      const builtDb = join(ROOT, EXAMPLE, 'db');
      cpSync(join(ROOT, EXAMPLE), join(bare, EXAMPLE), {
        recursive: true,
        filter: (src) => src !== builtDb && !src.startsWith(builtDb + sep),
      });
      const env = { EVALLENS_CACHE_HOME: join(bare, 'cache') };
      const validated = await runCli(['validate', SQLITE_CONFIG], { cwd: bare, env });
      assert.equal(validated.code, 0, validated.stdout + validated.stderr);
      assert.equal(validated.stdout, `${SQLITE_CONFIG}: valid (6 scorers)\n`);
      assert.doesNotMatch(validated.stderr, /warning|error/, validated.stderr);
      assertExampleOutcome(await runExample(SQLITE_CONFIG, 'sqlite-bare', env, bare));
      assert.equal(existsSync(join(bare, EXAMPLE, 'db')), false, 'the run writes no database file');
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it('on PostgreSQL: the same dataset gives the same score for every case × scorer as on SQLite', async (t) => {
    if (PG_URL === undefined) {
      t.skip(PG_MISSING);
      return;
    }
    const admin = new URL(PG_URL);
    const database = `evallens_nl2sql_example_${process.pid}`;
    await withClient(admin.href, async (c) => {
      await c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await c.query(`CREATE DATABASE ${database}`);
    });
    try {
      const target = new URL(admin.href);
      target.pathname = `/${database}`;
      const loaded = buildExampleDb(['--postgres', target.href]);
      assert.equal(loaded.status, 0, loaded.stdout + loaded.stderr);
      assert.match(loaded.stdout, /loaded .*setup\.sql into PostgreSQL/);
      if (admin.password !== '')
        assert.ok(
          !(loaded.stdout + loaded.stderr).includes(decodeURIComponent(admin.password)),
          'the script never prints the password',
        );

      const env = pointConfigAt(target);
      const postgres = await runExample(POSTGRES_CONFIG, 'postgres', env);
      assertExampleOutcome(postgres);
      const sqlite = await runExample(SQLITE_CONFIG, 'sqlite');
      assert.deepEqual(scoresOf(postgres.report), scoresOf(sqlite.report));

      const prices = await withClient(target.href, (c) =>
        c.query<{ price_cents: number }>('SELECT price_cents FROM products ORDER BY id'),
      );
      assert.deepEqual(
        prices.rows.map((r) => r.price_cents),
        [1200, 1000, 1800, 900, 4500, 650, 750, 3200],
        'the UPDATE under test was rolled back',
      );
    } finally {
      await withClient(admin.href, (c) => c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
    }
  });
});

/**
 * Points the copy's db_configs/postgres.yaml at the test's database on the EVALLENS_PG_URL server
 * (host, port, user, database; the password, if any, through `password_env`). Returns the
 * environment the CLI needs.
 */
function pointConfigAt(url: URL): NodeJS.ProcessEnv {
  const file = join(work, EXAMPLE, 'db_configs', 'postgres.yaml');
  let text = readFileSync(file, 'utf8');
  const set = (key: string, value: string) => {
    const pattern = new RegExp(`^${key}: .*$`, 'm');
    assert.match(text, pattern, `db_configs/postgres.yaml has ${key}`);
    text = text.replace(pattern, `${key}: ${value}`);
  };
  set('host', url.hostname || '127.0.0.1');
  set('port', url.port || '5432');
  set('user_name', decodeURIComponent(url.username) || 'postgres');
  set('database_name', decodeURIComponent(url.pathname.slice(1)));
  const env: NodeJS.ProcessEnv = {};
  if (url.password !== '') {
    text += '\npassword: !ENV ${EVALLENS_EXAMPLE_PG_PASSWORD}\n';
    env['EVALLENS_EXAMPLE_PG_PASSWORD'] = decodeURIComponent(url.password);
  }
  writeFileSync(file, text);
  // The items' database `shop` is mapped to the test's database, as the example maps it to evallens_test.
  const runConfig = join(work, POSTGRES_CONFIG);
  const mapped = readFileSync(runConfig, 'utf8').replace(
    /^(\s+shop: ).*$/m,
    `$1${decodeURIComponent(url.pathname.slice(1))}`,
  );
  assert.notEqual(mapped, readFileSync(runConfig, 'utf8'), 'shop-postgres.eval.yaml maps shop in db_name_overrides');
  writeFileSync(runConfig, mapped);
  return env;
}

async function withClient<T>(connectionString: string, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}
