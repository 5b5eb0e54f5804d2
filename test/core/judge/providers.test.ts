import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseRunConfig } from '../../../core/config/parseRunConfig';
import { createEngineContext } from '../../../core/engineContext';
import { googleAccessTokenWith } from '../../../core/judge/googleCredentials';
import { Judge, type JudgeAnswer } from '../../../core/judge/judge';
import { parseModelConfig, type ModelConfig } from '../../../core/judge/modelConfig';
import type { RetryClock } from '../../../core/judge/retry';
import { startFakeGeminiServer, type FakeGeminiServer } from '../../support/fakeGeminiServer';
import { startFakeGoogleTokenServer, type FakeGoogleTokenServer } from '../../support/fakeGoogleTokenServer';
import { startFakeLlmServer, type FakeLlmServer } from '../../support/fakeOpenAiServer';
import { startFakeVertexClaudeServer, type FakeVertexClaudeServer } from '../../support/fakeVertexClaudeServer';

const GEMINI_KEY = 'AIza-test-gemini-key-0123456789';
const OPENAI_KEY = 'sk-test-openai-key-abcdef';
/** A HOME with no gcloud folder: no well-known ADC file. */
const EMPTY_HOME = mkdtempSync(join(tmpdir(), 'evallens-home-'));

function load(yaml: string, env: Readonly<Record<string, string>> = {}): ModelConfig {
  const loaded = parseModelConfig(yaml, '/repo/datasets/model_configs/judge_model.yaml', env);
  if (!loaded.ok) assert.fail(loaded.problems.map((p) => p.message).join('\n'));
  return loaded.config;
}

function loadProblem(yaml: string, env: Readonly<Record<string, string>> = {}): string {
  const loaded = parseModelConfig(yaml, '/repo/datasets/model_configs/judge_model.yaml', env);
  assert.ok(!loaded.ok, 'the model config should be refused');
  return loaded.problems
    .filter((p) => p.severity === 'error')
    .map((p) => `${p.range.start.line + 1}:${p.range.start.column + 1} ${p.message}`)
    .join('\n');
}

function clock(): RetryClock & { waits: number[] } {
  const waits: number[] = [];
  return { waits, random: () => 0.5, sleep: async (ms) => void waits.push(ms) };
}

/** One judge call; the Google sign-in is the engine context's (a host's), as realJudge's is. */
function ask(
  config: ModelConfig,
  env: Readonly<Record<string, string>>,
  waits = clock(),
  engine = createEngineContext(),
): Promise<JudgeAnswer> {
  return new Judge(config, {
    env,
    fetch,
    now: () => 0,
    clock: waits,
    googleToken: googleAccessTokenWith(engine.googleAuths),
  }).ask({ user: 'Is the goal met? Answer in JSON.' }, new AbortController().signal);
}

