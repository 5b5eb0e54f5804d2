import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ScorerResult } from '../../core/result';
import type { Report } from '../../core/report/report';
import type { Action } from '../../webview/model/actions';
import { detailEntries, detailsNote, expectedOutputDiff, withDetails } from '../../webview/model/caseView';
import { visibleRows } from '../../webview/model/query';
import { caseRequestFor, detailsRequestFor, reduce } from '../../webview/model/reducer';
import { type ViewState, initialState, resultKey, selectedResult } from '../../webview/model/viewState';
import { isHostToWebview, isWebviewToHost } from '../../protocol/webview';
import { caseId, reportOf } from './support/runs';

/** The report as `report --stream` sends it: every result without its details. */
function withoutDetails(report: Report): Report {
  return { ...report, results: report.results.map(({ details: _d, ...r }) => r) };
}

const run = (actions: readonly Action[], from: ViewState = initialState()): ViewState => actions.reduce(reduce, from);

const apart = (cases: number): ViewState =>
  run([{ type: 'report/show', report: withoutDetails(reportOf(cases)), complete: true, detailsApart: true }]);

const judgeOf = (i: number) => resultKey({ caseId: caseId(i), scorer: 'judge', trial: 1 });

describe('a report whose results came without their details (report --stream, detailsApart)', () => {
  it('opening a row asks the host for that case’s details once, beside its case data; the answer fills the pane', () => {
    const before = run([{ type: 'ui/select', key: judgeOf(1) }], apart(3));
    assert.equal(before.run?.detailsApart, true);
    const opened = reduce(before, { type: 'ui/openDetail' });
    assert.deepEqual(detailsRequestFor(before, opened), { runId: 'run-1', caseId: caseId(1) });
    assert.ok(caseRequestFor(before, opened) !== undefined, 'the case data is asked for as before');
    assert.equal(detailsNote(true, opened.caseDetails), 'Loading the details from the report…');

    const sameCase = reduce(opened, {
      type: 'ui/select',
      key: resultKey({ caseId: caseId(1), scorer: 'tokens', trial: 1 }),
    });
    assert.equal(
      detailsRequestFor(opened, sameCase),
      undefined,
      'another result of the same case needs no new request',
    );

    const stale = reduce(sameCase, {
      type: 'details/data',
      runId: 'run-1',
      caseId: caseId(2),
      results: [{ scorer: 'judge', trial: 1, details: { reasoning: 'other' } }],
    });
    assert.equal(stale.caseDetails?.status, 'loading', 'an answer for another case is ignored');
    const details = { reasoning: 'answer 1 is not grounded', model: 'test-double-judge' };
    const loaded = reduce(stale, {
      type: 'details/data',
      runId: 'run-1',
      caseId: caseId(1),
      results: [
        { scorer: 'exact_match', trial: 1 },
        { scorer: 'judge', trial: 1, details },
      ],
    });
    assert.equal(detailsNote(true, loaded.caseDetails), undefined);
    const judge = loaded.results.get(judgeOf(1)) as ScorerResult;
    assert.equal(judge.details, undefined, 'the bulk results stay without details');
    assert.deepEqual(withDetails(judge, loaded.caseDetails).details, details);
    assert.deepEqual(
      detailEntries(withDetails(judge, loaded.caseDetails)).map((e) => e.label),
      ['reasoning', 'model'],
      'the pane shows the details as it did when they came inline',
    );

    const moved = reduce(loaded, { type: 'ui/select', key: judgeOf(2) });
    assert.deepEqual(detailsRequestFor(loaded, moved), { runId: 'run-1', caseId: caseId(2) });
    const missing = reduce(moved, { type: 'details/unavailable', runId: 'run-1', caseId: caseId(2), reason: 'gone' });
    assert.equal(detailsNote(true, missing.caseDetails), 'Details not available: gone');
  });

  it('the same report again (the panel shown after being hidden) keeps the details it had', () => {
    let state = run([{ type: 'ui/select', key: judgeOf(1) }, { type: 'ui/openDetail' }], apart(2));
    state = reduce(state, {
      type: 'details/data',
      runId: 'run-1',
      caseId: caseId(1),
      results: [{ scorer: 'judge', trial: 1, details: { reasoning: 'kept' } }],
    });
    const again = reduce(state, {
      type: 'report/show',
      report: withoutDetails(reportOf(2)),
      complete: true,
      detailsApart: true,
    });
    assert.equal(again.caseDetails?.status, 'loaded');
    assert.equal(detailsRequestFor(state, again), undefined);
  });

  it('a report or a live run with details inline asks for none', () => {
    const inline = run(
      [
        { type: 'report/show', report: reportOf(2), complete: true },
        { type: 'ui/select', key: judgeOf(1) },
      ],
      initialState(),
    );
    const opened = reduce(inline, { type: 'ui/openDetail' });
    assert.equal(opened.caseDetails, undefined);
    assert.equal(detailsRequestFor(inline, opened), undefined);
    assert.equal(detailsNote(opened.run?.detailsApart === true, opened.caseDetails), undefined);
    const result = selectedResult(opened) as ScorerResult;
    assert.deepEqual(withDetails(result, opened.caseDetails), result);
  });

  it('the search finds the same rows with or without details (it reads case id, scorer, status and reason)', () => {
    const whole = run([{ type: 'report/show', report: reportOf(40), complete: true }]);
    const bare = apart(40);
    for (const text of ['grounded', 'judge', 'answer 1', 'fail', caseId(7), 'texts differ', 'test-double']) {
      const a = reduce(whole, { type: 'ui/search', text });
      const b = reduce(bare, { type: 'ui/search', text });
      assert.deepEqual(
        visibleRows(b).map((p) => b.results.items[p]?.reason),
        visibleRows(a).map((p) => a.results.items[p]?.reason),
        text,
      );
    }
  });

  it('the diff waits for the selected result’s details: the scorer’s sides, not the case’s texts', () => {
    const result: ScorerResult = {
      caseId: 'c',
      scorer: 'exact',
      trial: 1,
      status: 'fail',
      reason: 'differs',
      details: { expected: 'abc', actual: 'abd' },
      durationMs: 1,
    };
    const { details: _d, ...bare } = result;
    const loaded = {
      status: 'loaded' as const,
      runId: 'r',
      caseId: 'c',
      results: [{ scorer: 'exact', trial: 1, details: { expected: 'abc', actual: 'abd' } }],
    };
    const fields = { expected: 'whole expected', output: 'whole output' };
    assert.deepEqual(
      expectedOutputDiff(fields, withDetails(bare, loaded), 'exact_match'),
      expectedOutputDiff(fields, result, 'exact_match'),
    );
  });

  it('the protocol carries the flag, the request and both answers', () => {
    const report = withoutDetails(reportOf(1));
    assert.ok(isHostToWebview({ type: 'report/show', report, complete: true, detailsApart: true }));
    assert.ok(!isHostToWebview({ type: 'report/show', report, complete: true, detailsApart: 'yes' }));
    assert.ok(isHostToWebview({ type: 'details/data', runId: 'r', caseId: 'c', results: [{ scorer: 's', trial: 1 }] }));
    assert.ok(
      !isHostToWebview({
        type: 'details/data',
        runId: 'r',
        caseId: 'c',
        results: [{ scorer: 's', trial: 1, details: [1] }],
      }),
    );
    assert.ok(isHostToWebview({ type: 'details/unavailable', runId: 'r', caseId: 'c', reason: 'why' }));
    assert.ok(isWebviewToHost({ type: 'details/request', runId: 'r', caseId: 'c' }));
    assert.ok(!isWebviewToHost({ type: 'details/request', runId: 'r' }));
  });
});
