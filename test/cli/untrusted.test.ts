/**
 * Restricted Mode through the built CLI (issue 13, items 1 and 6): `--untrusted` opens no socket the
 * workspace chose (a loopback listener that counts connections sees none, for PostgreSQL and MySQL
 * database configs whose host is that listener), reads no environment variable a workspace file names
 * (a preload records every read of `process.env` in the CLI process), and writes nothing a config
 * chooses outside the current folder. `validate`, `validate --cases` and `plan` read configs the same way.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CLI, ensureBuilt } from '../support/cli';
import { countingListenerForFile } from '../support/countingListener';

const SECRET = 'planted-Secret-0123456789';
/** Variables the workspace names; each is set in the CLI's environment, and none may be read. */
const PLANTED = [
  'PLANTED_PASSWORD',
  'PLANTED_USER',
  'PLANTED_DB',
  'PLANTED_HOST',
  'PLANTED_PATH',
  'PLANTED_HEADER',
  'PLANTED_DATASET',
];

let root = '';
const listener = countingListenerForFile();
let port = 0;

before(async () => {
  ensureBuilt();
  root = mkdtempSync(join(tmpdir(), 'evallens-untrusted-cli-'));
  // Loaded with -r into the CLI: every read of a planted name is appended to the file EVALLENS_TEST_READS names.
  writeFileSync(
    join(root, 'record-env.cjs'),
    [
      "const { appendFileSync } = require('node:fs');",
      `const planted = new Set(${JSON.stringify(PLANTED)});`,
      'const out = process.env.EVALLENS_TEST_READS;',
      'const real = process.env;',
      'process.env = new Proxy(real, { get(target, key) { if (typeof key === "string" && planted.has(key)) appendFileSync(out, key + "\\n"); return Reflect.get(target, key); } });',
      '',
    ].join('\n'),
  );
  port = await listener.start();
});
after(async () => {
  rmSync(root, { recursive: true, force: true });
});

interface Outcome {
  readonly code: number | null;
  /** stdout and stderr together. */
  readonly out: string;
  readonly stdout: string;
  readonly reads: string[];
}

/** Runs the built CLI in `cwd` with every planted variable set, and returns what it read of them. */
function cli(args: readonly string[], cwd: string): Promise<Outcome> {
  const reads = join(root, `reads-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(reads, '');
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', EVALLENS_TEST_READS: reads };
  for (const name of PLANTED) env[name] = name === 'PLANTED_HOST' ? '127.0.0.1' : SECRET;
  const child = spawn(process.execPath, ['-r', join(root, 'record-env.cjs'), CLI, ...args], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => {
    out += c;
    stdout += c;
  });
  child.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the CLI did not finish within 60 s:\n${out}`));
    }, 60_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({
        code,
        out,
        stdout,
        reads: readFileSync(reads, 'utf8')
          .split('\n')
          .filter((l) => l !== ''),
      });
    });
  });
}

/** A workspace folder with a server database config (`engine`) whose host is the counting listener. */
function workspace(
  name: string,
  database: string,
  run = 'dataset_config: prompts.json\ndatabase_configs:\n  - db.yaml\nscorers:\n  exact_match: null\n',
): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'db.yaml'), database);
  const item = (id: number, dialect: string) => ({
    id,
    nl_prompt: 'q',
    query_type: 'DQL',
    database: 'shop',
    dialects: [dialect],
    golden_sql: { [dialect]: ['SELECT 1'] },
    generated_sql: 'SELECT 1',
  });
  const dialect = /dialect: (\w+)/.exec(database)?.[1] ?? 'postgres';
  writeFileSync(join(dir, 'prompts.json'), JSON.stringify([item(1, dialect), item(2, dialect)]));
  writeFileSync(join(dir, 'run.yaml'), run);
  return dir;
}

