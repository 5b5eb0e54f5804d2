import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseJudgeObject, readBoolean, readChoice, readCount } from '../../../core/judge/answerParser';
import { parseModelConfig, problemLine } from '../../../core/judge/modelConfig';
import { RateLimiter } from '../../../core/judge/rateLimit';
import { backoffMs, parseRetryAfter, withRetry, type AttemptOutcome } from '../../../core/judge/retry';

describe('judge answers', () => {
  it('finds the one JSON object: whole, fenced, or inside prose', () => {
    assert.deepEqual(parseJudgeObject(' {"a": 1} '), { ok: true, value: { a: 1 } });
    assert.deepEqual(parseJudgeObject('Sure!\n```json\n{"a": 2}\n```\nHope that helps.'), {
      ok: true,
      value: { a: 2 },
    });
    assert.deepEqual(parseJudgeObject('My verdict: {"a": "}{", "b": {"c": 3}} — final.'), {
      ok: true,
      value: { a: '}{', b: { c: 3 } },
    });
    assert.deepEqual(parseJudgeObject('```\n{"a": 1}\n```\nagain: {"a": 1}'), { ok: true, value: { a: 1 } });
  });

  it('refuses what is not exactly one object, saying why', () => {
    assert.deepEqual(parseJudgeObject(''), { ok: false, reason: "the judge's answer is empty" });
    assert.match(readReason(parseJudgeObject('PASS, clearly.')), /holds no JSON object \(14 characters of text\)/);
    assert.match(readReason(parseJudgeObject('{"a": 1,}')), /not valid JSON/);
    assert.match(readReason(parseJudgeObject('{"a": 1} or {"a": 2}')), /2 different JSON objects/);
    assert.match(
      readReason(parseJudgeObject('```json\n{"a": 1}\n```\n```json\n{"a": 2}\n```')),
      /2 different JSON objects in fenced blocks/,
    );
  });

  it('reads fields strictly, with a reason for each mistake', () => {
    assert.deepEqual(readChoice({ v: 'pass' }, 'v', ['PASS', 'FAIL']), { ok: true, value: 'PASS' });
    assert.match(
      readReason(readChoice({ v: 3 }, 'v', ['PASS', 'FAIL'])),
      /no "v" string \(expected one of PASS, FAIL; got a number\)/,
    );
    assert.deepEqual(readBoolean({ c: 'True' }, 'c'), { ok: true, value: true });
    assert.deepEqual(readCount({ n: '2' }, 'n', 0, 10), { ok: true, value: 2 });
    assert.match(readReason(readCount({ n: 1.5 }, 'n', 0, 10)), /no whole number "n"/);
    assert.match(readReason(readCount({ n: 11 }, 'n', 0, 10)), /outside 0–10/);
  });
});

