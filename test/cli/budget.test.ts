import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ensureBuilt, runCli } from '../support/cli';
import { startFakeLlmServer, type FakeLlmServer } from '../support/fakeOpenAiServer';

/**
 * `--max-judge-calls` and `--max-cost` on the judge example (3 goal_completion calls, 6 rubric
 * calls, one deterministic scorer), with a loopback test double of the OpenAI API that says each
 * answer used 1000 prompt and 100 answer tokens.
 */
const KEY_ENV = 'EVALLENS_TEST_BUDGET_KEY';
const env = { [KEY_ENV]: 'sk-budget-test' };
let work = '';
let server: FakeLlmServer;

interface ReportJson {
  results: { scorer: string; status: string; reason: string }[];
  spend?: Record<string, unknown>;
}

before(async () => {
  ensureBuilt();
  server = await startFakeLlmServer(() => ({
    text: '{"verdict": "PASS", "reason": "ok"}',
    usage: { input: 1000, output: 100 },
  }));
  work = mkdtempSync(join(tmpdir(), 'evallens-budget-'));
  for (const file of ['conversations.jsonl', 'support-judged.eval.yaml'])
    copyFileSync(resolve('examples/judge', file), join(work, file));
  // 1 per million input tokens, 10 per million output tokens: each call costs (1000 + 1000) / 1e6 = 0.002.
  const judge = `provider: openai\nbase_url: ${server.openAiBaseUrl}\nmodel: double\napi_key_env: ${KEY_ENV}\nmax_attempts: 1\n`;
  writeFileSync(
    join(work, 'judge.yaml'),
    `${judge}price_per_million_input_tokens: 1\nprice_per_million_output_tokens: 10\n`,
  );
  writeFileSync(join(work, 'unpriced.yaml'), judge);
  writeFileSync(
    join(work, 'unpriced.eval.yaml'),
    'dataset: conversations.jsonl\nscorers:\n  goal_completion: {model_config: unpriced.yaml}\n',
  );
});

beforeEach(() => {
  server.requests.length = 0;
});

after(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

async function runWith(args: string[]): Promise<{ code: number | null; report: ReportJson; stdout: string }> {
  const run = await runCli(
    [
      'run',
      'support-judged.eval.yaml',
      '--runs-dir',
      'runs',
      '--reporter',
      'console',
      '--reporter',
      'json',
      '--out',
      'report.json',
      // Every run here asks the judge double: a verdict kept by an earlier run would spend nothing.
      '--no-cache',
      ...args,
    ],
    { cwd: work, env },
  );
  assert.ok(run.code === 0 || run.code === 1, run.stderr + run.stdout);
  return {
    code: run.code,
    report: JSON.parse(readFileSync(join(work, 'report.json'), 'utf8')) as ReportJson,
    stdout: run.stdout,
  };
}

const judged = (r: { scorer: string }) => r.scorer !== 'contains';

describe('judge budget', () => {
  it('--max-judge-calls n: exactly n requests reach the judge, even 3 cases at once; the rest are skipped "budget reached"', async () => {
    const { report, stdout } = await runWith(['--max-judge-calls', '4', '--concurrency', '3']);
    assert.equal(server.requests.length, 4);
    const skipped = report.results.filter((r) => judged(r) && r.status === 'skipped');
    assert.equal(skipped.length, 5);
    for (const r of skipped) assert.match(r.reason, /^budget reached: 4 judge calls made \(--max-judge-calls 4\)/);
    assert.equal(report.results.filter((r) => judged(r) && r.status === 'pass').length, 4);
    // Everything else runs.
    assert.deepEqual(
      report.results.filter((r) => r.scorer === 'contains').map((r) => r.status),
      ['pass', 'pass', 'pass'],
    );
    // Spend from the double's usage fields: 4 × 1000 in, 4 × 100 out, 4 × 0.002.
    assert.deepEqual(report.spend, {
      judge_calls: 4,
      input_tokens: 4000,
      output_tokens: 400,
      cost: 0.008,
      skipped_for_budget: 5,
      max_judge_calls: 4,
    });
    assert.match(
      stdout,
      /^judges: 4 judge calls, 4,000 input \+ 400 output tokens, cost 0\.008 \(budget: --max-judge-calls 4\)$/m,
    );
    assert.match(stdout, /^5 judge results were skipped: budget reached$/m);
  });

  it('--max-cost: no new judge call once the reported usage costs the amount (one case at a time)', async () => {
    const { report } = await runWith(['--max-cost', '0.005', '--concurrency', '1']);
    // 0.002 per call: after the 3rd the cost (0.006) has reached 0.005.
    assert.equal(server.requests.length, 3);
    const skipped = report.results.filter((r) => judged(r) && r.status === 'skipped');
    assert.equal(skipped.length, 6);
    for (const r of skipped) assert.match(r.reason, /^budget reached: 0\.006 spent \(--max-cost 0\.005\)/);
    assert.deepEqual(report.spend, {
      judge_calls: 3,
      input_tokens: 3000,
      output_tokens: 300,
      cost: 0.006,
      skipped_for_budget: 6,
      max_cost: 0.005,
    });
  });

  it('without a budget the report still says what the judges spent', async () => {
    const { report } = await runWith([]);
    assert.equal(server.requests.length, 9);
    assert.deepEqual(report.spend, {
      judge_calls: 9,
      input_tokens: 9000,
      output_tokens: 900,
      cost: 0.018,
      skipped_for_budget: 0,
    });
  });

  it('--max-cost with a judge that has no prices is refused before anything runs', async () => {
    const run = await runCli(['run', 'unpriced.eval.yaml', '--runs-dir', 'runs', '--max-cost', '1'], {
      cwd: work,
      env,
    });
    assert.equal(run.code, 2);
    assert.match(
      run.stderr,
      /^evallens: --max-cost 1: the judge of goal_completion has no price \(set price_per_million_input_tokens and price_per_million_output_tokens in unpriced\.yaml\), so its cost cannot be counted$/m,
    );
    assert.equal(server.requests.length, 0);
  });

  it('refuses budget values that are not amounts', async () => {
    for (const [flag, value] of [
      ['--max-judge-calls', '-1'],
      ['--max-judge-calls', '2.5'],
      ['--max-cost', 'ten'],
    ] as const) {
      const run = await runCli(['run', 'support-judged.eval.yaml', `${flag}=${value}`], { cwd: work, env });
      assert.equal(run.code, 2, `${flag} ${value}`);
      assert.match(run.stderr, new RegExp(`^evallens: ${flag} must be`, 'm'));
    }
  });
});