const ATTACKS: readonly { readonly name: string; readonly database: (port: number) => string }[] = [
  {
    name: 'postgres, password_env',
    database: (p) =>
      `db_type: postgres\ndialect: postgres\ndatabase_name: shop\nhost: 127.0.0.1\nport: ${p}\nuser_name: evaluator\npassword_env: PLANTED_PASSWORD\n`,
  },
  {
    name: 'postgres, !ENV password',
    database: (p) =>
      `db_type: postgres\ndialect: postgres\ndatabase_name: shop\nhost: 127.0.0.1\nport: ${p}\nuser_name: evaluator\npassword: !ENV \${PLANTED_PASSWORD}\n`,
  },
  {
    name: 'postgres, ${VAR} in user_name, database_name and host',
    database: (p) =>
      `db_type: postgres\ndialect: postgres\ndatabase_name: \${PLANTED_DB}\nhost: \${PLANTED_HOST}\nport: ${p}\nuser_name: \${PLANTED_USER}\npassword_env: PLANTED_PASSWORD\n`,
  },
  {
    name: 'mysql, password_env',
    database: (p) =>
      `db_type: mysql\ndialect: mysql\ndatabase_name: shop\nhost: 127.0.0.1\nport: ${p}\nuser_name: evaluator\npassword_env: PLANTED_PASSWORD\n`,
  },
  {
    name: 'mysql, ${VAR} in user_name, database_name and host',
    database: (p) =>
      `db_type: mysql\ndialect: mysql\ndatabase_name: \${PLANTED_DB}\nhost: \${PLANTED_HOST}\nport: ${p}\nuser_name: \${PLANTED_USER}\npassword: !ENV \${PLANTED_PASSWORD}\n`,
  },
];

describe('evallens run --untrusted and a workspace server database', () => {
  for (const [i, attack] of ATTACKS.entries()) {
    it(`${attack.name}: no connection, no variable read, the cases skipped as untrusted`, async () => {
      const dir = workspace(`db-${i}`, attack.database(port));
      listener.connections = 0;
      const run = await cli(['run', 'run.yaml', '--untrusted', '--reporter', 'json', '--out', 'report.json'], dir);
      assert.equal(listener.connections, 0, `a connection reached the listener:\n${run.out}`);
      assert.deepEqual(run.reads, [], `variables read:\n${run.out}`);
      assert.equal(run.code, 3, run.out);
      assert.ok(!run.out.includes(SECRET));
      const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
        results: { status: string; reason?: string }[];
      };
      assert.ok(
        report.results.length > 0 &&
          report.results.every((r) => r.status === 'skipped' && r.reason === 'workspace is not trusted'),
        JSON.stringify(report.results),
      );
      // The listing and the plan the extension asks for read nothing either, and say the config reaches the network.
      const listed = await cli(['validate', 'run.yaml', '--cases', '--untrusted'], dir);
      assert.deepEqual(listed.reads, []);
      assert.deepEqual((JSON.parse(listed.stdout.trim()) as { reaches: string[] }).reaches, ['network']);
      const plan = await cli(['plan', 'run.yaml', '--json', '--untrusted'], dir);
      assert.deepEqual(plan.reads, []);
      assert.deepEqual((JSON.parse(plan.stdout.trim()) as { reaches: string[] }).reaches, ['network']);
      const validate = await cli(['validate', 'run.yaml', '--untrusted'], dir);
      assert.deepEqual(validate.reads, [], validate.out);
      assert.equal(listener.connections, 0);
    });
  }

  it('with trust the same config connects (the listener counts for real)', async () => {
    const dir = workspace('db-trusted', ATTACKS[0]?.database(port) ?? '');
    listener.connections = 0;
    await cli(['run', 'run.yaml'], dir);
    assert.ok(listener.connections > 0);
  });
});

