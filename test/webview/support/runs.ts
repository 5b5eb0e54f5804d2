/**
 * Runs for the results-view tests, built in code: a report of any size and the live events of the
 * same run, with results spread over every status so filters and sorts have something to tell apart.
 */
import type { ResultStatus, ScorerResult } from '../../../core/result';
import type { Report, ReportCase, ScorerAggregate } from '../../../core/report/report';
import type { RunEvent, ScorerInfo } from '../../../core/runner/events';
import type { SourceRange } from '../../../core/text/position';

export const CONFIG = '/work/evals/support.eval.yaml';
export const DATASET = '/work/evals/support.jsonl';

export const SCORERS: readonly ScorerInfo[] = [
  {
    name: 'exact_match',
    key: 'exact_match',
    origin: 'EvalBook',
    scale: { kind: 'bounded', max: 1 },
    threshold: 0.8,
    weight: 1,
    lowerIsBetter: false,
  },
  {
    name: 'judge',
    key: 'llm_judge',
    origin: 'EvalCore',
    scale: { kind: 'bounded', max: 100 },
    weight: 1,
    lowerIsBetter: false,
  },
  {
    name: 'tokens',
    key: 'token_count',
    origin: 'EvalBench',
    scale: { kind: 'count', unit: 'tokens' },
    weight: 1,
    lowerIsBetter: true,
  },
];

const CYCLE: readonly ResultStatus[] = ['pass', 'fail', 'pass', 'error', 'pass', 'inconclusive', 'pass', 'timeout'];

export function caseId(i: number): string {
  return `case-${String(i).padStart(6, '0')}`;
}

export function range(i: number): SourceRange {
  return {
    file: DATASET,
    start: { offset: i * 100, line: i, column: 0 },
    end: { offset: i * 100 + 99, line: i, column: 99 },
  };
}

/** The results of case i: exact_match cycles through statuses, judge scores 0–100, tokens counts. */
export function resultsOf(i: number): ScorerResult[] {
  const id = caseId(i);
  const status = CYCLE[i % CYCLE.length] ?? 'pass';
  const exact: ScorerResult =
    status === 'pass' || status === 'fail'
      ? {
          caseId: id,
          scorer: 'exact_match',
          trial: 1,
          status,
          score: status === 'pass' ? 1 : 0,
          passed: status === 'pass',
          reason: status === 'pass' ? 'texts are equal' : 'texts differ at character 4',
          durationMs: i % 7,
        }
      : {
          caseId: id,
          scorer: 'exact_match',
          trial: 1,
          status,
          reason: `could not compare (${status})`,
          durationMs: i % 7,
        };
  const judgeScore = (i * 37) % 101;
  const judge: ScorerResult = {
    caseId: id,
    scorer: 'judge',
    trial: 1,
    status: judgeScore >= 50 ? 'pass' : 'fail',
    score: judgeScore,
    passed: judgeScore >= 50,
    reason: `the judge gave ${judgeScore}`,
    details: {
      reasoning: `answer ${i} is ${judgeScore >= 50 ? 'grounded' : 'not grounded'}`,
      model: 'test-double-judge',
    },
    durationMs: 10 + (i % 3),
  };
  const tokens: ScorerResult = {
    caseId: id,
    scorer: 'tokens',
    trial: 1,
    status: 'measured',
    score: 100 + (i % 50),
    reason: 'counted tokens',
    durationMs: 0,
  };
  return [exact, judge, tokens];
}

function caseStatusOf(results: readonly ScorerResult[]): ReportCase['status'] {
  if (results.some((r) => r.status === 'error' || r.status === 'timeout')) return 'errored';
  if (results.some((r) => r.status === 'fail')) return 'failed';
  return 'passed';
}

export function reportOf(cases: number, runId = 'run-1'): Report {
  const reportCases: ReportCase[] = [];
  const results: ScorerResult[] = [];
  const summary = { passed: 0, failed: 0, errored: 0, skipped: 0, total: cases };
  for (let i = 0; i < cases; i++) {
    const rs = resultsOf(i);
    const status = caseStatusOf(rs);
    summary[status]++;
    reportCases.push({
      id: caseId(i),
      index: i,
      status,
      durationMs: 12,
      location: { file: DATASET, line: i + 1, column: 1 },
    });
    results.push(...rs);
  }
  const aggregates: ScorerAggregate[] = SCORERS.map((s) => ({
    ...s,
    counts: { pass: 0, fail: 0, error: 0, inconclusive: 0, unsupported: 0, timeout: 0, skipped: 0, measured: 0 },
    passRate: 0.5,
    meanScore: 0.5,
  }));
  return {
    version: 1,
    tool: { name: 'evallens', version: '0.1.0' },
    runId,
    configFile: CONFIG,
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:10.000Z',
    durationMs: 10000,
    cancelled: false,
    numTrials: 1,
    summary,
    job: { test: { score: 0.62, threshold: 0.8, pass: false } },
    scorers: aggregates,
    cases: reportCases,
    results,
  };
}

/** The live events of the same run: result events, then case/end repeating them (as the runner emits). */
export function eventsOf(cases: number, runId = 'run-1'): RunEvent[] {
  const events: RunEvent[] = [
    {
      type: 'run/start',
      runId,
      configFile: CONFIG,
      startedAt: '2026-01-01T00:00:00.000Z',
      scorers: SCORERS,
      numTrials: 1,
      jobThreshold: 0.5,
    },
  ];
  const summary = { passed: 0, failed: 0, errored: 0, skipped: 0, total: cases };
  for (let i = 0; i < cases; i++) {
    const rs = resultsOf(i);
    const status = caseStatusOf(rs);
    summary[status]++;
    events.push({ type: 'case/start', caseId: caseId(i), index: i, range: range(i) });
    for (const result of rs) events.push({ type: 'result', result });
    events.push({
      type: 'case/end',
      caseId: caseId(i),
      index: i,
      range: range(i),
      status,
      durationMs: 12,
      results: rs,
    });
  }
  events.push({
    type: 'run/end',
    runId,
    finishedAt: '2026-01-01T00:00:10.000Z',
    durationMs: 10000,
    cancelled: false,
    summary,
  });
  return events;
}
