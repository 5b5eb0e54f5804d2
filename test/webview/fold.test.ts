import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RunEvent } from '../../core/runner/events';
import { reportMessages } from '../../extension/results/reportMessages';
import type { Action } from '../../webview/model/actions';
import { visibleRows } from '../../webview/model/query';
import { reduce } from '../../webview/model/reducer';
import { type ViewState, initialState, resultKey, selectedResult } from '../../webview/model/viewState';
import { CONFIG, DATASET, SCORERS, caseId, eventsOf, reportOf, resultsOf } from './support/runs';

function run(actions: readonly Action[], from: ViewState = initialState()): ViewState {
  return actions.reduce(reduce, from);
}

const batch = (events: readonly RunEvent[]): Action => ({ type: 'run/events', events });

describe('live events folding into the table', () => {
  it('a run/start starts an empty live view with the run head', () => {
    const state = run([batch(eventsOf(0).slice(0, 1))]);
    assert.equal(state.run?.kind, 'live');
    assert.equal(state.run?.configFile, CONFIG);
    assert.equal(state.run?.complete, false);
    assert.deepEqual(state.run?.scorers, SCORERS);
    assert.equal(state.results.size, 0);
  });

  it('shows a case as running from case/start, with its 1-based dataset line', () => {
    const state = run([batch(eventsOf(2).slice(0, 2))]);
    assert.deepEqual(state.cases.get(caseId(0)), {
      id: caseId(0),
      index: 0,
      status: 'running',
      location: { file: DATASET, line: 1, column: 1 },
    });
  });

  it('folds result events as they come, and case/end (which repeats them) adds no duplicates', () => {
    const events = eventsOf(3);
    const midCase = run([batch(events.slice(0, 4))]);
    assert.equal(midCase.results.size, 2, 'run/start, case/start and two results');
    const all = run([batch(events)]);
    assert.equal(all.results.size, 9);
    assert.equal(new Set(all.results.items.map(resultKey)).size, 9);
    assert.equal(all.cases.get(caseId(1))?.status, 'failed');
    assert.equal(all.run?.complete, true);
    assert.deepEqual(all.run?.summary, { passed: 1, failed: 2, errored: 0, skipped: 0, total: 3 });
  });

  it('gives the same table whether events come one by one, in batches, or as case/end only', () => {
    const events = eventsOf(20);
    const oneByOne = run(events.map((e) => batch([e])));
    const inBatches = run([batch(events.slice(0, 17)), batch(events.slice(17, 60)), batch(events.slice(60))]);
    const caseEndsOnly = run([batch(events.filter((e) => e.type !== 'result'))]);
    const report = run([{ type: 'report/show', report: reportOf(20), complete: true }]);
    for (const state of [inBatches, caseEndsOnly]) assert.deepEqual(state.results.items, oneByOne.results.items);
    assert.deepEqual(
      [...oneByOne.results.items].sort((a, b) => resultKey(a).localeCompare(resultKey(b))),
      [...report.results.items].sort((a, b) => resultKey(a).localeCompare(resultKey(b))),
      'a live run shows the results its report will',
    );
  });

  it('a later version of a result replaces the earlier one', () => {
    const [start, caseStart, first] = eventsOf(1);
    assert.ok(start !== undefined && caseStart !== undefined && first?.type === 'result');
    const again: RunEvent = {
      type: 'result',
      result: { ...first.result, status: 'error', reason: 'retried and failed' },
    };
    const state = run([batch([start, caseStart, first]), batch([again])]);
    assert.equal(state.results.size, 1);
    assert.equal(state.results.items[0]?.reason, 'retried and failed');
  });

  it('takes the live aggregates the host sends (scorer pass rates, job score so far)', () => {
    const aggregates = { scorers: reportOf(1).scorers, job: { score: 0.7, threshold: 0.5, pass: true } };
    const state = run([{ type: 'run/events', events: eventsOf(1), aggregates }]);
    assert.deepEqual(state.run?.aggregates, aggregates.scorers);
    assert.deepEqual(state.run?.job, aggregates.job);
  });

  it('a new run/start replaces the previous run', () => {
    const state = run([batch(eventsOf(5, 'first')), batch(eventsOf(2, 'second'))]);
    assert.equal(state.run?.runId, 'second');
    assert.equal(state.results.size, 6);
    assert.equal(state.cases.size, 2);
  });

  it('filters and sorting apply while results stream in', () => {
    const events = eventsOf(16);
    let state = run([{ type: 'ui/toggleStatus', status: 'error' }, batch(events.slice(0, 30))]);
    const early = visibleRows(state).length;
    state = reduce(state, batch(events.slice(30)));
    assert.ok(visibleRows(state).length > early);
    assert.ok(visibleRows(state).every((p) => state.results.items[p]?.status === 'error'));
  });
});

describe('report loading', () => {
  it('shows a report: run head, summary, job test, cases with locations, results', () => {
    const report = reportOf(4);
    const state = run([{ type: 'report/show', report, complete: true }]);
    assert.equal(state.run?.kind, 'report');
    assert.equal(state.run?.complete, true);
    assert.deepEqual(state.run?.summary, report.summary);
    assert.deepEqual(state.run?.job, report.job.test);
    assert.deepEqual(state.cases.get(caseId(3))?.location, { file: DATASET, line: 4, column: 1 });
    assert.deepEqual(state.results.items, report.results);
  });

  it('assembles a report sent in chunks, complete only with the last one', () => {
    const report = reportOf(100);
    const messages = reportMessages(report, 64);
    assert.ok(messages.length > 2);
    let state = initialState();
    for (const [i, message] of messages.entries()) {
      state = reduce(state, message);
      assert.equal(state.run?.complete, i === messages.length - 1);
    }
    assert.deepEqual(state.results.items, report.results);
    assert.equal(state.cases.size, 100);
  });

  it('the report of the live run just shown keeps the selection and the detail', () => {
    const live = run([
      batch(eventsOf(4, 'same')),
      { type: 'ui/select', key: resultKey(resultsOf(2)[1] ?? { caseId: '', scorer: '', trial: 0 }) },
      { type: 'ui/openDetail' },
    ]);
    const data = reduce(live, {
      type: 'case/data',
      configFile: CONFIG,
      caseId: caseId(2),
      data: { id: caseId(2), output: 'x' },
    });
    const finished = reduce(data, { type: 'report/show', report: reportOf(4, 'same'), complete: true });
    assert.equal(finished.run?.kind, 'report');
    assert.equal(selectedResult(finished)?.caseId, caseId(2));
    assert.equal(finished.detailOpen, true);
    assert.equal(finished.caseData?.status, 'loaded');
  });
});
