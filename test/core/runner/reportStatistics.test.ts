import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DatasetRecord, EvalCase } from '../../../core/case';
import { parseRunConfig } from '../../../core/config/parseRunConfig';
import type { RunConfig } from '../../../core/config/runConfig';
import { fail, pass } from '../../../core/result';
import type { CaseEndEvent, RunEvent } from '../../../core/runner/events';
import { runEval } from '../../../core/runner/run';
import { BUILTIN_SCORERS } from '../../../core/scorers/builtinScorers';
import { ScorerRegistry } from '../../../core/scorers/registry';
import { prepared, type ScorerDefinition } from '../../../core/scorers/scorer';
import { assertClose } from '../stats/close';

/** A scorer of these tests: the case's output is its score on 0–1, and 0.5 or more passes. */
const outputScore: ScorerDefinition = {
  key: 'output_score',
  origin: 'EvalLens',
  scale: { kind: 'bounded', max: 1 },
  schema: { type: 'object' },
  create: () =>
    prepared({
      score: ({ case: c }) => {
        const score = Number(c.output);
        return score >= 0.5 ? pass('high enough', score) : fail('too low', score);
      },
    }),
};

function load(yaml: string): RunConfig {
  const parsed = parseRunConfig(
    yaml,
    '/virtual/stats.eval.yaml',
    {},
    { registry: new ScorerRegistry([...BUILTIN_SCORERS, outputScore]) },
  );
  assert.deepEqual(parsed.problems, []);
  assert.ok(parsed.config);
  return parsed.config;
}

async function* recordsOf(cases: readonly EvalCase[]): AsyncIterable<DatasetRecord> {
  let index = 0;
  for (const c of cases) {
    const at = { offset: 0, line: index, column: 0 };
    yield { ok: true, value: { case: c, index, range: { file: '/virtual/data.jsonl', start: at, end: at } } };
    index++;
  }
}

/** Three cases of two recorded trials each; the trial's output is its score. */
const DATASET: readonly EvalCase[] = [
  { id: 'a', trials: [{ output: 0.9 }, { output: 0.7 }] },
  { id: 'b', trials: [{ output: 0.6 }, { output: 0.2 }] },
  { id: 'c', trials: [{ output: 0.3 }, { output: 0.1 }] },
];

async function run(yaml: string) {
  const events: RunEvent[] = [];
  const outcome = await runEval(load(yaml), recordsOf(DATASET), {
    runId: 'r1',
    concurrency: 1,
    onEvent: (e) => events.push(e),
  });
  const ends = new Map(
    events.filter((e): e is CaseEndEvent => e.type === 'case/end').map((e) => [e.caseId, e] as const),
  );
  return { outcome, ends };
}

const CONFIG = 'scorers: {output_score: {}}\nnum_trials: 2\ncases: []\n';

