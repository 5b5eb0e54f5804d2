import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { shardOf } from '../../core/runner/shard';
import { ensureBuilt, runCli } from '../support/cli';
import { startFakeLlmServer, type FakeLlmServer } from '../support/fakeOpenAiServer';

const KEY_ENV = 'EVALLENS_TEST_JUDGE_KEY';
let work = '';
let server: FakeLlmServer;

before(async () => {
  ensureBuilt();
  server = await startFakeLlmServer(() => ({ text: '{"verdict": "PASS", "reason": "ok"}' }));
  work = mkdtempSync(join(tmpdir(), 'evallens-plan-'));
  writeFileSync(
    join(work, 'judge.yaml'),
    `provider: openai\nbase_url: ${server.openAiBaseUrl}\nmodel: test-judge\napi_key_env: ${KEY_ENV}\n`,
  );
  const cases = [
    { id: 'a1', input: 'q', output: 'x', metadata: { binary_rubric: ['r0', 'r1', 'r2'] } },
    { id: 'a2', input: 'q', output: 'x', metadata: { binary_rubric: ['r0'] } },
    { id: 'b1', input: 'q', output: 'x' },
  ];
  const scorers = [
    '  goal_completion: {model_config: judge.yaml}',
    '  binary_rubric_scorer: {model_config: judge.yaml}',
    '  contains: {value: x}',
  ].join('\n');
  writeFileSync(join(work, 'judged.eval.yaml'), `scorers:\n${scorers}\ncases: ${JSON.stringify(cases)}\n`);
});

after(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

const env = { [KEY_ENV]: 'sk-cli-test' };

describe('evallens plan and the judge-call announcement', () => {
  it('plan --json counts cases × trials × judge calls per scorer, rubric items included, and opens no socket', async () => {
    const run = await runCli(['plan', 'judged.eval.yaml', '--json', '--trials', '2'], { cwd: work, env });
    assert.equal(run.code, 0, run.stderr);
    // `estimate` (tokens and cost) has tests of its own (planEstimate.test.ts).
    const { estimate, ...counts } = JSON.parse(run.stdout) as { estimate: unknown };
    assert.equal(typeof estimate, 'object');
    assert.deepEqual(counts, {
      cases: 3,
      trials: 2,
      judgeCalls: 14,
      scorers: [
        { name: 'goal_completion', key: 'goal_completion', reaches: 'network', judgeCalls: 6 },
        { name: 'binary_rubric_scorer', key: 'binary_rubric_scorer', reaches: 'network', judgeCalls: 8 },
        { name: 'contains', key: 'contains', judgeCalls: 0 },
      ],
      target: false,
      reaches: [],
    });
    assert.equal(server.connections(), 0);
  });

  it('plan selects cases as run does (--case, --filter)', async () => {
    const run = await runCli(['plan', 'judged.eval.yaml', '--json', '--filter', 'a*'], { cwd: work, env });
    assert.equal(run.code, 0, run.stderr);
    const plan = JSON.parse(run.stdout) as { cases: number; judgeCalls: number };
    assert.deepEqual([plan.cases, plan.judgeCalls], [2, 6]);
    const text = await runCli(['plan', 'judged.eval.yaml', '--case', 'b1'], { cwd: work, env });
    assert.match(text.stdout, /^This run will make 1 judge call at most \(1 case × 1 trial; goal_completion 1\)$/m);
  });

  it("plan --shard plans the shard's cases only, as run --shard picks them: the shards add up to the whole", async () => {
    const shardCases = (id: string) => shardOf(id, 3);
    const plans = await Promise.all(
      [1, 2, 3].map(async (i) => {
        const run = await runCli(['plan', 'judged.eval.yaml', '--json', '--shard', `${i}/3`], { cwd: work, env });
        assert.equal(run.code, 0, run.stderr);
        return JSON.parse(run.stdout) as { cases: number; judgeCalls: number };
      }),
    );
    // goal_completion 1 call a case; binary_rubric_scorer 1 a rubric item (a1 has 3, a2 1, b1 none).
    const calls: Record<string, number> = { a1: 4, a2: 2, b1: 1 };
    for (const [i, plan] of plans.entries()) {
      const ids = Object.keys(calls).filter((id) => shardCases(id) === i);
      assert.deepEqual([plan.cases, plan.judgeCalls], [ids.length, ids.reduce((sum, id) => sum + (calls[id] ?? 0), 0)]);
    }
    assert.equal(
      plans.reduce((sum, p) => sum + p.judgeCalls, 0),
      7,
    );
    const zeroBased = await runCli(['plan', 'judged.eval.yaml', '--json', '--shard-index', '0', '--shard-count', '3'], {
      cwd: work,
      env,
    });
    assert.deepEqual(
      JSON.parse(zeroBased.stdout),
      JSON.parse((await runCli(['plan', 'judged.eval.yaml', '--json', '--shard', '1/3'], { cwd: work, env })).stdout),
    );
    const bad = await runCli(['plan', 'judged.eval.yaml', '--shard', '4/3'], { cwd: work, env });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /4\/3/);
  });

  it('run announces the judge calls on stderr before making them, and makes no more than announced', async () => {
    const before = server.requests.length;
    const run = await runCli(['run', 'judged.eval.yaml', '--runs-dir', 'runs'], { cwd: work, env });
    assert.equal(run.code, 0, run.stderr + run.stdout);
    assert.match(
      run.stderr,
      /^evallens: This run will make 7 judge calls at most \(3 cases × 1 trial; goal_completion 3, binary_rubric_scorer 4\)$/m,
    );
    assert.equal(server.requests.length - before, 7);
    assert.ok(!run.stdout.includes('sk-cli-test') && !run.stderr.includes('sk-cli-test'));
  });

  it('run --untrusted skips every judge ("workspace is not trusted"), announces no calls and opens no socket', async () => {
    const connections = server.connections();
    const run = await runCli(
      ['run', 'judged.eval.yaml', '--untrusted', '--reporter', 'jsonl', '--runs-dir', 'runs-untrusted'],
      { cwd: work, env },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /judge call/);
    const results = run.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { type: string; result?: { scorer: string; status: string; reason: string } })
      .flatMap((e) => (e.type === 'result' && e.result !== undefined ? [e.result] : []));
    const judged = results.filter((r) => r.scorer !== 'contains');
    assert.equal(judged.length, 6);
    assert.ok(judged.every((r) => r.status === 'skipped' && r.reason === 'workspace is not trusted'));
    assert.equal(server.connections(), connections);
  });
});