describe('model configs', () => {
  it('fills the defaults and drops a trailing slash', () => {
    const loaded = parseModelConfig(
      'provider: openai\nmodel: gpt-4o-mini\napi_key_env: OPENAI_API_KEY\n',
      '/c/judge.yaml',
      {},
    );
    assert.ok(loaded.ok);
    assert.deepEqual(
      { ...loaded.config },
      {
        file: '/c/judge.yaml',
        provider: 'openai',
        baseUrl: 'https://api.openai.com/v1',
        model: 'gpt-4o-mini',
        apiKeyEnv: 'OPENAI_API_KEY',
        headers: {},
        anthropicVersion: '2023-06-01',
        temperature: 0,
        maxTokens: 1024,
        timeoutMs: 60000,
        maxAttempts: 5,
        retryInitialDelayMs: 1000,
        retryMaxDelayMs: 30000,
      },
    );
    const ollama = parseModelConfig(
      'provider: openai\nbase_url: http://127.0.0.1:11434/v1/\nmodel: llama3\n',
      '/c/j.yaml',
      {},
    );
    assert.equal(ollama.ok && ollama.config.baseUrl, 'http://127.0.0.1:11434/v1');
  });

  it('names the file, line and column of each mistake', () => {
    const loaded = parseModelConfig('provider: openai\nmodel: m\nexecs_per_minute: lots\n', '/c/judge.yaml', {});
    assert.ok(!loaded.ok);
    assert.deepEqual(loaded.problems.map(problemLine), [
      '/c/judge.yaml:3:19: `execs_per_minute` must be an integer, not the string "lots"',
    ]);
    const typo = parseModelConfig('provider: openai\nmodel: m\napi_key: sk-123\n', '/c/judge.yaml', {});
    assert.ok(!typo.ok);
    assert.match(problemLine(typo.problems[0] ?? assert.fail()), /^\/c\/judge\.yaml:3:1: /);
  });

  it('reads an EvalBench generator config as the model it names (providers.test.ts covers each)', () => {
    const loaded = parseModelConfig('generator: gcp_vertex_gemini\nvertex_model: gemini-2.5-pro\n', '/c/gemini.yaml', {
      EVAL_GCP_PROJECT_ID: 'p',
      EVAL_GCP_PROJECT_REGION: 'us-central1',
    });
    assert.ok(loaded.ok);
    assert.deepEqual(
      [loaded.config.provider, loaded.config.model, loaded.config.project, loaded.config.location],
      ['vertex_gemini', 'gemini-2.5-pro', 'p', 'us-central1'],
    );
  });
});

describe('retries and rate limits', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    assert.equal(parseRetryAfter('3', 0), 3000);
    assert.equal(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')), 10_000);
    assert.equal(parseRetryAfter('soon', 0), undefined);
    assert.equal(parseRetryAfter(null, 0), undefined);
  });

  it('backs off exponentially with full jitter, capped', () => {
    const policy = { maxAttempts: 9, initialDelayMs: 100, maxDelayMs: 1000 };
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((n) => backoffMs(n, policy, () => 0.999)),
      [99, 199, 399, 799, 999],
    );
    assert.equal(
      backoffMs(3, policy, () => 0),
      0,
    );
  });

  it('caps a long Retry-After at retry_max_delay_ms and stops waiting when aborted', async () => {
    const waits: number[] = [];
    const controller = new AbortController();
    const outcomes: AttemptOutcome<string>[] = [
      { kind: 'retry', reason: 'HTTP 429', retryAfterMs: 3_600_000 },
      { kind: 'retry', reason: 'HTTP 429' },
    ];
    const result = await withRetry(
      async () => outcomes.shift() ?? { kind: 'done', value: 'x' },
      { maxAttempts: 5, initialDelayMs: 10, maxDelayMs: 500 },
      {
        random: () => 0.5,
        sleep: async (ms, signal) => {
          waits.push(ms);
          if (waits.length === 2) controller.abort();
          if (signal.aborted) throw new Error('aborted');
        },
      },
      controller.signal,
    );
    assert.deepEqual(waits, [500, 10]);
    assert.deepEqual(result, { ok: false, reason: 'HTTP 429; stopped while waiting to retry', attempts: 2 });
  });

  it('lets perMinute requests start in any minute, in the order asked', async () => {
    let now = 1000;
    const limiter = new RateLimiter(3, { now: () => now, sleep: async (ms) => void (now += ms) });
    const signal = new AbortController().signal;
    const started: number[] = [];
    await Promise.all([0, 1, 2, 3, 4].map((i) => limiter.acquire(signal).then(() => started.push(i * 0 + now))));
    // Three at once; the fourth and fifth wait until the first starts are a minute old.
    assert.deepEqual(started, [1000, 1000, 1000, 61000, 61000]);
    assert.equal(limiter.inWindow(), 2);
  });
});

function readReason(read: { ok: boolean; reason?: string }): string {
  return read.ok ? '' : (read.reason ?? '');
}