describe('report statistics over a hand-worked dataset', () => {
  it('gives the scorer summary its clustered standard error, t interval, MDE and Wilson interval', async () => {
    const { outcome } = await run(CONFIG);
    const s = outcome.scorers.find((a) => a.name === 'output_score');
    assert.ok(s);
    // Worked by hand (checked with scipy.stats): scores a = (0.9, 0.7), b = (0.6, 0.2), c = (0.3, 0.1);
    // N = 6 scores in G = 3 cases.
    // mean x̄ = 2.8 / 6 = 0.466667.
    // Residual sums per case: a 0.433333 + 0.233333 = 0.666667; b 0.133333 − 0.266667 = −0.133333;
    //   c −0.166667 − 0.366667 = −0.533333; squares 0.444444 + 0.017778 + 0.284444 = 0.746667.
    // Clustered SE² = G/(G−1) · 0.746667 / N² = 1.5 · 0.746667 / 36 = 0.0311111, SE = 0.176383.
    // t(0.975, G−1 = 2) = 4.302653: CI = 0.466667 ± 0.758917 = [−0.292250, 1.225583], reported clipped
    //   to the 0–1 scale: [0, 1] (docs/statistics.md, "Bounded scales"), and still too wide.
    // MDE = (t(0.975, 4) + t(0.8, 4)) · √2 · SE = (2.776445 + 0.940965) · 0.249444 = 0.927285.
    // Pass rate 3 of 6 decided (0.9, 0.7, 0.6 pass): Wilson with z = 1.959964, z²/n = 0.640243:
    //   centre 0.5, half-width z/(1 + z²/n) · √(0.25/6 + z²/144) = 0.312384: [0.187616, 0.812384].
    assertClose(s.meanScore, 0.466667, 1e-6, 'mean');
    assertClose(s.stderr, 0.176383, 1e-6, 'stderr');
    assert.equal(s.ci_low, 0);
    assert.equal(s.ci_high, 1);
    assertClose(s.mde, 0.927285, 1e-6, 'mde');
    assert.equal(s.cases, 3);
    assert.equal(s.clustered, true);
    // Fewer than 10 cases: the rule says the interval is too wide to mean anything.
    assert.equal(s.too_wide, true);
    assertClose(s.passRate, 0.5, 1e-12, 'passRate');
    assertClose(s.pass_rate_ci_low, 0.187616, 1e-6, 'pass_rate_ci_low');
    assertClose(s.pass_rate_ci_high, 0.812384, 1e-6, 'pass_rate_ci_high');
    assert.equal(s.pass_rate_too_wide, true);
  });

  it("gives each case its trials' pass rate, Wilson interval and flaky mark", async () => {
    const { ends } = await run(CONFIG);
    const b = ends.get('b')?.trials;
    assert.ok(b);
    // 1 of 2: p̂ = 0.5, z²/n = 1.920729; half-width z/2.920729 · √(0.125 + z²/16) = 0.405469.
    assert.equal(b.pass_rate, 0.5);
    assertClose(b.pass_rate_ci_low, 0.094531, 1e-6, 'b low');
    assertClose(b.pass_rate_ci_high, 0.905469, 1e-6, 'b high');
    assert.equal(b.flaky, true);
    // 2 of 2: Wilson [2/(2 + z²), 1] = [0.342380, 1]; 0 of 2: [0, 0.657620]. Neither is flaky.
    assertClose(ends.get('a')?.trials?.pass_rate_ci_low, 0.34238, 1e-6, 'a low');
    assert.equal(ends.get('a')?.trials?.pass_rate_ci_high, 1);
    assert.equal(ends.get('a')?.trials?.flaky, false);
    assert.equal(ends.get('c')?.trials?.pass_rate_ci_low, 0);
    assertClose(ends.get('c')?.trials?.pass_rate_ci_high, 0.65762, 1e-6, 'c high');
    assert.equal(ends.get('c')?.trials?.flaky, false);
    // Without min_pass_rate every trial must pass: the flaky case fails.
    assert.equal(ends.get('b')?.status, 'failed');
    assert.equal(b.meets_min_pass_rate, false);
  });

  it('passes a case when at least pass_criteria.min_pass_rate of its trials pass', async () => {
    const { outcome, ends } = await run(`${CONFIG}pass_criteria: {min_pass_rate: 0.5}\n`);
    assert.equal(ends.get('a')?.status, 'passed');
    assert.equal(ends.get('b')?.status, 'passed');
    assert.equal(ends.get('b')?.trials?.meets_min_pass_rate, true);
    assert.equal(ends.get('c')?.status, 'failed');
    assert.deepEqual(outcome.summary, { passed: 2, failed: 1, errored: 0, skipped: 0, total: 3 });
  });

  it('uses the textbook s/√n with one trial, and calls a narrow interval over many cases meaningful', async () => {
    // 400 cases, one trial each: 300 score 1, 100 score 0.
    const many: EvalCase[] = Array.from({ length: 400 }, (_, i) => ({ id: `m${i}`, output: i < 300 ? 1 : 0 }));
    const outcome = await runEval(load('scorers: {output_score: {}}\ncases: []\n'), recordsOf(many), {
      runId: 'r2',
      onEvent: () => {},
    });
    const s = outcome.scorers.find((a) => a.name === 'output_score');
    assert.ok(s);
    // Worked by hand (checked with scipy.stats): x̄ = 0.75; s² = 400/399 · 0.75 · 0.25 = 0.187970;
    // SE = √(s²/400) = 0.021678; t(0.975, 399) = 1.965927: CI = 0.75 ± 0.042617 = [0.707383, 0.792617].
    // MDE = (t(0.975, 798) + t(0.8, 798)) · √2 · SE = 0.085993.
    // Wilson of 300 of 400: [0.705323, 0.789921]; half-widths 0.043 and 0.042 are under 0.1.
    assertClose(s.stderr, 0.021678, 1e-6, 'stderr');
    assertClose(s.ci_low, 0.707383, 1e-6, 'ci_low');
    assertClose(s.ci_high, 0.792617, 1e-6, 'ci_high');
    assertClose(s.mde, 0.085993, 1e-6, 'mde');
    assert.equal(s.clustered, false);
    assert.equal(s.too_wide, false);
    assertClose(s.pass_rate_ci_low, 0.705323, 1e-6, 'pass_rate_ci_low');
    assertClose(s.pass_rate_ci_high, 0.789921, 1e-6, 'pass_rate_ci_high');
    assert.equal(s.pass_rate_too_wide, false);
  });

  it('refuses a min_pass_rate off (0, 1]', () => {
    const parsed = parseRunConfig(
      `${CONFIG}pass_criteria: {min_pass_rate: 1.5}\n`,
      '/virtual/stats.eval.yaml',
      {},
      { registry: new ScorerRegistry([...BUILTIN_SCORERS, outputScore]) },
    );
    assert.ok(parsed.problems.some((p) => p.severity === 'error' && /min_pass_rate/.test(p.message)));
  });
});
