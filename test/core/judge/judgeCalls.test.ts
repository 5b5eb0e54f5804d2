import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { Judge } from '../../../core/judge/judge';
import { parseModelConfig, type ModelConfig } from '../../../core/judge/modelConfig';
import { RateLimiter } from '../../../core/judge/rateLimit';
import type { RetryClock } from '../../../core/judge/retry';
import { startFakeLlmServer, type FakeLlmServer } from '../../support/fakeOpenAiServer';

const KEY = 'sk-judge-test-key';

function config(yaml: string): ModelConfig {
  const loaded = parseModelConfig(yaml, '/tmp/judge.yaml', {});
  if (!loaded.ok) assert.fail(JSON.stringify(loaded.problems));
  return loaded.config;
}

/** A clock whose waits return at once and are recorded, so retries are counted, not timed. */
function recordingClock(): RetryClock & { waits: number[] } {
  const waits: number[] = [];
  return { waits, random: () => 0.5, sleep: async (ms) => void waits.push(ms) };
}

describe('judge calls over HTTP (OpenAI and Anthropic protocol test double)', () => {
  let server: FakeLlmServer;
  before(async () => {
    server = await startFakeLlmServer();
  });
  after(async () => {
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
  });

  it('retries a 429 and a 503, waiting as Retry-After says and else with backoff, then answers once', async () => {
    server.enqueue({ status: 429, headers: { 'retry-after': '7' } }, { status: 503 }, { text: 'the answer' });
    const clock = recordingClock();
    const judge = new Judge(
      config(
        `provider: openai\nbase_url: ${server.openAiBaseUrl}\nmodel: m\napi_key_env: K\nretry_initial_delay_ms: 1000\n`,
      ),
      { env: { K: KEY }, fetch, now: () => 0, clock },
    );
    const answer = await judge.ask({ user: 'judge this' }, new AbortController().signal);
    assert.deepEqual(answer, { ok: true, text: 'the answer', attempts: 3 });
    assert.equal(server.requests.length, 3);
    // 7 s from Retry-After; then full jitter in [0, 1000 × 2) with random 0.5.
    assert.deepEqual(clock.waits, [7000, 1000]);
  });

  it('gives up after max_attempts with the reason, never an answer', async () => {
    server.enqueue({ status: 500 }, { status: 500 });
    const clock = recordingClock();
    const judge = new Judge(
      config(`provider: openai\nbase_url: ${server.openAiBaseUrl}\nmodel: m\nmax_attempts: 2\n`),
      { env: {}, fetch, now: () => 0, clock },
    );
    const answer = await judge.ask({ user: 'x' }, new AbortController().signal);
    assert.deepEqual(answer, {
      ok: false,
      reason: 'the judge answered HTTP 500; gave up after 2 attempts',
      attempts: 2,
    });
    assert.equal(server.requests.length, 2);
    assert.equal(server.requests[0]?.headers['authorization'], undefined, 'no key configured, none sent');
  });

  it('does not retry a 400 and says the API error', async () => {
    server.enqueue({ status: 400, body: '{"error":{"message":"model not found"}}' });
    const judge = new Judge(config(`provider: openai\nbase_url: ${server.openAiBaseUrl}\nmodel: m\n`), {
      env: {},
      fetch,
      now: () => 0,
      clock: recordingClock(),
    });
    assert.deepEqual(await judge.ask({ user: 'x' }, new AbortController().signal), {
      ok: false,
      reason: 'the judge answered HTTP 400: model not found',
      attempts: 1,
    });
  });

  it("speaks Anthropic's messages API: /v1/messages, x-api-key, anthropic-version, system apart", async () => {
    server.enqueue({ text: '{"verdict":"PASS"}' });
    const judge = new Judge(
      config(
        `provider: anthropic\nbase_url: ${server.anthropicBaseUrl}\nmodel: claude-test\napi_key_env: K\nmax_tokens: 200\n`,
      ),
      { env: { K: KEY }, fetch, now: () => 0, clock: recordingClock() },
    );
    const answer = await judge.ask({ system: 'be strict', user: 'judge' }, new AbortController().signal);
    assert.deepEqual(answer, { ok: true, text: '{"verdict":"PASS"}', attempts: 1 });
    const request = server.requests[0];
    assert.equal(request?.path, '/v1/messages');
    assert.equal(request?.headers['x-api-key'], KEY);
    assert.equal(request?.headers['anthropic-version'], '2023-06-01');
    assert.equal(request?.headers['authorization'], undefined);
    assert.deepEqual(request?.body, {
      model: 'claude-test',
      max_tokens: 200,
      temperature: 0,
      system: 'be strict',
      messages: [{ role: 'user', content: 'judge' }],
    });
  });

  it('says so when the key variable is unset, without a request and without taking a rate-limit turn', async () => {
    const limiter = new RateLimiter(1, {
      now: () => 0,
      sleep: async () => assert.fail('a call skipped for missing credentials never waits'),
    });
    const judge = new Judge(
      config(
        `provider: openai\nbase_url: ${server.openAiBaseUrl}\nmodel: m\napi_key_env: UNSET_KEY\nexecs_per_minute: 1\n`,
      ),
      { env: {}, fetch, now: () => 0, clock: recordingClock(), limiter: () => limiter },
    );
    for (let i = 0; i < 3; i++) {
      const answer = await judge.ask({ user: 'x' }, new AbortController().signal);
      assert.deepEqual(answer, {
        ok: false,
        reason:
          'missing credentials for m: the environment variable UNSET_KEY is not set (model config /tmp/judge.yaml)',
        attempts: 0,
        missingCredentials: true,
      });
    }
    assert.equal(limiter.inWindow(), 0);
    assert.equal(server.requests.length, 0);
  });

  it('takes a turn under the shared rate limit before each request', async () => {
    let now = 0;
    const waits: number[] = [];
    const limiter = new RateLimiter(2, { now: () => now, sleep: async (ms) => void (waits.push(ms), (now += ms)) });
    server.enqueue({ text: 'a' }, { text: 'b' }, { text: 'c' });
    const judge = new Judge(
      config(`provider: openai\nbase_url: ${server.openAiBaseUrl}\nmodel: m\nexecs_per_minute: 2\n`),
      { env: {}, fetch, now: () => now, clock: recordingClock(), limiter: () => limiter },
    );
    const signal = new AbortController().signal;
    const texts = [];
    for (let i = 0; i < 3; i++) {
      const answer = await judge.ask({ user: String(i) }, signal);
      texts.push(answer.ok ? answer.text : answer.reason);
    }
    assert.deepEqual(texts, ['a', 'b', 'c']);
    assert.deepEqual(waits, [60_000], 'the third request waits for the first to leave the minute');
  });
});
