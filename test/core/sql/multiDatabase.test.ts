import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import initSqlJs from 'sql.js';
import { checkDatabaseConfigs, openPreparers } from '../../../cli/preparers';
import type { EvalCase } from '../../../core/case';
import { loadRunConfig } from '../../../core/config/loadRunConfig';
import type { RunConfig } from '../../../core/config/runConfig';
import type { ScorerResult } from '../../../core/result';
import type { CasePreparer } from '../../../core/runner/casePreparer';
import { caseRecords } from '../../../core/runner/records';
import { runEval } from '../../../core/runner/run';
import type { DatabaseConfig, DatabaseLocation } from '../../../core/sql/databaseConfig';
import { databasePreparer } from '../../../core/sql/databasePreparer';
import { openEngine } from '../../../core/sql/openEngine';

const FIXTURE = join(__dirname, '../../fixtures/evalbench/bird2db');

/** A copy of the two-database fixture with its SQLite files built from the checked-in SQL. */
async function buildCheckout(): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), 'evallens-bird2db-'));
  cpSync(FIXTURE, root, { recursive: true });
  const SQL = await initSqlJs({ locateFile: () => require.resolve('sql.js/dist/sql-wasm.wasm') });
  const folder = join(root, 'db_connections', 'bird');
  for (const name of readdirSync(folder).filter((f) => f.endsWith('.sql'))) {
    const db = new SQL.Database();
    db.exec(readFileSync(join(folder, name), 'utf8'));
    writeFileSync(join(folder, name.replace(/\.sql$/, '.sqlite')), db.export());
    db.close();
  }
  return root;
}

function load(file: string): RunConfig {
  const parsed = loadRunConfig(file, {});
  assert.deepEqual(
    parsed.problems.filter((p) => p.severity === 'error'),
    [],
  );
  assert.ok(parsed.config !== undefined);
  return parsed.config;
}

async function runWith(
  config: RunConfig,
  preparer: CasePreparer | undefined,
  trusted = true,
): Promise<Map<string, ScorerResult[]>> {
  const byCase = new Map<string, ScorerResult[]>();
  try {
    await runEval(config, caseRecords(config), {
      runId: 'multi-database',
      concurrency: 2,
      trusted,
      ...(preparer === undefined ? {} : { preparer }),
      onEvent: (event) => {
        if (event.type === 'case/end') byCase.set(event.caseId, [...event.results]);
      },
    });
  } finally {
    await preparer?.close();
  }
  return byCase;
}

const statuses = (results: ScorerResult[] | undefined) => results?.map((r) => `${r.scorer}:${r.status}`).join(' ');

