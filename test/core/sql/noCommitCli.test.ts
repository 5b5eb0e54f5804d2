import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureBuilt, runCli } from '../../support/cli';
import { PG_MISSING } from './engines';
import { postgresSandbox, type Sandbox } from './noCommitServers';

/**
 * The no-commit rule through the built CLI: an EvalBench NL2SQL config on a PostgreSQL database,
 * whose dataset holds the attacks of issue 13 item 2 (setup that turns standard_conforming_strings
 * off, then SQL whose quote EvalLens's splitter read otherwise and that hid `DELETE; COMMIT; BEGIN`;
 * a `begin atomic` label that hid a COMMIT; COPY … TO PROGRAM). Trusted and with --untrusted, the
 * database is what it was and no program ran. (Untrusted, server cases are skipped before any
 * connection is opened; the test keeps it so. Trusted, they run, and the engine stops the attacks.)
 */
const PROGRAM_FILE = `/tmp/atk_evallens_${process.pid}_cli`;

describe('evallens run never changes a PostgreSQL database', () => {
  let sandbox: Sandbox | undefined;
  let work = '';
  before(async () => {
    sandbox = await postgresSandbox();
    if (sandbox === undefined) return;
    ensureBuilt();
    work = mkdtempSync(join(tmpdir(), 'evallens-nocommit-'));
    const { user } = sandbox;
    writeFileSync(
      join(work, 'pg.yaml'),
      `db_type: postgres\ndialect: postgres\ndatabase_name: ${user.database}\nhost: ${user.host}\nport: ${user.port}\nuser_name: ${user.user}\n`,
    );
    const item = (id: number, golden: string, generated: string, setup: string[] = []) => ({
      id,
      nl_prompt: 'How many rows?',
      query_type: 'dml',
      database: user.database,
      dialects: ['postgres'],
      golden_sql: { postgres: [golden] },
      eval_query: { postgres: ['SELECT count(*) FROM t'] },
      setup_sql: { postgres: setup },
      cleanup_sql: {},
      tags: [],
      other: {},
      generated_sql: generated,
    });
    const hidden = "SELECT '\\''; DELETE FROM t; COMMIT; BEGIN; SELECT 1 --'";
    writeFileSync(
      join(work, 'prompts.json'),
      JSON.stringify([
        item(1, hidden, 'DELETE FROM t', ['SET standard_conforming_strings = off']),
        item(
          2,
          'CREATE VIEW atk_v AS SELECT begin atomic FROM (SELECT 1 AS begin) s; DELETE FROM t; COMMIT; BEGIN; SELECT 1',
          'DELETE FROM audit',
        ),
        item(3, 'SELECT 1', `COPY (SELECT 1) TO PROGRAM 'touch ${PROGRAM_FILE}'`, [
          `COPY (SELECT 1) TO PROGRAM 'touch ${PROGRAM_FILE}'`,
        ]),
      ]),
    );
    writeFileSync(
      join(work, 'run.yaml'),
      'dataset_config: prompts.json\ndataset_format: evalbench-standard-format\ndatabase_configs:\n  - pg.yaml\ndialects:\n  - postgres\nquery_types:\n  - dml\nscorers:\n  executable_sql: null\n',
    );
  });
  after(async () => {
    await sandbox?.drop();
    if (work !== '') rmSync(work, { recursive: true, force: true });
    rmSync(PROGRAM_FILE, { force: true });
  });

  for (const trust of ['trusted', 'untrusted'] as const) {
    it(`${trust}: the database is what it was, and no program ran`, async (t) => {
      if (sandbox === undefined) return t.skip(PG_MISSING);
      const fingerprint = await sandbox.fingerprint();
      const cli = await runCli(
        ['run', 'run.yaml', '--runs-dir', `runs-${trust}`, ...(trust === 'untrusted' ? ['--untrusted'] : [])],
        { cwd: work },
      );
      assert.notEqual(cli.code, null, cli.stderr);
      assert.equal(await sandbox.fingerprint(), fingerprint, `${cli.stdout}${cli.stderr}`);
      assert.equal(existsSync(PROGRAM_FILE), false, 'COPY … TO PROGRAM ran');
      // Trusted, the cases ran on the database (the COPY one fails: COPY is refused).
      if (trust === 'trusted') assert.match(cli.stdout, /PASS 1 .*\nPASS 2 .*\nFAIL 3 /);
    });
  }

  it('refuses to run as a superuser unless the config says allow_superuser: true', async (t) => {
    if (sandbox === undefined) return t.skip(PG_MISSING);
    const { admin } = sandbox;
    writeFileSync(
      join(work, 'pg.yaml'),
      `db_type: postgres\ndialect: postgres\ndatabase_name: ${admin.database}\nhost: ${admin.host}\nport: ${admin.port}\nuser_name: ${admin.user}\n`,
    );
    const cli = await runCli(
      ['run', 'run.yaml', '--runs-dir', 'runs-superuser', '--reporter', 'json', '--out', 'superuser.json'],
      { cwd: work },
    );
    assert.match(
      cli.stdout + cli.stderr,
      /is a superuser: SQL under test could run programs and write files on the server/,
    );
    assert.equal(existsSync(PROGRAM_FILE), false);
  });
});
