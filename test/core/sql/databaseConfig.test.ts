import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import initSqlJs from 'sql.js';
import { loadDatabaseConfig, parseDatabaseConfig, postgresSettingsOf } from '../../../core/sql/databaseConfig';
import { openEngine } from '../../../core/sql/openEngine';
import { FIXTURES, LIMIT, plan, rowsOf } from './engines';

const CONFIGS = join(FIXTURES, 'configs');
const FILE = '/work/evals/db_configs/shop.yaml';

/** Problems as `line:col code` (1-based), the way a person reads them. */
function problems(yaml: string, env: Record<string, string> = {}) {
  return parseDatabaseConfig(yaml, FILE, env).problems.map((p) => ({ at: `${p.range.start.line + 1}:${p.range.start.column + 1}`, code: p.code, severity: p.severity, message: p.message }));
}

describe('database configs', () => {
  it('refuses a password written in the file, on its key, and says what to do instead', () => {
    const parsed = loadDatabaseConfig(join(CONFIGS, 'password-in-config.yaml'), {});
    assert.equal(parsed.config, undefined);
    const [p] = parsed.problems;
    assert.equal(p?.code, 'password-in-config');
    assert.equal(p?.severity, 'error');
    assert.equal(p?.range.file, join(CONFIGS, 'password-in-config.yaml'));
    assert.equal(`${(p?.range.start.line ?? 0) + 1}:${(p?.range.start.column ?? 0) + 1}`, '7:1');
    assert.match(p?.message ?? '', /never read from a database config.*`password_env: <VAR>`/);
    assert.doesNotMatch(p?.message ?? '', /hunter2/, 'the password itself is not repeated');
    assert.deepEqual(p?.suggestions, ['password_env']);
  });

  it('refuses a password even when it comes from ${VAR}, and secret_manager_path', () => {
    assert.deepEqual(
      problems('db_type: postgres\ndatabase_name: shop\nhost: h\nuser_name: u\npassword: ${PGPASSWORD}\nsecret_manager_path: projects/p/secrets/s\n', { PGPASSWORD: 'x' }).map((p) => `${p.at} ${p.code}`),
      ['5:1 password-in-config', '6:1 unsupported-key'],
    );
  });

  it('reads a PostgreSQL config; the password comes from the variable password_env names', () => {
    const parsed = loadDatabaseConfig(join(CONFIGS, 'postgres.yaml'), {});
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(parsed.config, { dialect: 'postgres', name: 'shop', host: '127.0.0.1', port: 54329, database: 'shop', user: 'evaluator', passwordEnv: 'SHOP_DB_PASSWORD', maxExecutionsPerMinute: 60 });
    const config = parsed.config;
    assert.ok(config?.dialect === 'postgres');
    assert.deepEqual(postgresSettingsOf(config, { SHOP_DB_PASSWORD: 's3cret' }), { host: '127.0.0.1', port: 54329, database: 'shop', user: 'evaluator', password: 's3cret' });
    assert.throws(() => postgresSettingsOf(config, {}), /the environment variable SHOP_DB_PASSWORD \(password_env of database shop\) is not set/);
  });

  it('resolves an SQLite database_path relative to the config file: <path>/<name>.sqlite', () => {
    const parsed = parseDatabaseConfig(readFileSync(join(CONFIGS, 'sqlite.yaml'), 'utf8'), join(CONFIGS, 'sqlite.yaml'), {});
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(parsed.config, { dialect: 'sqlite', name: 'shop', file: join(FIXTURES, 'databases', 'shop.sqlite'), maxExecutionsPerMinute: 600 });
    const db = (yaml: string) => {
      const config = parseDatabaseConfig(yaml, FILE, {}).config;
      return config?.dialect === 'sqlite' ? config.file : undefined;
    };
    assert.equal(db('db_type: sqlite\ndatabase_name: bird\ndatabase_path: .\nextension: db\n'), '/work/evals/db_configs/bird.db');
    assert.equal(db('db_type: sqlite\ndatabase_name: bird.sqlite\ndatabase_path: /data/sqlite\n'), '/data/sqlite/bird.sqlite');
  });

  it('says which key is missing or wrong, where', () => {
    assert.deepEqual(
      problems('db_type: sqlite\ndatabase_name: 12\n').map((p) => `${p.at} ${p.code}`),
      ['2:16 schema', '1:1 missing-required'],
    );
    assert.deepEqual(
      problems('db_type: bigquery\ndatabase_name: shop\nlocation: US\n').map((p) => `${p.at} ${p.code} ${p.message}`),
      ['1:10 unsupported-database db_type "bigquery" is not supported: EvalLens runs SQL on `sqlite` and `postgres`'],
    );
    const pg = problems('db_type: postgres\ndatabase_name: shop\ndatabase_path: proj:region:inst\nport: 70000\npassword_env: not a name\n');
    assert.deepEqual(
      pg.map((p) => `${p.at} ${p.code}`),
      ['1:1 missing-required', '4:7 schema', '1:1 missing-required', '5:15 schema'],
    );
    assert.match(pg[0]?.message ?? '', /`host` is missing.*Cloud SQL instance/);
    assert.deepEqual(problems('db_type: sqlite\ndatabase_name: a\ndatabase_path: .\ndatabse_path: x\n').map((p) => `${p.at} ${p.code} ${p.severity} ${p.message}`), [
      '4:1 unknown-key warning unknown database config key "databse_path"; did you mean "database_path" or "database_name"?',
    ]);
    assert.deepEqual(problems('').map((p) => p.code), ['empty-config']);
    assert.deepEqual(problems('- a\n').map((p) => p.code), ['schema']);
    assert.deepEqual(problems('db_type: [\n').map((p) => p.code).slice(0, 1), ['yaml-syntax']);
  });

  it('names a missing SQLite file and an unreadable config', () => {
    const dir = mkdtempSync(join(tmpdir(), 'evallens-dbconfig-'));
    try {
      writeFileSync(join(dir, 'db.yaml'), 'db_type: sqlite\ndatabase_name: shop\ndatabase_path: data\n');
      const [missing] = loadDatabaseConfig(join(dir, 'db.yaml'), {}).problems;
      assert.equal(missing?.code, 'missing-file');
      assert.match(missing?.message ?? '', new RegExp(`${join(dir, 'data', 'shop.sqlite')} does not exist`));
      assert.deepEqual(loadDatabaseConfig(join(dir, 'nope.yaml'), {}).problems.map((p) => `${p.code}: ${p.message}`), ['unreadable-config: cannot read the database config: no such file']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('opens the engine a config describes', async () => {
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
      assert.ok(config !== undefined);
      const engine = await openEngine(config, {});
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
