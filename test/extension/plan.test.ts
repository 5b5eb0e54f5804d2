import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { join } from 'node:path';
import { planArgs, runArgs } from '../../extension/runner/cliArgs';
import { fetchPlan, parsePlan, planIsFree } from '../../extension/runner/plan';
import { CLI, ensureBuilt, ROOT } from '../support/cli';

before(() => ensureBuilt());

const PLAN = {
  cases: 12,
  trials: 2,
  judgeCalls: 24,
  target: false,
  scorers: [
    { name: 'judge', key: 'llmrater', reaches: 'network', judgeCalls: 24 },
    { name: 'exact_match', key: 'exact_match', judgeCalls: 0 },
  ],
};

describe('the run plan', () => {
  it('reads the plan contract and says when a run spends nothing', () => {
    const answer = parsePlan(JSON.stringify(PLAN));
    assert.ok(answer.ok);
    assert.deepEqual(answer.plan, PLAN);
    assert.equal(planIsFree(answer.plan), false);
    const free = parsePlan(
      JSON.stringify({
        ...PLAN,
        judgeCalls: 0,
        scorers: [{ name: 'x', key: 'x', judgeCalls: 0, reaches: 'workspace-code' }],
      }),
    );
    assert.ok(free.ok);
    assert.equal(planIsFree(free.plan), true);
    const target = parsePlan(JSON.stringify({ ...PLAN, judgeCalls: 0, scorers: [], target: true }));
    assert.ok(target.ok);
    assert.equal(planIsFree(target.plan), false);
  });

  it('treats anything else as no plan', () => {
    assert.equal(parsePlan('nope').ok, false);
    assert.equal(parsePlan('[]').ok, false);
    assert.equal(parsePlan(JSON.stringify({ ...PLAN, judgeCalls: -1 })).ok, false);
    assert.equal(parsePlan(JSON.stringify({ ...PLAN, scorers: [{ name: 'x' }] })).ok, false);
  });

  it('asks the built CLI, and gets a plan or a reason to run without one', async () => {
    const answer = await fetchPlan(
      CLI,
      { configFile: join(ROOT, 'examples', 'quickstart', 'refunds.eval.yaml'), caseIds: [] },
      ROOT,
    );
    if (answer.ok) {
      assert.equal(answer.plan.cases, 4);
      assert.equal(answer.plan.judgeCalls, 0);
      assert.equal(planIsFree(answer.plan), true);
    } else {
      assert.equal(answer.reason, 'this CLI has no `plan` command');
    }
  });

  it('passes the request to the CLI as flags', () => {
    assert.deepEqual(planArgs({ configFile: '/a.eval.yaml', caseIds: ['x', 'y'], trials: 3 }), [
      'plan',
      '/a.eval.yaml',
      '--case',
      'x',
      '--case',
      'y',
      '--trials',
      '3',
      '--json',
    ]);
    assert.deepEqual(
      runArgs({ configFile: '/a.eval.yaml', caseIds: ['x'], runsDir: '/runs', untrusted: true, concurrency: 2 }),
      [
        'run',
        '/a.eval.yaml',
        '--reporter',
        'jsonl',
        '--runs-dir',
        '/runs',
        '--no-color',
        '--case',
        'x',
        '--concurrency',
        '2',
        '--untrusted',
      ],
    );
  });
});
