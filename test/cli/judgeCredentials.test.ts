import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureBuilt, runCli } from '../support/cli';
import { startFakeGeminiServer, type FakeGeminiServer } from '../support/fakeGeminiServer';
import { startFakeGoogleTokenServer, type FakeGoogleTokenServer } from '../support/fakeGoogleTokenServer';
import { startFakeVertexClaudeServer, type FakeVertexClaudeServer } from '../support/fakeVertexClaudeServer';

const GEMINI_KEY = 'AIza-cli-secret-gemini-key-42';
let work = '';
let home = '';
let gemini: FakeGeminiServer;
let claude: FakeVertexClaudeServer;
let tokens: FakeGoogleTokenServer;

/** The environment of a person with no Google or Gemini credentials at all (and no metadata server probe). */
const BARE_ENV = {
  GEMINI_API_KEY: undefined,
  GOOGLE_APPLICATION_CREDENTIALS: undefined,
  CLOUDSDK_CONFIG: undefined,
  EVAL_GCP_PROJECT_ID: undefined,
  EVAL_GCP_PROJECT_REGION: undefined,
  METADATA_SERVER_DETECTION: 'none',
};

before(async () => {
  ensureBuilt();
  gemini = await startFakeGeminiServer();
  claude = await startFakeVertexClaudeServer();
  tokens = await startFakeGoogleTokenServer();
  work = mkdtempSync(join(tmpdir(), 'evallens-judge-cred-'));
  home = mkdtempSync(join(tmpdir(), 'evallens-judge-home-'));
  // EvalBench's own model configs, with the loopback doubles as base_url.
  writeFileSync(
    join(work, 'gemini_2.5_pro_model.yaml'),
    `generator: gcp_vertex_gemini\nvertex_model: gemini-2.5-pro\nbase_prompt: ""\nexecs_per_minute: 5\nbase_url: ${gemini.url}\n`,
  );
  writeFileSync(
    join(work, 'claude_model.yaml'),
    `generator: gcp_vertex_claude\nvertex_model: claude-sonnet-4-5\nbase_prompt: ""\nmax_tokens: 1024\ngcp_project_id: proj-1\ngcp_region: us-east5\nbase_url: ${claude.url}\n`,
  );
  const cases = [
    { id: 'a', input: 'refund order 7', output: 'refund issued' },
    { id: 'b', input: 'refund order 8', output: 'refused' },
  ];
  const scorers = [
    '  contains: {value: refund}',
    '  goal_completion: {model_config: gemini_2.5_pro_model.yaml}',
    '  behavioral_metrics: {model_config: claude_model.yaml}',
  ].join('\n');
  writeFileSync(join(work, 'judged.eval.yaml'), `scorers:\n${scorers}\ncases: ${JSON.stringify(cases)}\n`);
});

