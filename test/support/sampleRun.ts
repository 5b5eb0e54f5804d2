import type { ReportCase, ReportSource, ScorerAggregate } from '../../core/report/report';
import type { ResultStatus, ScorerResult } from '../../core/result';
import type { CaseEndEvent, CaseStatus, RunEvent, ScorerInfo } from '../../core/runner/events';
import { type SourceRange } from '../../core/text/position';
import { toDisplay } from '../../shared/text/displayPosition';

/**
 * A small finished run, built by hand with fixed durations and timestamps so reporter output is the
 * same byte for byte on every run: three cases over two scorers, one passing, one failing on both
 * scorers (one reason holds a comma, quotes, `<`, `&` and a newline), one errored.
 */
export const SAMPLE_CWD = '/home/ci/project';
export const SAMPLE_CONFIG = `${SAMPLE_CWD}/evals/support.eval.yaml`;
export const SAMPLE_DATASET = `${SAMPLE_CWD}/evals/support.jsonl`;
/** The reason with every character that needs escaping somewhere. */
export const TRICKY_REASON = 'judge said "no, not grounded" <0/4 keywords> & nothing cited\nsecond line of the reason';

const exactMatch: ScorerInfo = {
  name: 'exact_match',
  key: 'exact_match',
  origin: 'EvalBook',
  scale: { kind: 'bounded', max: 1 },
  threshold: 0.8,
  weight: 1,
  lowerIsBetter: false,
};
const keywords: ScorerInfo = {
  name: 'keywords',
  key: 'subprocess',
  origin: 'EvalCore',
  scale: { kind: 'bounded', max: 1 },
  threshold: 0.3,
  weight: 1,
  lowerIsBetter: false,
};

function range(line: number, length: number): SourceRange {
  const offset = line * 100;
  return {
    file: SAMPLE_DATASET,
    start: { offset, line, column: 0 },
    end: { offset: offset + length, line, column: length },
  };
}

function result(
  caseId: string,
  scorer: string,
  status: ResultStatus,
  reason: string,
  durationMs: number,
  extra: Partial<ScorerResult> = {},
): ScorerResult {
  return { caseId, scorer, trial: 1, status, reason, durationMs, ...extra };
}

interface SampleCase {
  readonly id: string;
  readonly status: CaseStatus;
  readonly durationMs: number;
  readonly results: readonly ScorerResult[];
}

const CASES: readonly SampleCase[] = [
  {
    id: 'grounded',
    status: 'passed',
    durationMs: 4,
    results: [
      result('grounded', 'exact_match', 'pass', 'texts are equal', 1, { score: 1, passed: true }),
      result('grounded', 'keywords', 'pass', '4/5 expected keywords grounded in the output', 3, {
        score: 0.8,
        passed: true,
      }),
    ],
  },
  {
    id: 'ungrounded',
    status: 'failed',
    durationMs: 9,
    results: [
      result('ungrounded', 'exact_match', 'fail', 'texts differ at character 1', 1, {
        score: 0,
        passed: false,
        details: { actual: 'We never refund.', expected: 'Refunds within 30 days.' },
      }),
      result('ungrounded', 'keywords', 'fail', TRICKY_REASON, 7, { score: 0, passed: false }),
    ],
  },
  {
    id: 'broken',
    status: 'errored',
    durationMs: 31,
    results: [
      result('broken', 'exact_match', 'error', 'the case has no `expected` value', 0),
      result('broken', 'keywords', 'timeout', 'no answer within 30 ms', 30),
    ],
  },
];

const counts = (over: Partial<Record<ResultStatus, number>>): ScorerAggregate['counts'] => ({
  pass: 0,
  fail: 0,
  error: 0,
  inconclusive: 0,
  unsupported: 0,
  timeout: 0,
  skipped: 0,
  measured: 0,
  ...over,
});

export const SAMPLE_HEAD: ReportSource['head'] = {
  version: 1,
  tool: { name: 'evallens', version: '0.1.0' },
  runId: '20250102-030405-abc123',
  configFile: SAMPLE_CONFIG,
  startedAt: '2025-01-02T03:04:05.000Z',
  finishedAt: '2025-01-02T03:04:06.234Z',
  durationMs: 1234,
  cancelled: false,
  numTrials: 1,
  summary: { passed: 1, failed: 1, errored: 1, skipped: 0, total: 3 },
  job: { test: { score: 0.45, threshold: 0.4, pass: true } },
  scorers: [
    {
      ...exactMatch,
      counts: counts({ pass: 1, fail: 1, error: 1 }),
      meanScore: 0.5,
      passRate: 0.5,
      test: {
        primary_score: 0.5,
        primary_score_metric: 'mean_score',
        threshold: 0.8,
        lower_is_better: false,
        pass: false,
      },
    },
    {
      ...keywords,
      counts: counts({ pass: 1, fail: 1, timeout: 1 }),
      meanScore: 0.4,
      passRate: 0.5,
      test: {
        primary_score: 0.4,
        primary_score_metric: 'mean_score',
        threshold: 0.3,
        lower_is_better: false,
        pass: true,
      },
    },
  ],
};

/** The run's events in the order the runner emits them. */
export function sampleEvents(): RunEvent[] {
  const events: RunEvent[] = [
    {
      type: 'run/start',
      runId: SAMPLE_HEAD.runId,
      configFile: SAMPLE_CONFIG,
      startedAt: SAMPLE_HEAD.startedAt,
      scorers: [exactMatch, keywords],
      numTrials: 1,
    },
  ];
  CASES.forEach((c, index) => {
    events.push({ type: 'case/start', caseId: c.id, index, range: range(index, 40) });
    for (const r of c.results) events.push({ type: 'result', result: r });
    events.push({
      type: 'case/end',
      caseId: c.id,
      index,
      range: range(index, 40),
      status: c.status,
      durationMs: c.durationMs,
      results: c.results,
    });
  });
  events.push({
    type: 'run/end',
    runId: SAMPLE_HEAD.runId,
    finishedAt: SAMPLE_HEAD.finishedAt,
    durationMs: SAMPLE_HEAD.durationMs,
    cancelled: false,
    summary: SAMPLE_HEAD.summary,
  });
  return events;
}

/** A report source over any head and case-end events, streaming cases and results from them. */
export function sourceFrom(head: ReportSource['head'], events: readonly RunEvent[]): ReportSource {
  const ends = events.filter((e): e is CaseEndEvent => e.type === 'case/end');
  return {
    head,
    async *cases(): AsyncIterable<ReportCase> {
      for (const e of ends)
        yield {
          id: e.caseId,
          index: e.index,
          status: e.status,
          durationMs: e.durationMs,
          location: { file: e.range.file, ...toDisplay(e.range.start) },
          ...(e.trials === undefined ? {} : { trials: e.trials }),
        };
    },
    async *results(): AsyncIterable<ScorerResult> {
      for (const e of ends) yield* e.results;
    },
  };
}

export function sampleSource(): ReportSource {
  return sourceFrom(SAMPLE_HEAD, sampleEvents());
}
