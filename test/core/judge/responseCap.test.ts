/**
 * A judge's response body is read up to a cap: a server that streams an endless body ends in a failed
 * call naming the cap, the request is ended, and the client's memory stays bounded. Against a real
 * loopback HTTP server, through Node's fetch (every provider goes through the one client).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { JUDGE_RESPONSE_CAP_BYTES } from '../../../core/judge/client';
import { Judge } from '../../../core/judge/judge';
import { parseModelConfig, type ModelConfig } from '../../../core/judge/modelConfig';
import { LoopbackServer } from '../target/loopbackServer';
import { waitFor } from '../../support/waitFor';

function load(yaml: string): ModelConfig {
  const loaded = parseModelConfig(yaml, '/repo/model_configs/judge.yaml', {});
  if (!loaded.ok) assert.fail(loaded.problems.map((p) => p.message).join('\n'));
  return loaded.config;
}

describe("a judge's response body", () => {
  let server: LoopbackServer;
  before(async () => {
    server = await LoopbackServer.start();
  });
  after(() => server.stop());

  it('is read up to 4 MiB: an endless body fails the call once (no retry), naming the cap, and ends the request', async () => {
    const sleeps: number[] = [];
    const judge = new Judge(load(`provider: openai\nbase_url: ${server.url}/endless\nmodel: m\nmax_attempts: 3\n`), {
      env: {},
      fetch,
      now: () => 0,
      clock: { random: () => 0.5, sleep: async (ms) => void sleeps.push(ms) },
    });
    const answer = await judge.ask({ user: 'Is the goal met?' }, new AbortController().signal);
    assert.equal(answer.ok, false);
    assert.ok(!answer.ok);
    assert.match(
      answer.reason,
      new RegExp(
        `^the judge's response \\(HTTP 200\\) is larger than ${JUDGE_RESPONSE_CAP_BYTES} bytes \\(the cap on a judge's response\\); the request was ended after \\d+ bytes$`,
      ),
    );
    assert.equal(answer.attempts, 1, 'a body over the cap is not asked for again');
    assert.equal(JUDGE_RESPONSE_CAP_BYTES, 4 * 1024 * 1024);
    await waitFor(() => server.endlessClosed >= 1, 'the server saw the request ended');
  });
});