describe('Gemini on Vertex AI (generateContent), with application-default credentials through google-auth-library', () => {
  let gemini: FakeGeminiServer;
  let tokens: FakeGoogleTokenServer;
  before(async () => {
    gemini = await startFakeGeminiServer();
    tokens = await startFakeGoogleTokenServer();
  });
  after(async () => {
    await Promise.all([gemini.close(), tokens.close()]);
  });

  it("reads EvalBench's gcp_vertex_gemini config and posts generateContent with the ADC token; the token is fetched once per host and reused", async () => {
    const config = load(
      `generator: gcp_vertex_gemini\nvertex_model: gemini-2.5-pro\nbase_prompt: ""\nexecs_per_minute: 5\nbase_url: ${gemini.url}\n`,
      { EVAL_GCP_PROJECT_ID: 'my-proj', EVAL_GCP_PROJECT_REGION: 'us-central1' },
    );
    assert.equal(config.provider, 'vertex_gemini');
    assert.equal(config.execsPerMinute, 5);
    gemini.enqueue({ text: '{"verdict": "PASS"}' }, { text: '{"verdict": "FAIL"}' }, { text: '{"verdict": "PASS"}' });
    const env = { GOOGLE_APPLICATION_CREDENTIALS: tokens.credentialsFile, HOME: EMPTY_HOME };
    const host = createEngineContext();
    assert.deepEqual(await ask(config, env, clock(), host), { ok: true, text: '{"verdict": "PASS"}', attempts: 1 });
    assert.deepEqual(await ask(config, env, clock(), host), { ok: true, text: '{"verdict": "FAIL"}', attempts: 1 });
    assert.equal(tokens.requests.length, 1, 'one token refresh for both calls of one host');
    // Another host (engine context) shares no sign-in with the first: it gets its own token.
    assert.deepEqual(await ask(config, env, clock(), createEngineContext()), {
      ok: true,
      text: '{"verdict": "PASS"}',
      attempts: 1,
    });
    assert.equal(tokens.requests.length, 2, 'a second engine context signs in for itself');
    assert.match(tokens.requests[0]?.raw ?? '', /grant_type=refresh_token/);
    const [first] = gemini.requests;
    assert.equal(first?.method, 'POST');
    assert.equal(
      first?.path,
      '/v1/projects/my-proj/locations/us-central1/publishers/google/models/gemini-2.5-pro:generateContent',
    );
    assert.equal(first?.headers['authorization'], 'Bearer ya29.test-token-1');
    assert.deepEqual(first?.json, {
      contents: [{ role: 'user', parts: [{ text: 'Is the goal met? Answer in JSON.' }] }],
      generationConfig: { temperature: 0, maxOutputTokens: 1024 },
    });
  });

  it('uses the regional host, or aiplatform.googleapis.com for the global location', () => {
    assert.equal(
      load('generator: gcp_vertex_gemini\nvertex_model: g\ngcp_project_id: p\ngcp_region: europe-west4\n').baseUrl,
      'https://europe-west4-aiplatform.googleapis.com',
    );
    assert.equal(
      load('generator: gcp_vertex_gemini\nvertex_model: g\ngcp_project_id: p\ngcp_region: global\n').baseUrl,
      'https://aiplatform.googleapis.com',
    );
    assert.equal(
      load('provider: vertex_gemini\nmodel: g\nproject: p\nlocation: us-east5\n').baseUrl,
      'https://us-east5-aiplatform.googleapis.com',
    );
  });

  it("retries Vertex's 429 RESOURCE_EXHAUSTED as the server says, then answers", async () => {
    const config = load(
      `provider: vertex_gemini\nmodel: gemini-2.5-flash\nproject: p\nlocation: global\nbase_url: ${gemini.url}\ntemperature: 0.2\nmax_tokens: 64\n`,
    );
    gemini.requests.length = 0;
    gemini.enqueue(
      {
        status: 429,
        headers: { 'retry-after': '2' },
        body: '{"error":{"code":429,"message":"Resource exhausted","status":"RESOURCE_EXHAUSTED"}}',
      },
      { text: 'ok' },
    );
    const waits = clock();
    assert.deepEqual(await ask(config, { GOOGLE_APPLICATION_CREDENTIALS: tokens.credentialsFile }, waits), {
      ok: true,
      text: 'ok',
      attempts: 2,
    });
    assert.deepEqual(waits.waits, [2000]);
    assert.equal(
      gemini.requests[1]?.path,
      '/v1/projects/p/locations/global/publishers/google/models/gemini-2.5-flash:generateContent',
    );
    assert.deepEqual((gemini.requests[1]?.json as { generationConfig: unknown }).generationConfig, {
      temperature: 0.2,
      maxOutputTokens: 64,
    });
  });

  it("says why an answer has no text (a blocked prompt), and a refused token as a status, never the token endpoint's words", async () => {
    const config = load(
      `provider: vertex_gemini\nmodel: g\nproject: p\nlocation: us-central1\nbase_url: ${gemini.url}\n`,
    );
    gemini.enqueue({ status: 200, body: '{"promptFeedback":{"blockReason":"SAFETY"}}' });
    assert.deepEqual(await ask(config, { GOOGLE_APPLICATION_CREDENTIALS: tokens.credentialsFile }), {
      ok: false,
      reason: 'the judge refused the prompt (promptFeedback.blockReason SAFETY)',
      attempts: 1,
    });
    const refusing = await startFakeGoogleTokenServer({ status: 400 });
    try {
      const answer = await ask(config, { GOOGLE_APPLICATION_CREDENTIALS: refusing.credentialsFile });
      assert.equal(answer.ok, false);
      assert.ok(
        !answer.ok && answer.missingCredentials === undefined,
        'refused credentials are an error, not missing ones',
      );
      assert.equal(
        !answer.ok && answer.reason,
        'cannot get a Google access token from the file GOOGLE_APPLICATION_CREDENTIALS names: the token endpoint answered HTTP 400',
      );
      assert.doesNotMatch(JSON.stringify(answer), /TEST-REFRESH-SECRET|TEST-CLIENT-SECRET/);
    } finally {
      await refusing.close();
    }
  });

  it('is skipped, not called, without application-default credentials, and says what to do', async () => {
    gemini.requests.length = 0;
    const config = load(
      `provider: vertex_gemini\nmodel: gemini-2.5-pro\nproject: p\nlocation: us-central1\nbase_url: ${gemini.url}\n`,
    );
    // METADATA_SERVER_DETECTION: none, as on a laptop, even when the tests run on a Google Cloud VM.
    const answer = await ask(config, { HOME: EMPTY_HOME, METADATA_SERVER_DETECTION: 'none' });
    assert.equal(answer.ok, false);
    assert.ok(!answer.ok && answer.missingCredentials === true);
    assert.match(
      !answer.ok ? answer.reason : '',
      /^missing credentials for gemini-2\.5-pro on Vertex AI: no Google application-default credentials were found: set GOOGLE_APPLICATION_CREDENTIALS/,
    );
    assert.equal(gemini.requests.length, 0);
  });

  it('sends Google credentials only over https to googleapis.com or to a loopback address', () => {
    assert.match(
      loadProblem('provider: vertex_gemini\nmodel: g\nproject: p\nlocation: l\nbase_url: http://judge.example.com\n'),
      /^5:11 base_url must be an https:\/\/…googleapis\.com address or a loopback address .*saw http:\/\/judge\.example\.com$/,
    );
    assert.match(
      loadProblem('generator: gcp_vertex_gemini\nvertex_model: g\nbase_url: https://googleapis.com.evil.example\n'),
      /^3:11 base_url must be/,
    );
    assert.match(
      loadProblem('provider: gemini\nmodel: g\nbase_url: http://eu-aiplatform.googleapis.com\n'),
      /saw http:\/\/eu-aiplatform\.googleapis\.com/,
    );
    load('provider: vertex_gemini\nmodel: g\nbase_url: https://us-central1-aiplatform.googleapis.com\n');
    load('provider: vertex_anthropic\nmodel: g\nbase_url: http://[::1]:8080\n');
    load('provider: gemini\nmodel: g\nbase_url: http://localhost:9999\n');
  });
});

