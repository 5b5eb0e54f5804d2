/**
 * A planted key in every output channel the adversarial pass found (issue 13, items 4 and 5): it must
 * appear in no reason, detail, diagnostic or answer, nor any part of it across a cut.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseRunConfig } from '../../../core/config/parseRunConfig';
import { requestCompletion, type CallContext } from '../../../core/judge/client';
import { parseModelConfig, type ModelConfig } from '../../../core/judge/modelConfig';
import { caseRecords } from '../../../core/runner/records';
import { runEval } from '../../../core/runner/run';
import { scoreCase } from '../../../core/runner/scoreCase';
import { stdoutVerdict } from '../../../core/scorers/builtin/subprocessAnswer';
import { maskThenCut } from '../../../shared/text/secretMask';
import { startFakeLlmServer, type FakeLlmServer } from '../../support/fakeOpenAiServer';
import { loadConfig, runWithTarget } from '../target/targetRun';
import { prepareScorers } from '../../../core/runner/prepareScorers';

const KEY = 'sk-planted-0123456789abcdefXYZ';
/** secret_scan's aws_access_key_id detector flags this shape. */
const AWS_KEY = 'AKIAZ3MPLE7Q2RSTUVWX';
const dir = mkdtempSync(join(tmpdir(), 'evallens-secrets-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** No part of `secret` of 8 characters or more anywhere in `text`. */
function assertNoPart(text: string, secret: string): void {
  for (let i = 0; i + 8 <= secret.length; i++)
    assert.ok(!text.includes(secret.slice(i, i + 8)), `"${secret.slice(i, i + 8)}" leaked in: ${text}`);
}

function modelConfig(yaml: string): ModelConfig {
  const loaded = parseModelConfig(yaml, join(dir, 'judge.yaml'), {});
  if (!loaded.ok) assert.fail(loaded.problems.map((p) => p.message).join('\n'));
  return loaded.config;
}

function context(env: Readonly<Record<string, string>>): CallContext {
  return {
    env,
    fetch,
    now: () => 0,
    signal: new AbortController().signal,
    googleToken: async () => ({ kind: 'missing', reason: 'none' }),
  };
}

describe('judge channels', () => {
  let server: FakeLlmServer;
  before(async () => {
    server = await startFakeLlmServer();
  });
  after(async () => {
    await server.close();
  });

  it('masks a key the API error quotes (JSON-escaped) before the 200-character cut', async () => {
    const escaped = [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    server.enqueue({ status: 400, body: `{"error":{"message":"${'x'.repeat(190)}${escaped} was refused"}}` });
    const outcome = await requestCompletion(
      modelConfig(`provider: openai\nbase_url: ${server.openAiBaseUrl}\nmodel: m\napi_key_env: K\n`),
      { user: 'q' },
      context({ K: KEY }),
    );
    assert.equal(outcome.kind, 'failed');
    assertNoPart(JSON.stringify(outcome), KEY);
  });

  it("masks the key in a judge's answer that echoes it (the answer is kept in details)", async () => {
    server.enqueue({ text: `{"verdict": "PASS", "note": "you sent ${KEY}"}` });
    const outcome = await requestCompletion(
      modelConfig(`provider: openai\nbase_url: ${server.openAiBaseUrl}\nmodel: m\napi_key_env: K\n`),
      { user: 'q' },
      context({ K: KEY }),
    );
    assert.equal(outcome.kind, 'done');
    assertNoPart(JSON.stringify(outcome), KEY);
  });

  it("says where the judge is without base_url's user-info or query", async () => {
    const password = 'pw-planted-98765432';
    const queryKey = 'qk-planted-12345678';
    const config = modelConfig(
      `provider: openai\nbase_url: "http://judge:${password}@127.0.0.1:1/v1?key=${queryKey}"\nmodel: m\n`,
    );
    const outcome = await requestCompletion(config, { user: 'q' }, context({}));
    assert.ok(outcome.kind === 'retry' || outcome.kind === 'failed');
    const text = JSON.stringify(outcome);
    assertNoPart(text, password);
    assertNoPart(text, queryKey);
  });
});

describe('HTTP target', () => {
  let server: Server;
  let url: string;
  before(async () => {
    // The status text echoes the Authorization header, as a hostile or careless server may.
    server = createServer((req, res) => {
      res.writeHead(502, `Bad key ${String(req.headers.authorization)}`);
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/chat`;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('masks a {{env.…}} header value the status text quotes', async () => {
    const config = loadConfig(
      dir,
      [
        'cases:',
        '  - {id: c1, input: hi, expected: x}',
        'target:',
        '  http:',
        `    url: ${url}`,
        '    headers:',
        '      Authorization: "Bearer {{env.PLANTED_KEY}}"',
        'scorers:',
        '  exact_match: {}',
      ],
      { PLANTED_KEY: KEY },
    );
    const results = await runWithTarget(config, { env: { PLANTED_KEY: KEY } });
    assert.ok(results.length > 0);
    assert.match(results[0]?.reason ?? '', /HTTP 502/);
    assertNoPart(JSON.stringify(results), KEY);
  });
});

describe('diagnostics of ${VAR}-expanded values', () => {
  it('never quote the value a variable brought in', () => {
    const text = [
      'cases: [{id: a, input: x, expected: y}]',
      'timeout_ms: "${PLANTED}"',
      'scorers:',
      '  exact_match: {mode: "${PLANTED}"}',
    ].join('\n');
    const problems = parseRunConfig(text, join(dir, 'a.eval.yaml'), { PLANTED: KEY }).problems;
    assert.equal(problems.length, 2);
    assertNoPart(JSON.stringify(problems), KEY);
  });
});

describe('scorer details', () => {
  it('exact_match and edit_similarity keep no flagged secret of the output in details or reasons', async () => {
    const text = [
      'cases: [{id: a, input: x, expected: y}]',
      'scorers:',
      '  exact_match: {}',
      '  edit_similarity: {threshold: 0.9}',
    ].join('\n');
    const parsed = parseRunConfig(text, join(dir, 'b.eval.yaml'), {});
    assert.ok(parsed.config, JSON.stringify(parsed.problems));
    const results = await scoreCase(
      { id: 'a', input: 'x', expected: 'y', output: `the key is ${AWS_KEY} ok` },
      prepareScorers(parsed.config.scorers),
      1,
      { now: () => 0 },
    );
    assert.equal(results.length, 2);
    assert.ok(results.every((r) => r.status === 'fail'));
    assertNoPart(JSON.stringify(results), AWS_KEY);
  });
});

describe('values ${VAR} brought in', () => {
  it("are masked in every result of a run, though the scorer's details quote them", async () => {
    const text = [
      'cases: [{id: a, input: x, output: "other"}]',
      'scorers:',
      '  exact_match: {value: "${PLANTED}"}',
    ].join('\n');
    // Not a shape secret_scan knows: only the run's own list of expanded values can mask it.
    const plain = 'plantedvalue-4417-quietly';
    const parsed = parseRunConfig(text, join(dir, 'd.eval.yaml'), { PLANTED: plain });
    assert.ok(parsed.config, JSON.stringify(parsed.problems));
    const results: unknown[] = [];
    await runEval(parsed.config, caseRecords(parsed.config), {
      runId: 'secrets',
      concurrency: 1,
      onEvent: (e) => void (e.type === 'result' && results.push(e.result)),
    });
    assert.equal(results.length, 1);
    assertNoPart(JSON.stringify(results), plain);
  });
});

describe('errors quote no file content (item 5)', () => {
  it("a schema_path that is not JSON is said by position and kind, without the file's text", () => {
    writeFileSync(join(dir, 'shadow'), 'root:*:20200:0:99999:7:::\ndaemon:*:20200\n');
    const text = ['cases: [{id: a, input: x}]', 'scorers:', '  json_schema: {schema_path: shadow}'].join('\n');
    const problems = parseRunConfig(text, join(dir, 'c.eval.yaml'), {}, { fileExists: () => true }).problems;
    const message = problems.map((p) => p.message).join('\n');
    assert.match(message, /invalid JSON at line 1, column 1/);
    assert.ok(!message.includes('root'), message);
    assert.ok(!message.includes('20200'), message);
  });

  it('a subprocess stdout that is not JSON is said by size and position, never quoted', () => {
    const verdict = stdoutVerdict('root:*:20200:0 not json', 'the scorer command', undefined);
    assert.match(verdict.reason, /not valid JSON \(23 characters; invalid JSON at line 1, column 1/);
    assert.ok(!verdict.reason.includes('root'), verdict.reason);
  });
});

describe('the one masking function', () => {
  it('masks before the cut, so a key straddling the cut leaves no part', () => {
    const shown = maskThenCut(`${'y'.repeat(195)}${KEY} and more`, 200, [KEY]);
    assertNoPart(shown, KEY);
    assert.ok(shown.length <= 201);
  });
});