after(async () => {
  await Promise.all([gemini.close(), claude.close(), tokens.close()]);
  rmSync(work, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

interface ReportJson {
  summary: {
    passed: number;
    failed: number;
    skipped: number;
    total: number;
    missingCredentials?: { results: number; reasons: string[] };
  };
  results: { caseId: string; scorer: string; status: string; reason: string }[];
}

describe('judges whose credentials are absent', () => {
  it('validate loads the config; run skips those judge results with the reason, runs the rest, and the summary counts them', async () => {
    const env = { ...BARE_ENV, HOME: home };
    const validate = await runCli(['validate', 'judged.eval.yaml'], { cwd: work, env });
    assert.equal(validate.code, 0, validate.stderr);

    const run = await runCli(['run', 'judged.eval.yaml', '--reporter', 'json', '--out', 'report.json'], {
      cwd: work,
      env,
    });
    const report = JSON.parse(readFileSync(join(work, 'report.json'), 'utf8')) as ReportJson;
    const byScorer = (scorer: string) => report.results.filter((r) => r.scorer === scorer);
    assert.deepEqual(
      byScorer('contains').map((r) => r.status),
      ['pass', 'fail'],
      'the deterministic scorer still runs',
    );
    for (const r of [...byScorer('goal_completion'), ...byScorer('behavioral_metrics')])
      assert.equal(r.status, 'skipped');
    assert.match(
      byScorer('goal_completion')[0]?.reason ?? '',
      /^the judge was not called: missing credentials for gemini-2\.5-pro: the environment variable GEMINI_API_KEY is not set/,
    );
    assert.match(
      byScorer('behavioral_metrics')[0]?.reason ?? '',
      /^the judge was not called: missing credentials for claude-sonnet-4-5 on Vertex AI: no Google application-default credentials were found/,
    );
    assert.equal(report.summary.missingCredentials?.results, 4);
    assert.equal(report.summary.missingCredentials?.reasons.length, 2);
    assert.match(
      run.stdout,
      /\n4 judge results were skipped for missing credentials:\n {5}the judge was not called: missing credentials for gemini-2\.5-pro/,
    );
    assert.equal(run.code, 1, 'case b fails on contains');
    assert.equal(gemini.connections() + claude.connections() + tokens.connections(), 0, 'nothing was called');
  });
});

describe('untrusted runs', () => {
  it('skip the Vertex and Gemini judges before any call: no token request, no model request', async () => {
    const env = {
      ...BARE_ENV,
      HOME: home,
      GEMINI_API_KEY: GEMINI_KEY,
      GOOGLE_APPLICATION_CREDENTIALS: tokens.credentialsFile,
    };
    const run = await runCli(
      ['run', 'judged.eval.yaml', '--untrusted', '--reporter', 'json', '--out', 'untrusted.json'],
      { cwd: work, env },
    );
    const report = JSON.parse(readFileSync(join(work, 'untrusted.json'), 'utf8')) as ReportJson;
    assert.deepEqual(
      report.results.filter((r) => r.scorer !== 'contains').map((r) => `${r.status} ${r.reason}`),
      Array(4).fill('skipped workspace is not trusted'),
    );
    assert.equal(report.summary.missingCredentials, undefined);
    assert.equal(gemini.connections() + claude.connections() + tokens.connections(), 0, run.stderr);
  });
});

describe('judge credentials in outputs', () => {
  it("never writes the API key, the access token or the credentials file's secrets to stdout, stderr, the report or the run folder", async () => {
    // Both hosted APIs answer with errors that quote the credential they were sent.
    gemini.enqueue(
      {
        status: 400,
        body: JSON.stringify({
          error: { code: 400, message: `API key ${GEMINI_KEY} not valid`, status: 'INVALID_ARGUMENT' },
        }),
      },
      {
        status: 400,
        body: JSON.stringify({
          error: { code: 400, message: `API key ${GEMINI_KEY} not valid`, status: 'INVALID_ARGUMENT' },
        }),
      },
    );
    claude.enqueue(
      { status: 400, body: '{"error":{"message":"bad request for token ya29.test-token-1"}}' },
      { status: 400, body: '{"error":{"message":"bad request for token ya29.test-token-1"}}' },
    );
    const env = {
      ...BARE_ENV,
      HOME: home,
      GEMINI_API_KEY: GEMINI_KEY,
      GOOGLE_APPLICATION_CREDENTIALS: tokens.credentialsFile,
    };
    const run = await runCli(
      [
        'run',
        'judged.eval.yaml',
        '--reporter',
        'json',
        '--out',
        'report2.json',
        '--reporter',
        'jsonl',
        '--out',
        'events.jsonl',
        '--concurrency',
        '1',
      ],
      { cwd: work, env },
    );
    assert.equal(gemini.requests.length, 2);
    assert.equal(gemini.requests[0]?.headers['x-goog-api-key'], GEMINI_KEY);
    assert.equal(claude.requests[0]?.headers['authorization'], 'Bearer ya29.test-token-1');
    const report = JSON.parse(readFileSync(join(work, 'report2.json'), 'utf8')) as ReportJson;
    assert.match(
      report.results.find((r) => r.scorer === 'goal_completion')?.reason ?? '',
      /API key <credential> not valid/,
    );
    assert.match(
      report.results.find((r) => r.scorer === 'behavioral_metrics')?.reason ?? '',
      /bad request for token <credential>/,
    );
    const secrets = [GEMINI_KEY, 'ya29.test-token', 'TEST-REFRESH-SECRET', 'TEST-CLIENT-SECRET'];
    const outputs = [run.stdout, run.stderr, ...filesUnder(work).map((f) => readFileSync(f, 'utf8'))];
    assert.ok(
      filesUnder(work).some((f) => f.includes('.evallens')),
      'the run folder was written and is searched',
    );
    for (const secret of secrets)
      for (const text of outputs) assert.ok(!text.includes(secret), `${secret} appears in an output`);
  });
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}
