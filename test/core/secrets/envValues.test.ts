/**
 * Every value a run reads from the environment joins the process's mask list at the moment it is read
 * (issue 13, item 4): `${VAR}`s of model, database and run configs and of evalsets, `api_key_env`,
 * `password_env`, `{{env.X}}`. And the siblings of the cut-before-mask defect: a tail of stderr, a
 * probe error, an engine's error, a case's end event. Each test plants its own value, which no
 * detector recognises, so only the mask list can hide it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parseRunConfig } from '../../../core/config/parseRunConfig';
import { expandEnvironment } from '../../../core/dataset/agentEvalset';
import { requestCompletion } from '../../../core/judge/client';
import { parseModelConfig } from '../../../core/judge/modelConfig';
import type { RunEvent } from '../../../core/runner/events';
import { caseRecords } from '../../../core/runner/records';
import { runEval } from '../../../core/runner/run';
import { scoreCase } from '../../../core/runner/scoreCase';
import { StreamTail } from '../../../core/scorers/support/processText';
import { parseDatabaseConfig, serverSettingsOf } from '../../../core/sql/databaseConfig';
import { databasePreparer } from '../../../core/sql/databasePreparer';
import { runCommandTarget } from '../../../core/target/cmdTarget';
import { parseTemplate, valueOf } from '../../../core/target/template';
import { LineIndex } from '../../../core/text/position';
import { maskSecretText, rememberCredentialEnvironment } from '../../../shared/text/secretMask';
import { MaskedLines, maskedChannel } from '../../../extension/runner/maskedText';
import { prepareScorers } from '../../../core/runner/prepareScorers';

const dir = mkdtempSync(join(tmpdir(), 'evallens-env-values-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A key secret_scan's openai_api_key detector flags. */
const KEY = 'sk-planted-0123456789abcdefXYZ';

/** No part of `secret` of 8 characters or more in `text`. */
function assertNoPart(text: string, secret: string): void {
  for (let i = 0; i + 8 <= secret.length; i++)
    assert.ok(!text.includes(secret.slice(i, i + 8)), `"${secret.slice(i, i + 8)}" leaked in: ${text}`);
}

/** The value shows nowhere once masked: the reader remembered it. */
function assertRemembered(value: string): void {
  assertNoPart(maskSecretText(`an engine quoted ${value} here`), value);
}

describe('values read from the environment join the mask list where they are read', () => {
  it('a model config ${VAR}', () => {
    const value = 'modelvar-plain-7731';
    const loaded = parseModelConfig(
      'provider: openai\nbase_url: http://127.0.0.1:1/v1\nmodel: "${JUDGE_MODEL_X}"\n',
      join(dir, 'judge.yaml'),
      { JUDGE_MODEL_X: value },
    );
    assert.ok(loaded.ok);
    assertRemembered(value);
  });

  it('a database config ${VAR}', () => {
    const value = 'dbhost-plain-5521';
    const parsed = parseDatabaseConfig(
      'db_type: postgres\nhost: "${DB_HOST_X}"\nuser_name: u\ndatabase_name: d\n',
      join(dir, 'db.yaml'),
      { DB_HOST_X: value },
    );
    assert.ok(parsed.config, JSON.stringify(parsed.problems));
    assertRemembered(value);
  });

  it("password_env's value, read when the database is opened", () => {
    const value = 'dbpass-plain-9043';
    serverSettingsOf(
      { engine: 'postgres', host: 'h', port: 5432, database: 'd', user: 'u', passwordEnv: 'DB_PASS_X' },
      { DB_PASS_X: value },
    );
    assertRemembered(value);
  });

  it('a {{env.X}} header value', () => {
    const value = 'header-plain-6618';
    const parsed = parseTemplate('Bearer {{env.HEADER_X}}', true);
    assert.ok(parsed.ok);
    const placeholder = parsed.parts.find((p) => typeof p !== 'string');
    assert.ok(placeholder !== undefined && typeof placeholder !== 'string');
    valueOf(placeholder, { fields: {}, env: { HEADER_X: value } } as never);
    assertRemembered(value);
  });

  it('an evalset ${VAR}', () => {
    const value = 'evalset-plain-2290';
    const text = '{"scenarios": [{"id": "s", "starting_prompt": "${EVALSET_X}"}]}';
    expandEnvironment(text, join(dir, 'x.evalset.json'), new LineIndex(text), { EVALSET_X: value });
    assertRemembered(value);
  });

  it("api_key_env's value, read at the judge call", async () => {
    const value = 'apikey-plain-4486';
    const loaded = parseModelConfig(
      'provider: openai\nbase_url: http://127.0.0.1:1/v1\nmodel: m\napi_key_env: JUDGE_KEY_X\n',
      join(dir, 'judge2.yaml'),
      {},
    );
    assert.ok(loaded.ok);
    const context = {
      env: { JUDGE_KEY_X: value },
      fetch,
      now: () => 0,
      signal: new AbortController().signal,
      googleToken: async () => ({ kind: 'missing' as const, reason: 'none' }),
    };
    await requestCompletion(loaded.config, { user: 'q' }, context);
    assertRemembered(value);
  });

  it('a variable named like a credential, though nothing reads it', () => {
    rememberCredentialEnvironment({ SOME_SERVICE_API_KEY: 'unread-plain-1180', PWD: '/work/folder-plain' });
    assertRemembered('unread-plain-1180');
    assert.match(maskSecretText('in /work/folder-plain'), /folder-plain/);
  });
});

