import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureBuilt, ROOT, runCli } from '../support/cli';

const CONFIG = 'examples/agent/support-agent.eval.yaml';
const FAILING = 'duplicate-charge';
const PASSING = ['late-delivery-credit', 'damaged-item-refund', 'prorated-cancellation', 'escalation-to-human'];

/** Every scorer the issue asks the agent example to exercise. */
const SCORERS = [
  'trajectory_matcher',
  'turn_count',
  'agent_steps',
  'end_to_end_latency',
  'tool_call_latency',
  'token_consumption',
  'tokens_processed',
  'effective_billed_tokens',
  'skills_trajectory',
  'tool_call_match',
  'trajectory',
  'retrieval_relevance',
  'citation_support',
  'execution_order',
  'exact_match_consistency',
];

interface Result {
  readonly caseId: string;
  readonly scorer: string;
  readonly trial: number;
  readonly status: string;
  readonly score?: number;
  readonly reason: string;
}
interface Report {
  readonly numTrials: number;
  readonly summary: {
    readonly passed: number;
    readonly failed: number;
    readonly errored: number;
    readonly total: number;
  };
  readonly cases: readonly {
    readonly id: string;
    readonly status: string;
    readonly trials?: { readonly trials: number; readonly passed: number };
  }[];
  readonly results: readonly Result[];
}

let work = '';

before(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-agent-example-'));
  cpSync(join(ROOT, 'examples'), join(work, 'examples'), { recursive: true });
});

after(() => rmSync(work, { recursive: true, force: true }));

describe('the agent example (examples/agent)', () => {
  it('fails exactly one case, with readable reasons, and exits 1', async () => {
    const run = await runCli(['run', CONFIG, '--runs-dir', 'runs-console'], { cwd: work });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const failLines = run.stdout.split('\n').filter((line) => line.startsWith('FAIL '));
    assert.equal(failLines.length, 1, run.stdout);
    assert.match(failLines[0] ?? '', new RegExp(`^FAIL ${FAILING} \\(\\d+ms\\) \\[1/3 trials passed, flaky\\]$`));
    for (const id of PASSING)
      assert.match(run.stdout, new RegExp(`^PASS ${id} \\(\\d+ms\\) \\[3/3 trials passed\\]$`, 'm'));
    assert.doesNotMatch(run.stdout, /^(ERROR|SKIP) /m);
    assert.match(
      run.stdout,
      /^ {5}trajectory \[trial 1\]: required step 1 of 3 \(`crm__lookup_customer`\) was never called/m,
    );
    assert.match(run.stdout, /^ {5}tool_call_match \[trial 1\]: .*`amount` fails max/m);
    assert.match(run.stdout, /^ {5}exact_match_consistency \[across trials\]: /m);
    assert.doesNotMatch(run.stdout, /\[trial 2\]/, 'trial 2 of the failing case is the one that went right');
    assert.match(run.stdout, /^4 passed, 1 failed, 5 total$/m);
    assert.match(run.stdout, /^FAILED$/m);
  });

  it('writes a JSON report in which every scorer read what it needs', async () => {
    const run = await runCli(['run', CONFIG, '--runs-dir', 'runs-json', '--reporter', 'json', '--out', 'agent.json'], {
      cwd: work,
    });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const report = JSON.parse(readFileSync(join(work, 'agent.json'), 'utf8')) as Report;
    assert.equal(report.numTrials, 3);
    const { passed, failed: failedCases, errored, total } = report.summary;
    assert.deepEqual({ passed, failed: failedCases, errored, total }, { passed: 4, failed: 1, errored: 0, total: 5 });

    const broken = report.results.filter((r) => r.status === 'error' || r.status === 'unsupported');
    assert.deepEqual(
      broken.map((r) => `${r.caseId} ${r.scorer} [trial ${r.trial}]: ${r.status}: ${r.reason}`),
      [],
    );

    const keys = new Set(report.results.map((r) => r.scorer));
    for (const key of SCORERS) assert.ok(keys.has(key), `the example runs ${key}`);

    const consistency = report.results.filter((r) => r.scorer === 'exact_match_consistency');
    assert.equal(consistency.length, 5, 'one consistency result per case');
    for (const r of consistency) assert.equal(r.trial, 0, `${r.caseId}: exact_match_consistency runs across trials`);
    for (const r of report.results.filter((x) => x.scorer !== 'exact_match_consistency'))
      assert.ok(r.trial >= 1 && r.trial <= 3);

    // Every case but the failing one passes every scorer that decides; counters without a threshold measure.
    for (const r of report.results.filter((x) => x.caseId !== FAILING)) {
      assert.ok(
        r.status === 'pass' || r.status === 'measured',
        `${r.caseId} ${r.scorer} [trial ${r.trial}] is ${r.status}: ${r.reason}`,
      );
    }
    const measured = new Set(report.results.filter((r) => r.status === 'measured').map((r) => r.scorer));
    assert.deepEqual([...measured].sort(), ['token_consumption', 'tokens_processed', 'tool_call_latency']);
    for (const r of report.results.filter((x) => measured.has(x.scorer)))
      assert.ok(typeof r.score === 'number' && r.score > 0, `${r.caseId} ${r.scorer}`);

    const failing = report.cases.find((c) => c.id === FAILING);
    assert.equal(failing?.status, 'failed');
    assert.deepEqual(failing?.trials && { trials: failing.trials.trials, passed: failing.trials.passed }, {
      trials: 3,
      passed: 1,
    });
    const failed = report.results.filter((r) => r.status === 'fail');
    assert.ok(failed.every((r) => r.caseId === FAILING));
    assert.deepEqual([...new Set(failed.map((r) => r.scorer))].sort(), [
      'exact_match_consistency',
      'execution_order',
      'tool_call_match',
      'trajectory',
      'trajectory_matcher',
    ]);
  });
});
