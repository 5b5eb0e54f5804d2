import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import initSqlJs from 'sql.js';
import {
  databaseNameFor,
  loadDatabaseConfig,
  locationOf,
  parseDatabaseConfig,
  serverSettingsOf,
  type DatabaseConfig,
} from '../../../core/sql/databaseConfig';
import { openEngine } from '../../../core/sql/openEngine';
import { FIXTURES, LIMIT, plan, rowsOf } from './engines';

const CONFIGS = join(FIXTURES, 'configs');
const FILE = '/work/evals/db_configs/shop.yaml';

/** Problems as `line:col code` (1-based), the way a person reads them. */
function problems(yaml: string, env: Record<string, string> = {}) {
  return parseDatabaseConfig(yaml, FILE, env).problems.map((p) => ({
    at: `${p.range.start.line + 1}:${p.range.start.column + 1}`,
    code: p.code,
    severity: p.severity,
    message: p.message,
  }));
}

/** Where an item's database is, for a config given as YAML. */
function located(yaml: string, itemDatabase?: string, fileExists?: (path: string) => boolean) {
  const { config, problems: found } = parseDatabaseConfig(
    yaml,
    FILE,
    {},
    fileExists === undefined ? {} : { fileExists },
  );
  assert.deepEqual(
    found.filter((p) => p.severity === 'error'),
    [],
  );
  assert.ok(
    config !== undefined && config.engine !== 'unsupported',
    `a config EvalLens runs: ${JSON.stringify(config)}`,
  );
  return locationOf(config, databaseNameFor(config, itemDatabase));
}