describe('the Gemini API (generateContent with an API key)', () => {
  let gemini: FakeGeminiServer;
  before(async () => {
    gemini = await startFakeGeminiServer();
  });
  after(async () => {
    await gemini.close();
  });

  it("takes EvalBench's fallback: with no Vertex project and region, GEMINI_API_KEY in x-goog-api-key", async () => {
    const config = load(
      `generator: gcp_vertex_gemini\nvertex_model: gemini-2.5-pro\nbase_prompt: "You are a judge. "\nbase_url: ${gemini.url}\n`,
    );
    assert.equal(config.provider, 'gemini');
    gemini.enqueue({ text: 'yes' });
    assert.deepEqual(await ask(config, { GEMINI_API_KEY: GEMINI_KEY }), { ok: true, text: 'yes', attempts: 1 });
    const [request] = gemini.requests;
    assert.equal(request?.path, '/v1beta/models/gemini-2.5-pro:generateContent');
    assert.equal(request?.headers['x-goog-api-key'], GEMINI_KEY);
    assert.equal(request?.headers['authorization'], undefined);
    assert.deepEqual(
      (request?.json as { contents: unknown }).contents,
      [{ role: 'user', parts: [{ text: 'You are a judge. Is the goal met? Answer in JSON.' }] }],
      'base_prompt goes first, as EvalBench sends it',
    );
  });

  it('masks the key where an API error quotes it, and does not retry a 400', async () => {
    const config = load(`provider: gemini\nmodel: gemini-2.5-flash\nbase_url: ${gemini.url}\n`);
    gemini.enqueue({
      status: 400,
      body: JSON.stringify({
        error: {
          code: 400,
          message: `API key ${GEMINI_KEY} not valid. Please pass a valid API key.`,
          status: 'INVALID_ARGUMENT',
        },
      }),
    });
    const answer = await ask(config, { GEMINI_API_KEY: GEMINI_KEY });
    assert.deepEqual(answer, {
      ok: false,
      reason: 'the judge answered HTTP 400: API key <credential> not valid. Please pass a valid API key.',
      attempts: 1,
    });
  });

  it('is skipped when GEMINI_API_KEY is not set, naming both ways to sign in, and never connects', async () => {
    const before = gemini.connections();
    const config = load(`generator: gcp_vertex_gemini\nvertex_model: gemini-2.5-pro\nbase_url: ${gemini.url}\n`);
    const answer = await ask(config, {});
    assert.ok(!answer.ok && answer.missingCredentials === true);
    assert.equal(
      !answer.ok && answer.reason,
      'missing credentials for gemini-2.5-pro: the environment variable GEMINI_API_KEY is not set (model config /repo/datasets/model_configs/judge_model.yaml) (the file names no gcp_project_id/gcp_region and EVAL_GCP_PROJECT_ID/EVAL_GCP_PROJECT_REGION are not both set, so the Gemini API is used; set those two for Vertex AI instead)',
    );
    assert.equal(gemini.connections(), before);
  });
});

