import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DatasetRecord, EvalCase } from '../../../core/case';
import { parseRunConfig } from '../../../core/config/parseRunConfig';
import type { RunConfig } from '../../../core/config/runConfig';
import { pass, type ScorerVerdict } from '../../../core/result';
import { BUILTIN_SCORERS } from '../../../core/scorers/builtinScorers';
import { ScorerRegistry } from '../../../core/scorers/registry';
import { prepared, type Scorer, type ScorerDefinition } from '../../../core/scorers/scorer';
import type { RunEvent } from '../../../core/runner/events';
import { runEval } from '../../../core/runner/run';

/** A scorer of these tests whose answer for each case is released by the test, so no timing is involved. */
function gatedScorer(): {
  definition: ScorerDefinition;
  release: (id: string) => void;
  started: string[];
  waitStarted: (n: number) => Promise<void>;
} {
  const gates = new Map<string, () => void>();
  const waiting = new Map<string, Promise<void>>();
  const started: string[] = [];
  let onStart = () => {};
  const definition = fixtureScorer('gated', ({ case: c }) => {
    started.push(c.id);
    onStart();
    let promise = waiting.get(c.id);
    if (promise === undefined) {
      promise = new Promise<void>((resolve) => gates.set(c.id, resolve));
      waiting.set(c.id, promise);
    }
    return promise.then((): ScorerVerdict => pass('released'));
  });
  const release = (id: string) => {
    const gate = gates.get(id);
    if (gate) gate();
    else waiting.set(id, Promise.resolve());
  };
  const waitStarted = (n: number) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (started.length >= n) resolve();
      };
      onStart = check;
      check();
    });
  return { definition, release, started, waitStarted };
}

/** A scorer of these tests, with no options, that scores as `score` says. */
function fixtureScorer(key: string, score: Scorer['score']): ScorerDefinition {
  return {
    key,
    origin: 'EvalLens',
    scale: { kind: 'bounded', max: 1 },
    schema: { type: 'object' },
    create: () => prepared({ score }),
  };
}

const neverAnswers = fixtureScorer(
  'never_answers',
  (_input, signal) =>
    new Promise<ScorerVerdict>((_resolve, reject) =>
      signal.addEventListener('abort', () => reject(new Error('aborted'))),
    ),
);

const throws = fixtureScorer('throws', () => {
  throw new Error('boom');
});

function load(yaml: string, extra: ScorerDefinition[] = []): RunConfig {
  const parsed = parseRunConfig(
    yaml,
    '/virtual/test.eval.yaml',
    {},
    { registry: new ScorerRegistry([...BUILTIN_SCORERS, ...extra]) },
  );
  assert.deepEqual(parsed.problems, []);
  assert.ok(parsed.config);
  return parsed.config;
}

async function* recordsOf(cases: EvalCase[]): AsyncIterable<DatasetRecord> {
  let index = 0;
  for (const c of cases) {
    const at = { offset: 0, line: index, column: 0 };
    yield { ok: true, value: { case: c, index, range: { file: '/virtual/data.jsonl', start: at, end: at } } };
    index++;
  }
}

const cases = (n: number): EvalCase[] =>
  Array.from({ length: n }, (_, i) => ({ id: `c${i + 1}`, output: 'yes', expected: i % 2 === 0 ? 'yes' : 'no' }));

async function collect(
  config: RunConfig,
  input: AsyncIterable<DatasetRecord>,
  options: Partial<Parameters<typeof runEval>[2]> = {},
) {
  const events: RunEvent[] = [];
  const outcome = await runEval(config, input, { runId: 'r1', onEvent: (e) => events.push(e), ...options });
  return { events, outcome };
}

