import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Json } from '../../../core/case';
import { parseRunConfig } from '../../../core/config/parseRunConfig';
import type { ScorerVerdict } from '../../../core/result';
import { exactMatchConsistency } from '../../../core/scorers/builtin/exactMatchConsistency';
import type { TrialInput } from '../../../core/scorers/scorer';
import { caseRecords } from '../../../core/runner/records';
import { runEval } from '../../../core/runner/run';
import type { RunEvent } from '../../../core/runner/events';
import { createEngineContext } from '../../../core/engineContext';

async function consistency(trials: { output?: Json; error?: string }[]): Promise<ScorerVerdict> {
  const made = exactMatchConsistency.create(
    {},
    { engine: createEngineContext(), configDir: '/', timeoutMs: 30_000, env: {} },
  );
  assert.ok(made.ok && made.acrossTrials);
  const inputs: TrialInput[] = trials.map((t, i) => ({
    case: { id: 'c' },
    output: t.output,
    expected: undefined,
    trial: i + 1,
    ...(t.error === undefined ? {} : { error: t.error }),
  }));
  return made.acrossTrials.scoreTrials(inputs, new AbortController().signal);
}

describe('exact_match_consistency', () => {
  it('scores 100 when every trial produced the same output, compared as canonical JSON', async () => {
    const v = await consistency([
      { output: { a: 1, b: [1.0] } },
      { output: { b: [1], a: 1 } },
      { output: { a: 1, b: [1] } },
    ]);
    assert.equal(v.status, 'pass');
    assert.equal(v.score, 100);
  });

  it('does not decide a case none of whose trials recorded anything (nothing to compare), but compares recorded errors', async () => {
    const v = await consistency([{}, {}]);
    assert.equal(v.status, 'unsupported');
    assert.match(v.reason, /no trial of the case has a recorded output/);
    assert.equal((await consistency([{ error: 'boom' }, { error: 'boom' }])).status, 'pass');
  });

  it('is all or nothing: one differing trial makes the case 0', async () => {
    const v = await consistency([{ output: 'x' }, { output: 'x' }, { output: 'y' }]);
    assert.equal(v.status, 'fail');
    assert.equal(v.score, 0);
    assert.match(v.reason, /2 of 3 trial pairs disagree/);
  });

  it('counts the same error in two trials as consistent, different errors as not', async () => {
    assert.equal((await consistency([{ error: 'timeout' }, { error: 'timeout' }])).score, 100);
    assert.equal((await consistency([{ error: 'timeout' }, { error: 'syntax error' }])).score, 0);
    assert.equal((await consistency([{ error: 'timeout' }, { output: 'x' }])).score, 0);
  });

  it('fills pairs by transitivity where it decides, and compares the rest directly', async () => {
    const v = await consistency([{ output: 'x' }, { output: 'x' }, { output: 'y' }, { output: 'y' }]);
    const pairs = (v.details?.['pairs'] ?? []) as { trials: number[]; score: number; decided: string }[];
    const pair = (i: number, j: number) => pairs.find((p) => p.trials[0] === i && p.trials[1] === j);
    assert.deepEqual(pair(1, 3), { trials: [1, 3], score: 0, decided: 'filled' }, '100 (1,2) with 0 (2,3) fills 0');
    assert.deepEqual(pair(2, 4), { trials: [2, 4], score: 0, decided: 'filled' }, '0 (2,3) with 100 (3,4) fills 0');
    assert.equal(pairs.length, 6);
  });

  it('compares directly when transitivity cannot decide (0 and 0)', async () => {
    const v = await consistency([{ output: 'x' }, { output: 'y' }, { output: 'x' }]);
    const pairs = (v.details?.['pairs'] ?? []) as { trials: number[]; score: number; decided: string }[];
    assert.deepEqual(
      pairs.find((p) => p.trials[0] === 1 && p.trials[1] === 3),
      { trials: [1, 3], score: 100, decided: 'compared' },
    );
  });

  it('is a config error without num_trials of at least 2, on the scorer key', () => {
    const parsed = parseRunConfig('cases: []\nscorers:\n  exact_match_consistency: null\n', '/x.eval.yaml', {});
    assert.equal(parsed.problems[0]?.code, 'needs-trials');
    assert.equal(parsed.problems[0]?.range.start.line, 2);
    assert.deepEqual(
      parseRunConfig('cases: []\nnum_trials: 2\nscorers:\n  exact_match_consistency: null\n', '/x.eval.yaml', {})
        .problems,
      [],
    );
  });

  it('runs once per case after its trials, on recorded trial outputs, as trial 0', async () => {
    const yaml = [
      'num_trials: 3',
      'scorers:',
      '  exact_match: {}',
      '  exact_match_consistency: {}',
      'cases:',
      '  - {id: steady, expected: "a", trials: [{output: "a"}, {output: "a"}, {output: "a"}]}',
      '  - {id: flaky, expected: "a", trials: [{output: "a"}, {output: "b"}, {output: "a"}]}',
      '',
    ].join('\n');
    const parsed = parseRunConfig(yaml, '/x.eval.yaml', {});
    assert.deepEqual(parsed.problems, []);
    assert.ok(parsed.config);
    const events: RunEvent[] = [];
    await runEval(parsed.config, caseRecords(parsed.config), { runId: 'r', onEvent: (e) => events.push(e) });
    const ends = events.filter((e) => e.type === 'case/end');
    const flaky = ends.find((e) => e.type === 'case/end' && e.caseId === 'flaky');
    assert.ok(flaky && flaky.type === 'case/end');
    const consistencyResult = flaky.results.find((r) => r.scorer === 'exact_match_consistency');
    assert.deepEqual([consistencyResult?.trial, consistencyResult?.score, consistencyResult?.status], [0, 0, 'fail']);
    assert.deepEqual(flaky.trials, {
      trials: 3,
      passed: 2,
      passRate: 2 / 3,
      passAtK: flaky.trials?.passAtK,
      passHatK: flaky.trials?.passHatK,
      // Issue 16's fields: Wilson interval of 2 of 3 (z = 1.959964) is [0.207660, 0.938508].
      pass_rate: 2 / 3,
      pass_rate_ci_low: flaky.trials?.pass_rate_ci_low,
      pass_rate_ci_high: flaky.trials?.pass_rate_ci_high,
      flaky: true,
      meets_min_pass_rate: false,
    });
    assert.ok(Math.abs((flaky.trials?.pass_rate_ci_low ?? 0) - 0.20766) < 1e-5);
    assert.ok(Math.abs((flaky.trials?.pass_rate_ci_high ?? 0) - 0.938508) < 1e-5);
    const steady = ends.find((e) => e.type === 'case/end' && e.caseId === 'steady');
    assert.ok(steady && steady.type === 'case/end' && steady.status === 'passed');
  });
});