describe('Claude on Vertex AI (rawPredict)', () => {
  let claude: FakeVertexClaudeServer;
  let tokens: FakeGoogleTokenServer;
  before(async () => {
    claude = await startFakeVertexClaudeServer();
    tokens = await startFakeGoogleTokenServer();
  });
  after(async () => {
    await Promise.all([claude.close(), tokens.close()]);
  });

  it("reads EvalBench's gcp_vertex_claude config and posts Anthropic's body with anthropic_version vertex-2023-10-16", async () => {
    const config = load(
      `generator: gcp_vertex_claude\nvertex_model: claude-3-5-sonnet-v2@20241022\nbase_prompt: ""\nmax_tokens: 512\ngcp_project_id: proj-1\ngcp_region: us-east5\nbase_url: ${claude.url}\n`,
    );
    assert.equal(config.provider, 'vertex_anthropic');
    claude.enqueue({ status: 503 }, { text: '{"verdict": "PASS"}' });
    assert.deepEqual(await ask(config, { GOOGLE_APPLICATION_CREDENTIALS: tokens.credentialsFile }), {
      ok: true,
      text: '{"verdict": "PASS"}',
      attempts: 2,
    });
    const request = claude.requests[1];
    assert.equal(
      request?.path,
      '/v1/projects/proj-1/locations/us-east5/publishers/anthropic/models/claude-3-5-sonnet-v2@20241022:rawPredict',
    );
    assert.equal(request?.headers['authorization'], `Bearer ${tokens.issued[0] ?? '?'}`);
    assert.deepEqual(request?.json, {
      anthropic_version: 'vertex-2023-10-16',
      max_tokens: 512,
      temperature: 0,
      messages: [{ role: 'user', content: 'Is the goal met? Answer in JSON.' }],
    });
  });

  it("refuses a 403 without the server's words", async () => {
    const config = load(
      `generator: gcp_vertex_claude\nvertex_model: claude-sonnet-4-5\ngcp_project_id: proj-1\ngcp_region: us-east5\nbase_url: ${claude.url}\n`,
    );
    claude.enqueue({ status: 403, body: `{"error":{"message":"token ${tokens.issued[0] ?? ''} lacks permission"}}` });
    assert.deepEqual(await ask(config, { GOOGLE_APPLICATION_CREDENTIALS: tokens.credentialsFile }), {
      ok: false,
      reason:
        'the judge refused the request (HTTP 403): check that the Google account of the application-default credentials may use claude-sonnet-4-5 on Vertex AI in the project of /repo/datasets/model_configs/judge_model.yaml',
      attempts: 1,
    });
  });

  it('reads an unset !ENV project as unset, not as a broken file: the judge is skipped, its reason says what is missing', async () => {
    const config = load(
      `generator: gcp_vertex_claude\nvertex_model: claude-sonnet-4-5\ngcp_project_id: !ENV \${EVAL_GCP_PROJECT_ID}\ngcp_region: us-east5\nbase_url: ${claude.url}\n`,
    );
    assert.equal(config.project, undefined);
    const answer = await ask(config, { GOOGLE_APPLICATION_CREDENTIALS: tokens.credentialsFile });
    assert.ok(!answer.ok && answer.missingCredentials === true);
    assert.match(
      !answer.ok ? answer.reason : '',
      /Vertex AI needs a project \(gcp_project_id or EVAL_GCP_PROJECT_ID\)\)$/,
    );
  });

  it('is skipped when no project or region is known, saying which', async () => {
    const config = load(`generator: gcp_vertex_claude\nvertex_model: claude-sonnet-4-5\nbase_url: ${claude.url}\n`);
    const answer = await ask(config, { GOOGLE_APPLICATION_CREDENTIALS: tokens.credentialsFile });
    assert.ok(!answer.ok && answer.missingCredentials === true);
    assert.equal(
      !answer.ok && answer.reason,
      'missing settings for claude-sonnet-4-5 on Vertex AI (Vertex AI needs a project (gcp_project_id or EVAL_GCP_PROJECT_ID) and a region (gcp_region or EVAL_GCP_PROJECT_REGION))',
    );
  });
});

