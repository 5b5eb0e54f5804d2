import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { UNTRUSTED_REASON } from '../../../core/runner/scoreCase';
import { RESPONSE_CAP_BYTES } from '../../../core/target/httpTarget';
import { LoopbackServer } from './loopbackServer';
import { loadConfig, outcomes, runWithTarget } from './targetRun';
import { waitFor } from '../../support/waitFor';

const dir = mkdtempSync(join(tmpdir(), 'evallens-http-target-'));
const KEY = 'sk-test-h3-5f1c0e2a9b7d';
const env = { H3_TARGET_KEY: KEY };
let server: LoopbackServer;

before(async () => {
  server = await LoopbackServer.start();
});
after(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

function chatConfig(path: string, extra: readonly string[] = []): string[] {
  return [
    'cases:',
    '  - {id: c1, input: "hello", expected: "HELLO", metadata: {lang: en}}',
    '  - {id: c2, input: "bye", expected: "nope", metadata: {lang: fr}}',
    'target:',
    '  http:',
    `    url: ${server.url}${path}`,
    '    headers:',
    '      Authorization: "Bearer {{env.H3_TARGET_KEY}}"',
    '      X-Case: "{{id}}"',
    '    body: {prompt: "{{input}}", meta: "{{metadata}}", note: "case {{id}} in {{metadata.lang}}"}',
    '  output_path: choices[0].message.content',
    ...extra,
    'scorers:',
    '  exact_match: {}',
  ];
}

describe('an HTTP target', () => {
  it('sends the body template and the headers, reads output_path, and keeps the key out of every result', async () => {
    server.requests.length = 0;
    const results = await runWithTarget(loadConfig(dir, chatConfig('/chat'), env), { env });
    assert.deepEqual(outcomes(results), [
      ['c1', 'exact_match', 'pass'],
      ['c2', 'exact_match', 'fail'],
    ]);
    const request = server.requests.find((r) => r.headers['x-case'] === 'c1');
    assert.ok(request, 'the server saw case c1');
    assert.equal(request.method, 'POST');
    assert.equal(request.headers['authorization'], `Bearer ${KEY}`);
    assert.equal(request.headers['content-type'], 'application/json');
    // A whole-string placeholder keeps the field's JSON type; one inside a string is text.
    assert.deepEqual(JSON.parse(request.body), { prompt: 'hello', meta: { lang: 'en' }, note: 'case c1 in en' });
    assert.equal(JSON.stringify(results).includes(KEY), false);
  });

  it('sends the case itself when there is no body template, and URL-encodes placeholders in the URL', async () => {
    server.requests.length = 0;
    const config = loadConfig(
      dir,
      [
        'cases:',
        '  - {id: "a b/c", input: "hi"}',
        'target:',
        '  http:',
        `    url: "${server.url}/chat?case={{id}}"`,
        'scorers:',
        '  contains: {values: ["x"]}',
      ],
      env,
    );
    await runWithTarget(config, { env });
    assert.equal(server.requests[0]?.url, '/chat?case=a%20b%2Fc');
    assert.deepEqual(JSON.parse(server.requests[0]?.body ?? ''), { id: 'a b/c', input: 'hi' });
  });

  it('reads a text answer as text', async () => {
    const config = loadConfig(
      dir,
      [
        'cases:',
        '  - {id: t, input: "x", expected: "plain answer"}',
        'target:',
        '  http:',
        `    url: ${server.url}/text`,
        '    method: GET',
        'scorers:',
        '  exact_match: {}',
      ],
      env,
    );
    assert.deepEqual(outcomes(await runWithTarget(config, { env })), [['t', 'exact_match', 'pass']]);
  });

  it('makes a 500 an error with its status, not its body; an unreachable endpoint and a time limit are errors too', async () => {
    const failing = await runWithTarget(loadConfig(dir, chatConfig('/fail'), env), { env });
    assert.deepEqual(
      failing.map((r) => r.status),
      ['error', 'error'],
    );
    for (const r of failing) {
      assert.equal(r.reason, `the target at ${server.url}/fail answered HTTP 500 Internal Server Error`);
      assert.doesNotMatch(r.reason, /internal details/);
    }

    const hanging = await runWithTarget(loadConfig(dir, chatConfig('/hang', ['  timeout_ms: 300']), env), { env });
    for (const r of hanging)
      assert.equal(r.reason, 'the target did not answer within its time limit of 300 ms and was stopped');

    const closed = await LoopbackServer.start();
    const url = closed.url;
    await closed.stop();
    const unreachable = await runWithTarget(
      loadConfig(
        dir,
        [
          'cases:',
          '  - {id: u, input: "x"}',
          'target:',
          '  http:',
          `    url: ${url}/chat`,
          'scorers:',
          '  exact_match: {}',
        ],
        env,
      ),
      { env },
    );
    assert.equal(unreachable[0]?.status, 'error');
    assert.match(
      unreachable[0]?.reason ?? '',
      new RegExp(`^the target at ${url}/chat could not be reached: .*ECONNREFUSED`),
    );
  });

  it('reads at most 10 MiB of a response: an endless body is an error naming the cap, and the request is ended', async () => {
    const results = await runWithTarget(
      loadConfig(
        dir,
        [
          'cases:',
          '  - {id: e, input: "x"}',
          'target:',
          '  http:',
          `    url: ${server.url}/endless`,
          'scorers:',
          '  exact_match: {}',
        ],
        env,
      ),
      { env },
    );
    assert.equal(results[0]?.status, 'error');
    assert.equal(
      results[0]?.reason,
      `the target's response is larger than ${RESPONSE_CAP_BYTES} bytes (the cap on an HTTP target's response); the rest was not read`,
    );
    await waitFor(() => server.endlessClosed >= 1, 'the server saw the request ended');
  });

  it('opens no connection in a run without trust: every result is skipped', async () => {
    const before = server.connections;
    const results = await runWithTarget(loadConfig(dir, chatConfig('/chat'), env), { env, trusted: false });
    assert.equal(results.length, 2);
    for (const r of results) assert.deepEqual([r.status, r.reason], ['skipped', UNTRUSTED_REASON]);
    assert.equal(server.connections, before);
  });
});