describe("evallens --untrusted and a run config's ${VAR}s", () => {
  it('reads none of them: each is an error at its file:line:col saying it was not read because the workspace is not trusted', async () => {
    const dir = join(root, 'vars');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'cases.jsonl'), '{"id": "a", "output": "x", "expected": "x"}\n');
    writeFileSync(
      join(dir, 'run.yaml'),
      'dataset: ${PLANTED_PATH:-cases.jsonl}\nscorers:\n  exact_match: {mode: "${PLANTED_USER}"}\n',
    );
    for (const args of [
      ['run', 'run.yaml', '--untrusted'],
      ['validate', 'run.yaml', '--untrusted'],
      ['plan', 'run.yaml', '--untrusted'],
    ]) {
      const outcome = await cli(args, dir);
      assert.deepEqual(outcome.reads, [], `${args.join(' ')} read variables`);
      assert.equal(outcome.code, 2, outcome.out);
      assert.match(outcome.out, /run\.yaml:3:23: .*`\$\{PLANTED_USER\}` was not read: the workspace is not trusted/);
      assert.ok(!outcome.out.includes(SECRET));
    }
    const listed = await cli(['validate', 'run.yaml', '--cases', '--untrusted'], dir);
    assert.deepEqual(listed.reads, []);
    assert.match(
      (JSON.parse(listed.stdout.trim()) as { problem: string }).problem,
      /^3:23: `\$\{PLANTED_USER\}` was not read/,
    );
    // The case the results view's detail pane asks for is read the same way.
    const detail = await cli(['validate', 'run.yaml', '--case-data', 'a', '--untrusted'], dir);
    assert.deepEqual(detail.reads, []);
    assert.match(
      (JSON.parse(detail.stdout.trim()) as { reason: string }).reason,
      /run\.yaml:3:23: `\$\{PLANTED_USER\}` was not read/,
    );
    // A fallback is the workspace's own value: used, and the variable still not read.
    writeFileSync(join(dir, 'run.yaml'), 'dataset: ${PLANTED_PATH:-cases.jsonl}\nscorers:\n  exact_match: {}\n');
    const run = await cli(['run', 'run.yaml', '--untrusted'], dir);
    assert.deepEqual(run.reads, []);
    assert.equal(run.code, 0, run.out);
  });

  it("reads no evalset's ${VAR}: the dataset is refused at the placeholder's line and column", async () => {
    const dir = join(root, 'evalset');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'set.json'),
      '{"scenarios": [\n  {"id": "a", "prompt": "${PLANTED_DATASET}", "output": "x", "expected": "x"}\n]}\n',
    );
    writeFileSync(join(dir, 'run.yaml'), 'dataset: set.json\nscorers:\n  exact_match: {}\n');
    const run = await cli(['run', 'run.yaml', '--untrusted'], dir);
    assert.deepEqual(run.reads, []);
    assert.equal(run.code, 2, run.out);
    assert.match(run.out, /line 2, column \d+: `\$\{PLANTED_DATASET\}` was not read: the workspace is not trusted/);
  });

  it('reads no {{env.X}} a target header names (the target is skipped, not called)', async () => {
    const dir = join(root, 'target');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'run.yaml'),
      `cases: [{id: a, input: q, expected: x}]\ntarget:\n  http:\n    url: http://127.0.0.1:${port}/chat\n    headers: {Authorization: "Bearer {{env.PLANTED_HEADER}}"}\nscorers:\n  exact_match: {}\n`,
    );
    listener.connections = 0;
    const run = await cli(['run', 'run.yaml', '--untrusted'], dir);
    assert.deepEqual(run.reads, []);
    assert.equal(listener.connections, 0);
    assert.equal(run.code, 3, run.out);
  });
});

describe('evallens run --untrusted writes nothing a config chooses outside the workspace (the current folder)', () => {
  it('refuses reporting.csv.output_directory outside it, at its file:line:col; inside it the CSV is written', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'evallens-untrusted-outside-'));
    try {
      const dir = join(root, 'csv');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'cases.jsonl'), '{"id": "a", "output": "x", "expected": "x"}\n');
      symlinkSync(outside, join(dir, 'link'));
      for (const target of [outside, '../csv-sibling', 'link/reports']) {
        writeFileSync(
          join(dir, 'run.yaml'),
          `dataset: cases.jsonl\nreporting:\n  csv:\n    output_directory: ${target}\nscorers:\n  exact_match: {}\n`,
        );
        const run = await cli(['run', 'run.yaml', '--untrusted'], dir);
        assert.equal(run.code, 2, run.out);
        assert.match(run.out, /run\.yaml:4:23: .*the workspace is not trusted, so a run writes nothing outside it/);
      }
      assert.deepEqual(readdirSync(outside), []);
      assert.equal(existsSync(join(root, 'csv-sibling')), false);
      // With trust it is the user's choice.
      writeFileSync(
        join(dir, 'run.yaml'),
        `dataset: cases.jsonl\nreporting:\n  csv:\n    output_directory: ${outside}\nscorers:\n  exact_match: {}\n`,
      );
      assert.equal((await cli(['run', 'run.yaml'], dir)).code, 0);
      assert.equal(readdirSync(outside).length, 1);
      // Inside the workspace, untrusted runs write it; --runs-dir is the user's, wherever it points.
      writeFileSync(
        join(dir, 'run.yaml'),
        'dataset: cases.jsonl\nreporting:\n  csv:\n    output_directory: results\nscorers:\n  exact_match: {}\n',
      );
      const inside = await cli(['run', 'run.yaml', '--untrusted', '--runs-dir', join(outside, 'runs')], dir);
      assert.equal(inside.code, 0, inside.out);
      assert.equal(readdirSync(join(dir, 'results')).length, 1);
      assert.equal(readdirSync(join(outside, 'runs')).length, 1);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