describe("EvalBench's agent generator configs as judge model configs", () => {
  let openAi: FakeLlmServer;
  before(async () => {
    openAi = await startFakeLlmServer();
  });
  after(async () => {
    await openAi.close();
  });

  it('calls the model a gemini_cli config names on Vertex AI, with the project and region of the file', () => {
    // datasets/model_configs/gemini_cli_bigtable_model.yaml, as EvalBench's bigtable run config uses it for its judges.
    const config = load(
      [
        'gemini_cli_version: "@google/gemini-cli@0.25.1"',
        'generator: gemini_cli',
        'model: "gemini-2.5-flash"',
        'vertex_model: "gemini-2.5-flash"',
        'gcp_project_id: "cloud-bigtable-spacewalk"',
        'gcp_region: "us-central1"',
        'execs_per_minute: 180',
        'env:',
        '  GOOGLE_CLOUD_PROJECT: "cloud-bigtable-spacewalk"',
        '  GOOGLE_GENAI_USE_VERTEXAI: "true"',
        '',
      ].join('\n'),
    );
    assert.deepEqual(
      [config.provider, config.model, config.project, config.location, config.execsPerMinute],
      ['vertex_gemini', 'gemini-2.5-flash', 'cloud-bigtable-spacewalk', 'us-central1', 180],
    );
  });

  it('calls Claude on Vertex for claude_code with use_vertex, from its env block, placeholders left out', () => {
    const config = load(
      'generator: claude_code\nmodel: "claude-opus-4-6"\nuse_vertex: true\nenv:\n  ANTHROPIC_VERTEX_PROJECT_ID: "<project>"\n  GOOGLE_CLOUD_PROJECT: "astana-evaluation"\n  CLOUD_ML_REGION: "global"\n',
    );
    assert.deepEqual(
      [config.provider, config.project, config.location, config.baseUrl],
      ['vertex_anthropic', 'astana-evaluation', 'global', 'https://aiplatform.googleapis.com'],
    );
    const direct = load(
      'generator: claude_code\nmodel: "claude-opus-4-6"\nuse_vertex: false\nenv:\n  ANTHROPIC_API_KEY: <API_KEY>\n',
    );
    assert.deepEqual([direct.provider, direct.apiKeyEnv], ['anthropic', 'ANTHROPIC_API_KEY']);
  });

  it("calls OpenAI for codex_cli's model with OPENAI_API_KEY", async () => {
    const config = load(
      `generator: codex_cli\nmodel: "gpt-5.5"\nopenai_api_key_secret: "projects/1/secrets/OPENAI_API_KEY/versions/1"\nbase_url: ${openAi.openAiBaseUrl}\n`,
    );
    openAi.enqueue({ text: 'fine' });
    assert.deepEqual(await ask(config, { OPENAI_API_KEY: OPENAI_KEY }), { ok: true, text: 'fine', attempts: 1 });
    assert.equal(openAi.requests[0]?.path, '/v1/chat/completions');
    assert.equal(openAi.requests[0]?.headers['authorization'], `Bearer ${OPENAI_KEY}`);
    assert.equal((openAi.requests[0]?.body as { model: string }).model, 'gpt-5.5');
  });

  it('refuses an agent with no model, and a generator that is not a model, at the generator key, saying what to use', () => {
    assert.equal(
      loadProblem(
        'gemini_cli_version: "@google/gemini-cli@0.25.1"\ngenerator: gemini_cli\nenv:\n  GOOGLE_CLOUD_PROJECT: "p"\n',
      ),
      '2:1 gemini_cli runs the Gemini CLI agent with its default model, and this file names no model for a judge to call: add `vertex_model: gemini-2.5-flash` (or another Gemini model) to it, or point model_config at a gcp_vertex_gemini config such as datasets/model_configs/gemini_2.5_pro_model.yaml',
    );
    assert.match(
      loadProblem('generator: agy_cli\nmodel: "Gemini 3.1 Pro (High)"\n'),
      /^1:1 agy_cli is an agent whose model is named for its own UI \("Gemini 3\.1 Pro \(High\)"\)/,
    );
    assert.match(
      loadProblem('generator: querydata\nexecs_per_minute: 5\n'),
      /^1:1 querydata is not a model EvalLens can ask for a verdict: a judge needs gcp_vertex_gemini, gcp_vertex_claude/,
    );
    assert.match(
      loadProblem('generator: gcp_vertex_gemini\nbase_prompt: ""\n'),
      /^1:1 the config names no Gemini model: `vertex_model` is required/,
    );
  });
});