describe('database configs', () => {
  it('reads allow_superuser: true into the location, with a warning on the key; anything but a boolean is an error', () => {
    const base = 'db_type: postgres\ndatabase_name: shop\nhost: db.local\nuser_name: admin\n';
    assert.equal(
      located(base).engine === 'postgres' && 'allowSuperuser' in located(base),
      false,
      'refused unless said',
    );
    const allowed = located(`${base}allow_superuser: true\n`);
    assert.ok(allowed.engine === 'postgres' && allowed.allowSuperuser === true);
    assert.deepEqual(
      problems(`${base}allow_superuser: true\n`).map((p) => `${p.at} ${p.severity} ${p.code}`),
      ['5:18 warning superuser-allowed'],
    );
    assert.match(
      problems(`${base}allow_superuser: true\n`)[0]?.message ?? '',
      /could run programs or write files on the database server, which no rollback undoes; use a read-only role/,
    );
    assert.deepEqual(
      problems(`${base}allow_superuser: 'yes'\n`).map((p) => `${p.at} ${p.code} ${p.message}`),
      ['5:18 schema `allow_superuser` must be true or false, not string "yes"'],
    );
    assert.deepEqual(problems(`${base}allow_superuser: false\n`), []);
  });

  it('refuses a password written in the file, on its key, and says what to do instead', () => {
    const parsed = loadDatabaseConfig(join(CONFIGS, 'password-in-config.yaml'), {});
    assert.equal(parsed.config, undefined);
    const [p] = parsed.problems;
    assert.equal(p?.code, 'password-in-config');
    assert.equal(p?.severity, 'error');
    assert.equal(p?.range.file, join(CONFIGS, 'password-in-config.yaml'));
    assert.equal(`${(p?.range.start.line ?? 0) + 1}:${(p?.range.start.column ?? 0) + 1}`, '7:1');
    assert.match(
      p?.message ?? '',
      /never read from a database config.*`password: !ENV \$\{VAR\}` \(as EvalBench does\) or `password_env: VAR`/,
    );
    assert.doesNotMatch(p?.message ?? '', /hunter2/, 'the password itself is not repeated');
    assert.deepEqual(p?.suggestions, ['password_env']);
  });

  it("takes EvalBench's `password: !ENV ${VAR}` as the variable that holds the password, and reads it only when the database opens", () => {
    const read: string[] = [];
    const env = new Proxy({} as Record<string, string>, { get: (_t, key) => (read.push(String(key)), undefined) });
    for (const password of ['!ENV ${PGPASSWORD}', '${PGPASSWORD}', "!ENV '${PGPASSWORD}'"]) {
      const parsed = parseDatabaseConfig(
        `db_type: postgres\ndialect: postgres\ndatabase_name: shop\ndatabase_path: 127.0.0.1:5433\nuser_name: u\npassword: ${password}\n`,
        FILE,
        env,
      );
      assert.deepEqual(parsed.problems, [], password);
      assert.ok(parsed.config?.engine === 'postgres');
      assert.equal(parsed.config.passwordEnv, 'PGPASSWORD');
    }
    assert.deepEqual(read, [], 'loading a config reads no variable');
    const location = located(
      'db_type: postgres\ndatabase_name: shop\nhost: h\nuser_name: u\npassword: !ENV ${PGPASSWORD}\n',
      'bird',
    );
    assert.deepEqual(location, {
      engine: 'postgres',
      host: 'h',
      port: 5432,
      database: 'bird',
      user: 'u',
      passwordEnv: 'PGPASSWORD',
    });
    assert.ok(location.engine === 'postgres');
    assert.deepEqual(serverSettingsOf(location, { PGPASSWORD: 's3cret' }), {
      host: 'h',
      port: 5432,
      database: 'bird',
      user: 'u',
      password: 's3cret',
    });
    assert.throws(
      () => serverSettingsOf(location, {}),
      /the environment variable PGPASSWORD \(the password of database bird\) is not set/,
    );
    // A literal, even beside a variable, or with a fallback written in the file, is a password in the file.
    assert.deepEqual(
      problems('db_type: postgres\ndatabase_name: shop\nhost: h\nuser_name: u\npassword: ${A:-hunter2}\n').map(
        (p) => `${p.at} ${p.code}`,
      ),
      ['5:1 password-in-config'],
    );
  });

  it("reads a placeholder password (EvalBench's `<YOUR_DATABASE_PASSWORD>`) as no password yet: the config loads with a warning and its cases are errors, never a literal password sent", () => {
    const text = 'db_type: postgres\ndatabase_name: shop\nhost: h\nuser_name: u\npassword: <YOUR_DATABASE_PASSWORD>\n';
    assert.deepEqual(
      problems(text).map((p) => `${p.at} ${p.severity} ${p.code}`),
      ['5:11 warning database-not-supported'],
    );
    const parsed = parseDatabaseConfig(text, FILE, {});
    assert.ok(parsed.config?.engine === 'unsupported');
    assert.match(parsed.config.reason, /placeholder.*password: !ENV \$\{VAR\}/);
    assert.doesNotMatch(parsed.config.reason, /YOUR_DATABASE_PASSWORD/, 'the reason does not quote the value');
    // Something that only looks like a placeholder at one end is still a password in the file.
    assert.deepEqual(
      problems('db_type: postgres\ndatabase_name: shop\nhost: h\nuser_name: u\npassword: <abc>def\n').map(
        (p) => `${p.at} ${p.code}`,
      ),
      ['5:1 password-in-config'],
    );
  });

  it('reads a PostgreSQL config; the password comes from the variable password_env names', () => {
    const parsed = loadDatabaseConfig(join(CONFIGS, 'postgres.yaml'), {});
    assert.deepEqual(parsed.problems, []);
    const config = parsed.config;
    assert.ok(config?.engine === 'postgres');
    assert.deepEqual(
      {
        host: config.host,
        port: config.port,
        user: config.user,
        name: config.name,
        passwordEnv: config.passwordEnv,
        rate: config.maxExecutionsPerMinute,
      },
      { host: '127.0.0.1', port: 54329, user: 'evaluator', name: 'shop', passwordEnv: 'SHOP_DB_PASSWORD', rate: 60 },
    );
  });

  it('builds an SQLite path as EvalBench does: <database_path>/<item database><db_name_suffix><extension>, extension .db by default', () => {
    assert.deepEqual(
      located(
        'db_type: sqlite\ndatabase_name: <not-required-for-sqlite>\ndatabase_path: db_connections/bat/\n',
        'db_blog',
      ),
      { engine: 'sqlite', file: '/work/evals/db_configs/db_connections/bat/db_blog.db' },
    );
    assert.deepEqual(
      located(
        'db_type: sqlite\ndatabase_name: x\ndatabase_path: /data\nextension: sqlite\ndb_name_suffix: _v2\n',
        'bird',
      ),
      { engine: 'sqlite', file: '/data/bird_v2.sqlite' },
    );
    assert.deepEqual(
      located('db_type: sqlite\ndatabase_name: bird.sqlite\ndatabase_path: /data\nextension: .sqlite\n'),
      { engine: 'sqlite', file: '/data/bird.sqlite' },
      'an item of no database takes database_name; the extension is not added twice',
    );
  });

  it("resolves database_path from the config's folder, else from the nearest folder above it that has it (EvalBench runs from its repository root)", () => {
    const root = mkdtempSync(join(tmpdir(), 'evallens-dbpath-'));
    try {
      mkdirSync(join(root, 'datasets', 'bird', 'db_configs'), { recursive: true });
      mkdirSync(join(root, 'db_connections', 'bird'), { recursive: true });
      const file = join(root, 'datasets', 'bird', 'db_configs', 'sqlite.yaml');
      writeFileSync(
        file,
        readFileSync(join(__dirname, '../../fixtures/evalbench/bird2db/datasets/bird/db_configs/sqlite.yaml')),
      );
      const parsed = loadDatabaseConfig(file, {});
      assert.deepEqual(parsed.problems, []);
      assert.ok(parsed.config?.engine === 'sqlite');
      assert.deepEqual(locationOf(parsed.config, databaseNameFor(parsed.config, 'card_games')), {
        engine: 'sqlite',
        file: join(root, 'db_connections', 'bird', 'card_games.sqlite'),
      });
      rmSync(join(root, 'db_connections'), { recursive: true });
      const [missing] = loadDatabaseConfig(file, {}).problems;
      assert.equal(missing?.code, 'missing-file');
      assert.equal(missing?.severity, 'warning');
      assert.match(
        missing?.message ?? '',
        /the folder .*db_connections\/bird \(database_path\) does not exist here, nor in a folder above this config: every case on this database is an error in a run/,
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('runs AlloyDB and AlloyDB Omni on the PostgreSQL protocol, and MySQL at database_path host:port', () => {
    assert.deepEqual(
      located(
        'db_type: alloydb_omni\ndialect: postgres\ndatabase_name: db\nuser_name: u\npassword: !ENV ${P}\n',
        'db_blog',
      ),
      { engine: 'postgres', host: 'localhost', port: 5432, database: 'db_blog', user: 'u', passwordEnv: 'P' },
    );
    assert.deepEqual(
      located('db_type: alloydb\ndialect: postgres\ndatabase_name: db\nhost: 10.0.0.5\nport: 5433\nuser_name: u\n'),
      { engine: 'postgres', host: '10.0.0.5', port: 5433, database: 'db', user: 'u' },
    );
    assert.deepEqual(
      located('db_type: postgres\ndatabase_name: db\ndatabase_path: localhost\nuser_name: u\n', 'shop'),
      { engine: 'postgres', host: 'localhost', port: 5432, database: 'shop', user: 'u' },
    );
    assert.deepEqual(
      located(
        'db_type: mysql\ndialect: mysql\ndatabase_name: db\ndatabase_path: 127.0.0.1:3307\nuser_name: root\n',
        'shop',
      ),
      { engine: 'mysql', host: '127.0.0.1', port: 3307, database: 'shop', user: 'root' },
    );
    assert.deepEqual(located('db_type: mysql\ndatabase_name: db\nhost: db.local\nuser_name: root\n'), {
      engine: 'mysql',
      host: 'db.local',
      port: 3306,
      database: 'db',
      user: 'root',
    });
  });

  it('says, with a warning on the key, why a database cannot be run here; the config still loads', () => {
    const unsupported = (yaml: string) => {
      const parsed = parseDatabaseConfig(yaml, FILE, {});
      const config: DatabaseConfig | undefined = parsed.config;
      return {
        reason: config?.engine === 'unsupported' ? config.reason : undefined,
        problems: parsed.problems.map(
          (p) => `${p.range.start.line + 1}:${p.range.start.column + 1} ${p.severity} ${p.code}`,
        ),
      };
    };
    for (const [type, product] of [
      ['bigquery', 'BigQuery'],
      ['spanner', 'Spanner'],
      ['sqlserver', 'SQL Server'],
      ['mongodb', 'MongoDB'],
      ['bigtable', 'Bigtable'],
    ]) {
      const found = unsupported(
        `db_type: ${type}\ndialect: ${type}\ndatabase_name: <x>\ndatabase_path: ""\nconnection_string: !ENV \${MONGO}\nlocation: US\n`,
      );
      assert.match(
        found.reason ?? '',
        new RegExp(
          `^EvalLens does not run SQL on ${product} \\(db_type ${type}\\): it runs SQLite, PostgreSQL \\(and AlloyDB\\) and MySQL$`,
        ),
      );
      assert.deepEqual(found.problems, ['1:10 warning database-not-supported']);
    }
    assert.match(
      unsupported(
        'db_type: postgres\ndialect: postgres\ndatabase_name: postgress\ndatabase_path: cloud-db-nl2sql:us-central1:bird-interact\nuser_name: postgres\nsecret_manager_path: projects/p/secrets/bird/versions/1\n',
      ).reason ?? '',
      /Google Secret Manager/,
    );
    assert.match(
      unsupported('db_type: postgres\ndatabase_name: shop\ndatabase_path: proj:region:inst\nuser_name: u\n').reason ??
        '',
      /names a Cloud SQL instance.*add `host` and `port`/,
    );
    const alloy = unsupported(
      'db_type: alloydb\ndialect: postgres\ndatabase_name: db_blog\ndatabase_path: projects/p/locations/l/clusters/c/instances/i\nuser_name: postgres\n',
    );
    assert.match(alloy.reason ?? '', /AlloyDB instance.*add `host`/);
    assert.deepEqual(alloy.problems, ['4:16 warning database-not-supported']);
  });

  it('says which key is missing or wrong, where', () => {
    assert.deepEqual(
      problems('db_type: sqlite\ndatabase_name: 12\n').map((p) => `${p.at} ${p.code}`),
      ['2:16 schema', '1:1 missing-required'],
    );
    assert.deepEqual(
      problems('db_type: oracle\ndatabase_name: shop\n').map((p) => `${p.at} ${p.code}`),
      ['1:10 unsupported-database'],
    );
    const pg = problems('db_type: postgres\ndatabase_name: shop\nhost: h\nport: 70000\npassword_env: not a name\n');
    assert.deepEqual(
      pg.map((p) => `${p.at} ${p.code}`),
      ['4:7 schema', '1:1 missing-required', '5:15 schema'],
    );
    assert.deepEqual(
      problems('db_type: sqlite\ndatabase_name: a\ndatabase_path: .\ndatabse_path: x\n').map(
        (p) => `${p.at} ${p.code} ${p.severity} ${p.message}`,
      ),
      [
        '4:1 unknown-key warning unknown database config key "databse_path"; did you mean "database_path" or "database_name"?',
      ],
    );
    assert.deepEqual(
      problems(
        'db_type: postgres\ndatabase_name: shop\nhost: h\nuser_name: u\nnl_config: x\ngcp_project_id: p\nuse_cloud_sql: false\n',
      ),
      [],
      "EvalBench's own keys are accepted",
    );
    assert.deepEqual(
      problems('').map((p) => p.code),
      ['empty-config'],
    );
    assert.deepEqual(
      problems('- a\n').map((p) => p.code),
      ['schema'],
    );
    assert.deepEqual(
      problems('db_type: [\n')
        .map((p) => p.code)
        .slice(0, 1),
      ['yaml-syntax'],
    );
    assert.deepEqual(
      loadDatabaseConfig('/nowhere/nope.yaml', {}).problems.map((p) => `${p.code}: ${p.message}`),
      ['unreadable-config: cannot read the database config: no such file'],
    );
  });

  it('opens the engine of a database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evallens-dbconfig-'));
    try {
      mkdirSync(join(dir, 'databases'));
      mkdirSync(join(dir, 'configs'));
      const SQL = await initSqlJs({ locateFile: () => require.resolve('sql.js/dist/sql-wasm.wasm') });
      const db = new SQL.Database();
      db.exec("CREATE TABLE t (a TEXT); INSERT INTO t VALUES ('from the file')");
      writeFileSync(join(dir, 'databases', 'shop.sqlite'), db.export());
      db.close();
      writeFileSync(join(dir, 'configs', 'sqlite.yaml'), readFileSync(join(CONFIGS, 'sqlite.yaml')));
      const { config, problems: found } = loadDatabaseConfig(join(dir, 'configs', 'sqlite.yaml'), {});
      assert.deepEqual(found, []);
      assert.ok(config !== undefined && config.engine === 'sqlite');
      const engine = await openEngine(locationOf(config, databaseNameFor(config, undefined)), {});
      try {
        assert.equal(engine.dialect, 'sqlite');
        assert.deepEqual(rowsOf((await engine.run(plan('SELECT a FROM t'), LIMIT)).query), [['from the file']]);
      } finally {
        await engine.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