describe('each case runs on the database its item names (BIRD prompts_2db)', () => {
  let root = '';
  before(async () => {
    root = await buildCheckout();
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('runs california_schools items on california_schools and card_games items on card_games; a missing database is an error on its case', async () => {
    const config = load(join(root, 'datasets', 'bird', 'example_run_config.yaml'));
    assert.deepEqual(checkDatabaseConfigs(config, {}), []);
    const opened = await openPreparers(config, {}, new AbortController().signal);
    assert.deepEqual(opened.problems, []);
    const results = await runWith(config, opened.preparer);
    assert.equal(statuses(results.get('0')), 'exact_match:pass executable_sql:pass');
    assert.equal(
      statuses(results.get('1')),
      'exact_match:fail executable_sql:pass',
      'MIN is not MAX: a real comparison on california_schools',
    );
    assert.equal(
      statuses(results.get('340')),
      'exact_match:pass executable_sql:pass',
      'cards exists only in card_games',
    );
    assert.equal(statuses(results.get('341')), 'exact_match:pass executable_sql:pass');
    const missing = results.get('900');
    assert.equal(statuses(missing), 'exact_match:error executable_sql:error');
    assert.match(
      missing?.[0]?.reason ?? '',
      new RegExp(
        `cannot open the SQLite database ${join(root, 'db_connections', 'bird', 'formula_1.sqlite').replaceAll('/', '\\/')}: no such file`,
      ),
    );
  });

  it('opens one engine per database, on first use, and closes them all', async () => {
    const config = load(join(root, 'datasets', 'bird', 'example_run_config.yaml'));
    const opened: string[] = [];
    let closed = 0;
    const sqlite: DatabaseConfig = {
      file: 'x.yaml',
      engine: 'sqlite',
      dbType: 'sqlite',
      dialect: 'sqlite',
      name: '<not-required-for-sqlite>',
      nameSuffix: '',
      folder: join(root, 'db_connections', 'bird'),
      extension: '.sqlite',
    };
    const preparer = databasePreparer([{ config: sqlite }], {
      timeoutMs: 5000,
      env: {},
      open: async (location: DatabaseLocation, env) => {
        opened.push(location.engine === 'sqlite' ? location.file : location.database);
        const engine = await openEngine(location, env);
        return {
          dialect: engine.dialect,
          run: (plan, options) => engine.run(plan, options),
          close: async () => {
            closed++;
            await engine.close();
          },
        };
      },
    });
    assert.deepEqual(opened, [], 'nothing is opened before a case needs it');
    const results = await runWith(config, preparer);
    assert.equal(results.size, 5);
    assert.deepEqual(
      opened.sort(),
      ['california_schools', 'card_games', 'formula_1'].map((name) =>
        join(root, 'db_connections', 'bird', `${name}.sqlite`),
      ),
    );
    assert.equal(closed, 2, 'the two engines that opened are closed; formula_1 never opened');
  });

  it('follows EvalBench db_name_overrides and db_name_mappings, then db_name_suffix', async () => {
    const sqlite: DatabaseConfig = {
      file: 'x.yaml',
      engine: 'sqlite',
      dbType: 'sqlite',
      dialect: 'sqlite',
      name: 'default_db',
      nameSuffix: '_v2',
      folder: '/dbs',
      extension: '.db',
    };
    const located: DatabaseLocation[] = [];
    const preparer = databasePreparer([{ config: sqlite }], {
      timeoutMs: 1000,
      env: {},
      names: { overrides: { sqlite: { shop: 'store' } }, mappings: { sqlite: 'bird_{db_id}' } },
      open: (location) => {
        located.push(location);
        return Promise.reject(new Error('not opened in this test'));
      },
    });
    const sqlCase = (database?: string): EvalCase => ({
      id: 'c',
      input: 'q',
      expected: { golden_sql: ['SELECT 1'], dialect: 'sqlite', ...(database === undefined ? {} : { database }) },
    });
    for (const database of ['shop', 'cards', undefined])
      await assert.rejects(
        preparer.prepare(sqlCase(database), new AbortController().signal),
        /not opened in this test/,
      );
    assert.deepEqual(
      located.map((l) => (l.engine === 'sqlite' ? l.file : '')),
      ['/dbs/store_v2.db', '/dbs/bird_cards_v2.db', '/dbs/default_db.db'],
    );
    await assert.rejects(
      preparer.prepare(
        { ...sqlCase('shop'), expected: { golden_sql: ['SELECT 1'], dialect: 'bigquery', database: 'shop' } },
        new AbortController().signal,
      ),
      /no database config serves the bigquery dialect of this case \(the run's database configs serve sqlite\)/,
    );
    const noGolden: EvalCase = { id: 'n', input: 'q', expected: 'free text' };
    assert.equal(
      await preparer.prepare(noGolden, new AbortController().signal),
      noGolden,
      'a case without golden SQL is left alone',
    );
  });
});

describe('a database EvalLens does not run', () => {
  it('is a warning at validate on its database_configs entry and in its own file; its cases are errors that say why, the others run', async () => {
    const root = mkdtempSync(join(tmpdir(), 'evallens-unsupported-db-'));
    try {
      writeFileSync(
        join(root, 'bigquery.yaml'),
        'db_type: bigquery\ndialect: bigquery\ndatabase_name: <not-required-for-bigquery>\ndatabase_path: <not-required-for-bigquery>\nmax_executions_per_minute: 180\nlocation: US\n',
      );
      writeFileSync(
        join(root, 'sqlite.yaml'),
        'db_type: sqlite\ndialect: sqlite\ndatabase_name: <not-required-for-sqlite>\ndatabase_path: dbs\n',
      );
      const item = (id: number, dialect: string) => ({
        id,
        nl_prompt: 'q',
        query_type: 'dql',
        database: 'shop',
        dialects: [dialect],
        golden_sql: { [dialect]: ['SELECT 1'] },
        generated_sql: 'SELECT 1',
      });
      writeFileSync(join(root, 'prompts.json'), JSON.stringify([item(1, 'bigquery'), item(2, 'sqlite')]));
      writeFileSync(
        join(root, 'run.yaml'),
        'dataset_config: prompts.json\ndatabase_configs:\n  - sqlite.yaml\n  - bigquery.yaml\nscorers:\n  executable_sql: null\n',
      );
      const SQL = await initSqlJs({ locateFile: () => require.resolve('sql.js/dist/sql-wasm.wasm') });
      const db = new SQL.Database();
      mkdirSync(join(root, 'dbs'));
      writeFileSync(join(root, 'dbs', 'shop.db'), db.export());
      db.close();
      const config = load(join(root, 'run.yaml'));
      const at = (p: { range: { file: string; start: { line: number; column: number } } }) =>
        `${p.range.file.slice(root.length + 1)}:${p.range.start.line + 1}:${p.range.start.column + 1}`;
      assert.deepEqual(
        checkDatabaseConfigs(config, {}).map((p) => `${at(p)} ${p.severity} ${p.code} ${p.message}`),
        [
          'bigquery.yaml:1:10 warning database-not-supported EvalLens does not run SQL on BigQuery (db_type bigquery): it runs SQLite, PostgreSQL (and AlloyDB) and MySQL; every case on this database is an error in a run',
          'run.yaml:4:5 warning database-not-supported EvalLens does not run SQL on BigQuery (db_type bigquery): it runs SQLite, PostgreSQL (and AlloyDB) and MySQL; the cases on this database (bigquery) are errors in a run',
        ],
      );
      const opened = await openPreparers(config, {}, new AbortController().signal);
      const results = await runWith(config, opened.preparer);
      assert.deepEqual(
        results.get('1')?.map((r) => `${r.status}: ${r.reason}`),
        [
          `error: the database config ${join(root, 'bigquery.yaml')} cannot be run here: EvalLens does not run SQL on BigQuery (db_type bigquery): it runs SQLite, PostgreSQL (and AlloyDB) and MySQL`,
        ],
      );
      assert.equal(statuses(results.get('2')), 'executable_sql:pass');
      // A file named for another extension is pointed at (EvalBench's default is .db, not .sqlite).
      cpSync(join(root, 'dbs', 'shop.db'), join(root, 'dbs', 'other.sqlite'));
      writeFileSync(join(root, 'prompts.json'), JSON.stringify([{ ...item(3, 'sqlite'), database: 'other' }]));
      const again = await runWith(config, (await openPreparers(config, {}, new AbortController().signal)).preparer);
      assert.match(
        again.get('3')?.[0]?.reason ?? '',
        /other\.db: no such file \(other\.sqlite is there: add `extension: \.sqlite` to the database config; EvalBench's default is \.db\)$/,
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('a run without trust and a server database', () => {
  let server: Server | undefined;
  let connections = 0;
  let root = '';
  before(async () => {
    server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    root = mkdtempSync(join(tmpdir(), 'evallens-untrusted-db-'));
  });
  after(async () => {
    await new Promise((resolve) => server?.close(resolve));
    rmSync(root, { recursive: true, force: true });
  });

  it('opens no socket and reads no variable the workspace names; the cases are skipped as untrusted', async () => {
    const port = (server?.address() as { port: number }).port;
    writeFileSync(
      join(root, 'pg.yaml'),
      `db_type: postgres\ndialect: postgres\ndatabase_name: shop\nhost: 127.0.0.1\nport: ${port}\nuser_name: evaluator\npassword: !ENV \${WORKSPACE_DB_PASSWORD}\n`,
    );
    writeFileSync(
      join(root, 'prompts.json'),
      JSON.stringify([
        {
          id: 1,
          nl_prompt: 'q',
          query_type: 'DQL',
          database: 'shop',
          dialects: ['postgres'],
          golden_sql: { postgres: ['SELECT 1'] },
          generated_sql: 'SELECT 1',
        },
      ]),
    );
    writeFileSync(
      join(root, 'run.yaml'),
      'dataset_config: prompts.json\ndatabase_configs:\n  - pg.yaml\nscorers:\n  exact_match: null\n',
    );
    const config = load(join(root, 'run.yaml'));
    const read: string[] = [];
    const env = new Proxy({} as Record<string, string | undefined>, {
      get: (_target, key) => {
        read.push(String(key));
        return key === 'WORKSPACE_DB_PASSWORD' ? 'pa55-secret' : undefined;
      },
    });
    const opened = await openPreparers(config, env, new AbortController().signal, { trusted: false });
    assert.deepEqual(opened.problems, []);
    const results = await runWith(config, opened.preparer, false);
    assert.deepEqual(
      results.get('1')?.map((r) => `${r.status}: ${r.reason}`),
      ['skipped: workspace is not trusted'],
    );
    assert.equal(connections, 0, 'no connection reached the server');
    assert.deepEqual(read, [], 'no environment variable was read');
  });

  it('with trust, the password variable is read when the database opens, and never shown', async () => {
    const port = (server?.address() as { port: number }).port;
    const config = load(join(root, 'run.yaml'));
    connections = 0;
    const read: string[] = [];
    const env = new Proxy({} as Record<string, string | undefined>, {
      get: (_target, key) => {
        read.push(String(key));
        return key === 'WORKSPACE_DB_PASSWORD' ? 'pa55-secret' : undefined;
      },
    });
    const opened = await openPreparers(config, env, new AbortController().signal);
    assert.deepEqual(read, [], 'loading reads no variable');
    const results = await runWith(config, opened.preparer);
    const [result] = results.get('1') ?? [];
    assert.equal(result?.status, 'error');
    assert.match(
      result?.reason ?? '',
      new RegExp(`cannot connect to PostgreSQL at 127\\.0\\.0\\.1:${port}, database "shop"`),
    );
    assert.doesNotMatch(result?.reason ?? '', /pa55-secret/);
    assert.ok(read.some((key) => key === 'WORKSPACE_DB_PASSWORD'));
    assert.ok(connections > 0);
  });
});