describe('loading a run config whose judge uses an EvalBench model config', () => {
  it('loads without an error and says at model_config which model the judge calls, where, and what it needs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'evallens-judge-notice-'));
    writeFileSync(
      join(dir, 'gemini_2.5_pro_model.yaml'),
      'generator: gcp_vertex_gemini\nvertex_model: gemini-2.5-pro\nbase_prompt: ""\nexecs_per_minute: 5\n',
    );
    const yaml =
      'cases: [{id: a, input: q, output: x}]\nscorers:\n  goal_completion: {model_config: gemini_2.5_pro_model.yaml}\n  contains: {value: x}\n';
    const parsed = parseRunConfig(yaml, join(dir, 'run.eval.yaml'), {}, { fileExists: existsSync });
    assert.ok(parsed.config !== undefined);
    assert.deepEqual(
      parsed.problems.map((p) => `${p.severity} ${p.range.start.line + 1}:${p.range.start.column + 1} ${p.message}`),
      [
        `information 3:35 goal_completion: EvalBench's gcp_vertex_gemini config ${join(dir, 'gemini_2.5_pro_model.yaml')}: the judge calls gemini-2.5-pro through the Gemini API with the key in GEMINI_API_KEY (the file names no gcp_project_id/gcp_region and EVAL_GCP_PROJECT_ID/EVAL_GCP_PROJECT_REGION are not both set, so the Gemini API is used; set those two for Vertex AI instead); without it, its results are skipped`,
      ],
    );
  });
});