describe('connection strings and key=value pairs', () => {
  it("mask a conninfo's password=… and an env assignment, not the words around them", () => {
    const text =
      'connect failed: host=db port=5432 password=hunter22xyz dbname=x; AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMIK7MDENG';
    const masked = maskSecretText(text);
    assertNoPart(masked, 'hunter22xyz');
    assertNoPart(masked, 'wJalrXUtnFEMIK7MDENG');
    assert.match(masked, /host=db port=5432/);
  });
});

describe('reasons cut after masking (siblings of the 200-character judge cut)', () => {
  it("a command target's stderr tail across the key", async () => {
    // The key, then 290 characters: the last 300 characters start inside it.
    const script = `process.stderr.write('${KEY}' + 'y'.repeat(290)); process.exit(1)`;
    const error = await runCommandTarget(`"${process.execPath}" -e "${script}"`, {
      cwd: dir,
      stdin: '',
      env: process.env,
      signal: new AbortController().signal,
    }).then(
      () => assert.fail('the command fails'),
      (e: unknown) => e as Error,
    );
    assert.match(error.message, /exited with code 1/);
    assertNoPart(error.message, KEY);
  });

  it("a scorer's stderr tail that starts inside a secret", () => {
    const tail = new StreamTail(100);
    tail.push(Buffer.from(`${'a'.repeat(50)} ${KEY}`));
    tail.push(Buffer.from('z'.repeat(85)));
    assertNoPart(tail.text(), KEY);
  });

  it('an MCP probe error with a key across the 200-character cut', async () => {
    const parsed = parseRunConfig(
      'cases: [{id: a, input: x}]\nscorers:\n  mcp_compliance_check: {}\n',
      join(dir, 'mcp.eval.yaml'),
      {},
    );
    assert.ok(parsed.config, JSON.stringify(parsed.problems));
    const results = await scoreCase(
      { id: 'a', input: 'x', output: { probe_error: `${'x'.repeat(189)} ${KEY}` } },
      prepareScorers(parsed.config.scorers),
      1,
      { now: () => 0 },
    );
    assert.equal(results.length, 1);
    assertNoPart(JSON.stringify(results), KEY);
  });

  it("an engine's error quoting the password and a DSN, at the preparer's boundary", async () => {
    const password = 'enginepw-plain-8850';
    const config = {
      file: join(dir, 'db.yaml'),
      dbType: 'postgres',
      dialect: 'postgres',
      name: 'd',
      nameSuffix: '',
      engine: 'postgres' as const,
      host: 'h',
      port: 5432,
      user: 'u',
      passwordEnv: 'ENGINE_PW_X',
    };
    const preparer = databasePreparer([{ config }], {
      timeoutMs: 1000,
      env: { ENGINE_PW_X: password },
      open: async () => {
        throw new Error(`cannot connect to postgres://u:${password}@h:5432/d (password "${password}" refused)`);
      },
    });
    const error = await preparer
      .prepare(
        { id: 'a', input: 'q', expected: { golden_sql: 'select 1', database: 'd' } },
        new AbortController().signal,
      )
      .then(
        () => assert.fail('the open fails'),
        (e: unknown) => e as Error,
      );
    assert.match(error.message, /cannot connect/);
    assertNoPart(error.message, password);
  });
});

describe("a case's end event", () => {
  it("carries results masked with the run's values, as its result events do", async () => {
    const value = 'caseend-plain-4417';
    const parsed = parseRunConfig(
      'cases: [{id: a, input: x, output: "other"}]\nscorers:\n  exact_match: {value: "${CASE_END_X}"}\n',
      join(dir, 'e.eval.yaml'),
      { CASE_END_X: value },
    );
    assert.ok(parsed.config, JSON.stringify(parsed.problems));
    const events: RunEvent[] = [];
    await runEval(parsed.config, caseRecords(parsed.config), {
      runId: 'r',
      concurrency: 1,
      onEvent: (e) => void events.push(e),
    });
    const end = events.find((e) => e.type === 'case/end');
    assert.ok(end !== undefined);
    assertNoPart(JSON.stringify(end), value);
  });
});

describe("the extension's stream masking", () => {
  it('masks a key split across two chunks of stderr', () => {
    const lines = new MaskedLines();
    const out = lines.push(`error: ${KEY.slice(0, 15)}`) + lines.push(`${KEY.slice(15)} refused\nnext`) + lines.flush();
    assert.match(out, /next$/);
    assertNoPart(out, KEY);
  });

  it('masks every string written to the output channel, and leaves the rest of the channel alone', () => {
    const written: unknown[] = [];
    const channel = {
      name: 'EvalLens',
      info: (...a: unknown[]) => void written.push(...a),
      error: (e: unknown) => void written.push(e),
      show: () => 'shown',
    };
    const output = maskedChannel(channel);
    output.info(`spawn failed: ${KEY}`);
    output.error(new Error(`cannot start: ${KEY}`));
    assert.equal(output.name, 'EvalLens');
    assert.equal(output.show(), 'shown');
    assertNoPart(JSON.stringify(written.map((w) => (w instanceof Error ? `${w.message} ${w.stack ?? ''}` : w))), KEY);
    assert.match(String(written[0]), /^spawn failed: <credential>$/);
  });
});
