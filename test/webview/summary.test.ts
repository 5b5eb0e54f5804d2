import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ScorerResult } from '../../core/result';
import type { ScorerAggregate } from '../../core/report/report';
import {
  caseCountsLine,
  formatRate,
  formatScore,
  jobLine,
  localTime,
  runTitle,
  scorerDistributions,
  scorerLines,
} from '../../webview/model/summary';
import type { RunInfo } from '../../webview/model/viewState';
import { SCORERS } from './support/runs';

const RUN: RunInfo = {
  kind: 'report',
  runId: 'r',
  configFile: '/c.eval.yaml',
  startedAt: '',
  cancelled: false,
  numTrials: 1,
  scorers: SCORERS,
  complete: true,
};

function scorerNamed(name: string): (typeof SCORERS)[number] {
  const found = SCORERS.find((s) => s.name === name);
  if (found === undefined) throw new Error(`no scorer ${name} in the sample run`);
  return found;
}

function result(scorer: string, score: number | undefined, status: ScorerResult['status'] = 'pass'): ScorerResult {
  return {
    caseId: 'c',
    scorer,
    trial: 1,
    status,
    reason: '',
    durationMs: 0,
    ...(score === undefined ? {} : { score }),
  };
}

describe('summary: job score against its threshold', () => {
  it('shows the job score, its threshold and the verdict', () => {
    assert.deepEqual(jobLine({ ...RUN, job: { score: 0.782936507936508, threshold: 0.8, pass: false } }), {
      text: 'Job score 0.7829 against threshold 0.8: fail',
      verdict: 'fail',
    });
    assert.deepEqual(jobLine({ ...RUN, job: { score: 0.9, threshold: 0.5, pass: true } }), {
      text: 'Job score 0.9 against threshold 0.5: pass',
      verdict: 'pass',
    });
  });

  it('says "so far" for a live run, and waits when there is no score yet', () => {
    assert.equal(
      jobLine({ ...RUN, kind: 'live', complete: false, job: { score: 0.5, threshold: 0.5, pass: true } }).text,
      'Job score 0.5 so far against threshold 0.5: pass',
    );
    assert.deepEqual(jobLine({ ...RUN, kind: 'live', complete: false }), {
      text: 'Job score: when the run ends',
      verdict: 'none',
    });
  });

  it('explains a finished run without a job test, and an empty view', () => {
    assert.match(jobLine(RUN).text, /^No job score: no scorer has both a threshold and a score/);
    assert.equal(jobLine(undefined).text, 'No run to show yet.');
  });

  it('formats scores and rates for people', () => {
    assert.equal(formatScore(undefined), '—');
    assert.equal(formatScore(85), '85');
    assert.equal(formatScore(0.1 + 0.2), '0.3');
    assert.equal(formatRate(0.75), '75%');
    assert.equal(formatRate(2 / 3), '66.7%');
    assert.equal(formatRate(undefined), '—');
  });
});

describe('summary: per-scorer pass rates', () => {
  it('lists each scorer with its pass rate, mean, test and non-zero counts', () => {
    const counts = { pass: 3, fail: 1, error: 0, inconclusive: 0, unsupported: 0, timeout: 0, skipped: 0, measured: 0 };
    const aggregates: ScorerAggregate[] = [
      {
        ...scorerNamed('exact_match'),
        counts,
        meanScore: 0.75,
        passRate: 0.75,
        test: {
          primary_score: 0.75,
          primary_score_metric: 'mean_score',
          threshold: 0.8,
          lower_is_better: false,
          pass: false,
        },
      },
      { ...scorerNamed('tokens'), counts: { ...counts, pass: 0, fail: 0, measured: 4 }, meanScore: 120 },
    ];
    assert.deepEqual(scorerLines(aggregates), [
      {
        name: 'exact_match',
        passRate: '75%',
        meanScore: '0.75',
        test: '≥ 0.8 → fail',
        verdict: 'fail',
        counts: '3 pass, 1 fail',
      },
      { name: 'tokens', passRate: '—', meanScore: '120', test: '', verdict: 'none', counts: '4 measured' },
    ]);
  });

  it('counts cases from the summary, or from the cases seen while live', () => {
    assert.equal(
      caseCountsLine({ ...RUN, summary: { passed: 3, failed: 1, errored: 0, skipped: 0, total: 4 } }, []),
      '4 cases: 3 passed, 1 failed, 0 errored, 0 skipped',
    );
    assert.equal(
      caseCountsLine(
        { ...RUN, cancelled: true, summary: { passed: 1, failed: 0, errored: 0, skipped: 0, total: 1 } },
        [],
      ),
      '1 cases: 1 passed, 0 failed, 0 errored, 0 skipped (cancelled)',
    );
    assert.equal(
      caseCountsLine({ ...RUN, kind: 'live', complete: false }, ['passed', 'running', 'failed', 'passed']),
      '4 cases so far: 2 passed, 1 failed, 0 errored, 0 skipped, 1 running',
    );
  });
});

describe("summary: each scorer's score distribution", () => {
  it('bins each scorer on its own scale: 0–1 stays 0–1, 0–100 stays 0–100, a count spans what was seen', () => {
    const results = [
      result('exact_match', 1),
      result('exact_match', 0),
      result('judge', 100),
      result('judge', 55),
      result('judge', 5),
      result('tokens', 100, 'measured'),
      result('tokens', 200, 'measured'),
      result('exact_match', undefined, 'error'),
    ];
    const [exact, judge, tokens] = scorerDistributions(results, SCORERS);
    assert.deepEqual(
      exact?.bins.map((b) => b.count),
      [1, 0, 0, 0, 0, 0, 0, 0, 0, 1],
    );
    assert.deepEqual({ counted: exact?.counted, axis: exact?.axis }, { counted: 2, axis: '0–1' });
    assert.deepEqual(
      judge?.bins.map((b) => b.count),
      [1, 0, 0, 0, 0, 1, 0, 0, 0, 1],
      '5 in 0–10, 55 in 50–60, 100 in the last bin',
    );
    assert.equal(judge?.axis, '0–100');
    assert.deepEqual(
      { from: tokens?.bins[0]?.from, to: tokens?.bins[9]?.to, axis: tokens?.axis },
      { from: 100, to: 200, axis: '100–200 tokens' },
    );
    assert.deepEqual(
      scorerDistributions([], SCORERS).map((d) => d.counted),
      [0, 0, 0],
    );
  });
});

describe('summary: the header', () => {
  it('names the config as the person does and says when it ran, not a run id and an absolute path', () => {
    const run: RunInfo = {
      ...RUN,
      runId: '20260101T000000Z-abc',
      configFile: '/home/me/project/evals/support.eval.yaml',
      startedAt: '2026-01-01T09:05:00.000Z',
      durationMs: 12_345,
    };
    const title = runTitle(run, new Map([[run.configFile, 'evals/support.eval.yaml']]));
    assert.equal(title.text, 'evals/support.eval.yaml');
    assert.equal(title.when, `ran ${localTime(new Date('2026-01-01T09:05:00.000Z'))}, took 12.3 s`);
    assert.match(localTime(new Date(2026, 0, 2, 3, 4)), /^2026-01-02 03:04$/);
    assert.equal(title.tooltip, 'run 20260101T000000Z-abc of /home/me/project/evals/support.eval.yaml');
    assert.equal(
      runTitle({ ...run, kind: 'live', complete: false }, new Map()).text,
      'support.eval.yaml · live run',
      'without a label, the file name',
    );
  });
});
