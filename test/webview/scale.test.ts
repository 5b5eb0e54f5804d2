import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LiveRun } from '../../extension/results/liveRun';
import { reportMessages } from '../../extension/results/reportMessages';
import { census } from '../../webview/model/derived';
import { visibleRows } from '../../webview/model/query';
import { reduce } from '../../webview/model/reducer';
import { scorerDistributions } from '../../webview/model/summary';
import { initialState, selectedResult } from '../../webview/model/viewState';
import { SCORERS, eventsOf, reportOf } from './support/runs';

// 33,334 cases × 3 scorers: just over 100,000 results.
const CASES = 33_334;

describe('100,000 results', () => {
  it('a report loads in chunks, and filtering, search, sort, moving and the score distributions work on it', () => {
    const report = reportOf(CASES);
    assert.ok(report.results.length >= 100_000);
    const messages = reportMessages(report);
    assert.ok(messages.length <= 25, `a report of ${report.results.length} results is ${messages.length} messages`);
    let state = messages.reduce(reduce, initialState());
    assert.equal(state.results.size, report.results.length);
    assert.equal(state.run?.complete, true);

    state = reduce(state, { type: 'ui/toggleStatus', status: 'timeout' });
    const timeouts = visibleRows(state);
    assert.equal(timeouts.length, Math.floor(CASES / 8) + (CASES % 8 > 7 ? 1 : 0));
    assert.ok(timeouts.every((p) => state.results.items[p]?.status === 'timeout'));

    state = reduce(reduce(state, { type: 'ui/clearFilters' }), { type: 'ui/search', text: 'case-033333' });
    assert.equal(visibleRows(state).length, 3);

    state = reduce(reduce(state, { type: 'ui/search', text: '' }), { type: 'ui/sort', column: 'score' });
    state = reduce(state, { type: 'ui/sort', column: 'score' });
    // The first row is the case with the largest score; the first scorer under it holds that score.
    state = reduce(reduce(state, { type: 'ui/move', by: 'first' }), { type: 'ui/move', by: 1 });
    assert.equal(selectedResult(state)?.score, 149, 'the largest score is a token count of 149');

    const counts = census(state.results.items, SCORERS).statusCounts;
    assert.equal(
      [...counts.values()].reduce((a, b) => a + b, 0),
      report.results.length,
    );
    const distributions = scorerDistributions(state.results.items, SCORERS);
    assert.equal(
      distributions.reduce((n, d) => n + d.counted, 0),
      report.results.filter((r) => r.score !== undefined).length,
    );
  });

  it('a live run of 100,000 results reaches the view in a few hundred messages, and folds to the same table', () => {
    const events = eventsOf(CASES);
    const live = new LiveRun('/work/evals/support.eval.yaml');
    let state = initialState();
    let messages = 0;
    // Flush every 997 events: the host flushes on a 50 ms timer, whatever arrived in between.
    for (const [i, event] of events.entries()) {
      live.push(event);
      if (i % 997 === 0) {
        for (const message of live.flush()) {
          messages++;
          state = reduce(state, message);
        }
      }
    }
    for (const message of live.flush()) {
      messages++;
      state = reduce(state, message);
    }
    assert.ok(messages < 200, `${messages} messages`);
    assert.equal(state.results.size, CASES * 3);
    assert.equal(state.run?.complete, true);
    assert.equal(state.cases.size, CASES);
  });
});