describe('runner', () => {
  it('emits run/start, then case/start, results and case/end per case, then run/end', async () => {
    const { events, outcome } = await collect(load('scorers: {exact_match: {}}\ncases: []\n'), recordsOf(cases(2)), {
      concurrency: 1,
    });
    assert.deepEqual(
      events.map((e) => e.type),
      ['run/start', 'case/start', 'result', 'case/end', 'case/start', 'result', 'case/end', 'run/end'],
    );
    assert.deepEqual(outcome.summary, { passed: 1, failed: 1, errored: 0, skipped: 0, total: 2 });
  });

  it('turns an unreadable record into an error result for that case and runs the others', async () => {
    async function* records(): AsyncIterable<DatasetRecord> {
      const at = { offset: 0, line: 2, column: 5 };
      yield {
        ok: false,
        error: {
          id: 'line-3',
          index: 0,
          range: { file: '/virtual/d.jsonl', start: at, end: at },
          message: 'line 3 is not valid JSON',
        },
      };
      yield* recordsOf(cases(1));
    }
    const { events, outcome } = await collect(load('scorers: {exact_match: {}}\ncases: []\n'), records());
    const errored = events.find((e) => e.type === 'case/end' && e.caseId === 'line-3');
    assert.ok(errored && errored.type === 'case/end');
    assert.equal(errored.status, 'errored');
    assert.equal(errored.results[0]?.reason, 'line 3 is not valid JSON');
    assert.deepEqual(outcome.summary, { passed: 1, failed: 0, errored: 1, skipped: 0, total: 2 });
  });

  it('scores each case num_trials times', async () => {
    const { events } = await collect(
      load('scorers: {exact_match: {}}\nnum_trials: 3\ncases: []\n'),
      recordsOf(cases(1)),
    );
    const trials = events.filter((e) => e.type === 'result').map((e) => (e.type === 'result' ? e.result.trial : 0));
    assert.deepEqual(trials, [1, 2, 3]);
  });

  it('runs only the selected cases (--case and --filter)', async () => {
    const config = load('scorers: {exact_match: {}}\ncases: []\n');
    const byId = await collect(config, recordsOf(cases(5)), { selection: { ids: ['c2', 'c4'] } });
    assert.deepEqual(
      byId.events.filter((e) => e.type === 'case/end').map((e) => (e.type === 'case/end' ? e.caseId : '')),
      ['c2', 'c4'],
    );
    const byGlob = await collect(config, recordsOf([...cases(2), { id: 'other', output: 'x', expected: 'x' }]), {
      selection: { filter: 'c*' },
    });
    assert.equal(byGlob.outcome.summary.total, 2);
  });

  it('ends a scorer that does not answer within its time limit with a timeout result', async () => {
    const config = load('scorers: {never_answers: {timeout_ms: 20}}\ncases: []\n', [neverAnswers]);
    const { outcome, events } = await collect(config, recordsOf(cases(1)));
    const result = events.find((e) => e.type === 'result');
    assert.ok(result && result.type === 'result');
    assert.equal(result.result.status, 'timeout');
    assert.match(result.result.reason, /20 ms/);
    assert.equal(outcome.summary.errored, 1);
  });

  it('turns a scorer that throws into an error result, not a crashed run', async () => {
    const { events } = await collect(load('scorers: {throws: {}}\ncases: []\n', [throws]), recordsOf(cases(2)));
    const results = events.filter((e) => e.type === 'result');
    assert.equal(results.length, 2);
    for (const r of results)
      assert.ok(r.type === 'result' && r.result.status === 'error' && r.result.reason.includes('boom'));
  });

  it('applies the threshold rule: score >= threshold passes, <= with lower_is_better', async () => {
    const config = load(
      'scorers:\n  - {type: exact_match, name: strict, threshold: 1}\n  - {type: exact_match, name: inverted, threshold: 0.5, lower_is_better: true}\ncases: []\n',
    );
    const { events } = await collect(config, recordsOf([{ id: 'a', output: 'x', expected: 'x' }]));
    const statuses = events.flatMap((e) => (e.type === 'result' ? [`${e.result.scorer}:${e.result.status}`] : []));
    assert.deepEqual(statuses, ['strict:pass', 'inverted:fail']);
  });

  it('runs at most `concurrency` cases at once and pulls records only as slots free', async () => {
    const gate = gatedScorer();
    const config = load('scorers: {gated: {}}\ncases: []\n', [gate.definition]);
    let pulled = 0;
    async function* counted(): AsyncIterable<DatasetRecord> {
      for await (const r of recordsOf(cases(6))) {
        pulled++;
        yield r;
      }
    }
    const running = collect(config, counted(), { concurrency: 2 });
    await gate.waitStarted(2);
    assert.deepEqual(gate.started, ['c1', 'c2']);
    assert.equal(pulled, 2);
    gate.release('c1');
    await gate.waitStarted(3);
    assert.deepEqual(gate.started, ['c1', 'c2', 'c3']);
    for (const c of cases(6)) gate.release(c.id);
    const { outcome } = await running;
    assert.equal(outcome.summary.total, 6);
  });

  it('on cancellation starts no new case, lets running ones finish, and reports what finished', async () => {
    const gate = gatedScorer();
    const config = load('scorers: {gated: {}}\ncases: []\n', [gate.definition]);
    const controller = new AbortController();
    const running = collect(config, recordsOf(cases(10)), { concurrency: 2, signal: controller.signal });
    await gate.waitStarted(2);
    controller.abort();
    gate.release('c1');
    gate.release('c2');
    const { outcome, events } = await running;
    assert.equal(outcome.cancelled, true);
    assert.deepEqual(gate.started, ['c1', 'c2']);
    assert.equal(outcome.summary.passed, 2);
    const end = events[events.length - 1];
    assert.ok(end && end.type === 'run/end' && end.cancelled);
  });

  it('scores each case as its preparer returns it, and turns a failing preparation into error results', async () => {
    const prepared: string[] = [];
    const preparer = {
      prepare: async (c: EvalCase) => {
        prepared.push(c.id);
        if (c.id === 'c2') throw new Error('the database refused the connection');
        return { ...c, output: c.expected ?? null };
      },
      close: async () => {},
    };
    const { events } = await collect(load('scorers: {exact_match: {}}\ncases: []\n'), recordsOf(cases(2)), {
      preparer,
      concurrency: 1,
    });
    const ends = events.flatMap((e) => (e.type === 'case/end' ? [e] : []));
    assert.deepEqual(prepared, ['c1', 'c2']);
    assert.equal(ends[0]?.status, 'passed');
    assert.equal(ends[1]?.status, 'errored');
    assert.match(ends[1]?.results[0]?.reason ?? '', /refused the connection/);
  });

  it('aggregates results into per-scorer tests and the job test', async () => {
    const config = load('scorers: {exact_match: {threshold: 0.5}}\npass_criteria: {threshold: 0.6}\ncases: []\n');
    const { outcome } = await collect(config, recordsOf(cases(4)));
    assert.equal(outcome.scorers[0]?.meanScore, 0.5);
    assert.equal(outcome.scorers[0]?.test?.pass, true);
    assert.deepEqual(outcome.jobTest, { score: 0.5, threshold: 0.6, pass: false });
  });
});

describe('runner bounds', () => {
  it('holds a library caller to at most 256 workers and 100 trials', async () => {
    let pulls = 0;
    const empty: AsyncIterable<DatasetRecord> = {
      [Symbol.asyncIterator]: () => ({
        next: () => {
          pulls++;
          return Promise.resolve({ done: true, value: undefined });
        },
      }),
    };
    const { events, outcome } = await collect(load('scorers: {exact_match: {}}\ncases: []\n'), empty, {
      concurrency: 10_000,
      trials: 50_000,
    });
    // Each worker asks for a record once and stops at the end of the stream.
    assert.equal(pulls, 256);
    assert.equal(outcome.numTrials, 100);
    const start = events[0];
    assert.equal(start?.type === 'run/start' ? start.numTrials : undefined, 100);
  });
});
