import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Action } from '../../webview/model/actions';
import { visibleRows } from '../../webview/model/query';
import { caseRequestFor, persistedView, persistedViewChanged, reduce } from '../../webview/model/reducer';
import { groupedRows } from '../../webview/model/groups';
import {
  type ViewState,
  caseOfRowKey,
  caseRowKey,
  initialState,
  resultKey,
  selectedResult,
} from '../../webview/model/viewState';
import { CONFIG, caseId, reportOf } from './support/runs';

function run(actions: readonly Action[], from: ViewState = initialState()): ViewState {
  return actions.reduce(reduce, from);
}

const shown = (cases: number): ViewState => run([{ type: 'report/show', report: reportOf(cases), complete: true }]);

/** The visible rows as "case/scorer" strings, the way a person reads the table. */
function table(state: ViewState): string[] {
  return visibleRows(state).map((p) => {
    const r = state.results.items[p];
    return r === undefined ? '?' : `${r.caseId.replace('case-0000', '')}/${r.scorer}`;
  });
}

describe('results view reducer: filters, search and sort', () => {
  it('opens worst first (failures before measures before passes), ties in dataset order', () => {
    const state = shown(2);
    assert.deepEqual(table(state), [
      '00/judge',
      '01/exact_match',
      '01/judge',
      '00/tokens',
      '01/tokens',
      '00/exact_match',
    ]);
  });

  it('filters by status (several statuses are a union) and clears', () => {
    let state = run([{ type: 'ui/toggleStatus', status: 'fail' }], shown(8));
    assert.ok(visibleRows(state).every((p) => state.results.items[p]?.status === 'fail'));
    const fails = visibleRows(state).length;
    state = reduce(state, { type: 'ui/toggleStatus', status: 'error' });
    assert.ok(visibleRows(state).length > fails);
    assert.ok(visibleRows(state).every((p) => ['fail', 'error'].includes(state.results.items[p]?.status ?? '')));
    state = reduce(state, { type: 'ui/toggleStatus', status: 'fail' });
    assert.ok(visibleRows(state).every((p) => state.results.items[p]?.status === 'error'));
    state = reduce(state, { type: 'ui/clearFilters' });
    assert.equal(visibleRows(state).length, state.results.size);
  });

  it('filters by scorer and combines it with the status filter', () => {
    const state = run(
      [
        { type: 'ui/toggleScorer', scorer: 'exact_match' },
        { type: 'ui/toggleStatus', status: 'pass' },
      ],
      shown(8),
    );
    const rows = visibleRows(state).map((p) => state.results.items[p]);
    assert.equal(rows.length, 4, 'cases 0, 2, 4, 6 pass exact_match');
    assert.ok(rows.every((r) => r?.scorer === 'exact_match' && r.status === 'pass'));
  });

  it('searches case ids, scorers and reasons, ignoring case', () => {
    assert.deepEqual(table(run([{ type: 'ui/search', text: 'CASE-000003' }], shown(5))), [
      '03/exact_match',
      '03/judge',
      '03/tokens',
    ]);
    const byReason = run([{ type: 'ui/search', text: 'Differ AT' }], shown(8));
    assert.ok(visibleRows(byReason).length > 0);
    assert.ok(visibleRows(byReason).every((p) => byReason.results.items[p]?.reason.includes('differ at')));
    assert.deepEqual(table(run([{ type: 'ui/search', text: 'no such text' }], shown(5))), []);
  });

  it('sorts by any column; the same column again flips the direction; missing scores sort last both ways', () => {
    let state = run([{ type: 'ui/sort', column: 'score' }], shown(8));
    const scores = () => visibleRows(state).map((p) => state.results.items[p]?.score);
    const ascending = scores();
    const firstMissing = ascending.indexOf(undefined);
    assert.ok(
      firstMissing > 0 && ascending.slice(firstMissing).every((s) => s === undefined),
      'results without a score come last',
    );
    const numbers = ascending.filter((s): s is number => s !== undefined);
    assert.deepEqual(
      numbers,
      [...numbers].sort((a, b) => a - b),
    );
    state = reduce(state, { type: 'ui/sort', column: 'score' });
    assert.deepEqual(state.sort, { column: 'score', direction: 'desc' });
    const descending = scores().filter((s): s is number => s !== undefined);
    assert.deepEqual(
      descending,
      [...numbers].sort((a, b) => b - a),
    );
    assert.equal(scores().at(-1), undefined);

    state = reduce(state, { type: 'ui/sort', column: 'status' });
    const statuses = visibleRows(state).map((p) => state.results.items[p]?.status);
    assert.equal(statuses[0], 'error', 'worst first');
    assert.equal(statuses.at(-1), 'pass');

    state = run([{ type: 'ui/sort', column: 'case' }], shown(3));
    assert.deepEqual(
      state.sort,
      { column: 'case', direction: 'asc' },
      'the default sort is status (worst first), so a click on Case sorts by case ascending',
    );
    state = reduce(state, { type: 'ui/sort', column: 'case' });
    assert.deepEqual(
      table(state).slice(0, 3),
      ['02/exact_match', '02/judge', '02/tokens'],
      'case descending, ties in arrival order',
    );
  });

  it('sorts by scorer, reason, trial and duration', () => {
    const state = shown(4);
    for (const column of ['scorer', 'reason', 'trial', 'duration'] as const) {
      const sorted = reduce(state, { type: 'ui/sort', column });
      const values = visibleRows(sorted).map((p) => {
        const r = sorted.results.items[p];
        return column === 'scorer'
          ? r?.scorer
          : column === 'reason'
            ? r?.reason
            : column === 'trial'
              ? r?.trial
              : r?.durationMs;
      });
      const expected = [...values].sort((a, b) =>
        a === undefined || b === undefined ? 0 : a < b ? -1 : a > b ? 1 : 0,
      );
      assert.deepEqual(values, expected, column);
    }
  });
});

describe('results view reducer: selection and detail', () => {
  it('moves the selection through the grouped rows (a case, then its scorers when open) and stops at the ends', () => {
    // judge alone: cases 0, 1 and 3 fail it (open, failing first), case 2 passes it (closed, last).
    let state = run([{ type: 'ui/toggleScorer', scorer: 'judge' }], shown(4));
    const at = (s: ViewState): string =>
      s.selected === undefined
        ? '-'
        : (caseOfRowKey(s.selected) ?? `${selectedResult(s)?.caseId ?? '?'}/${selectedResult(s)?.scorer ?? '?'}`);
    const steps: string[] = [];
    for (let i = 0; i < 8; i++) {
      state = reduce(state, { type: 'ui/move', by: 1 });
      steps.push(at(state));
    }
    assert.deepEqual(steps, [
      caseId(0),
      `${caseId(0)}/judge`,
      caseId(1),
      `${caseId(1)}/judge`,
      caseId(3),
      `${caseId(3)}/judge`,
      caseId(2),
      caseId(2),
    ]);
    assert.equal(selectedResult(state)?.scorer, 'judge', "a case row's result is its worst the filters show");
    state = run(
      [
        { type: 'ui/move', by: 'first' },
        { type: 'ui/move', by: -1 },
      ],
      state,
    );
    assert.equal(at(state), caseId(0));
    state = run([{ type: 'ui/move', by: 'last' }], state);
    assert.equal(at(state), caseId(2));
  });

  it('opens and closes a case; closing it with one of its scorers selected selects the case', () => {
    let state = shown(3);
    const rowsOf = (s: ViewState): string[] =>
      groupedRows(s).rows.map((r) => (r.kind === 'case' ? `${r.caseId}${r.open ? ' ▾' : ' ▸'}` : `  ${r.scorer}`));
    assert.deepEqual(rowsOf(state), [
      `${caseId(0)} ▾`,
      '  judge',
      '  tokens',
      '  exact_match',
      `${caseId(1)} ▾`,
      '  exact_match',
      '  judge',
      '  tokens',
      `${caseId(2)} ▸`,
    ]);
    state = run(
      [
        { type: 'ui/toggleCase', caseId: caseId(2) },
        { type: 'ui/select', key: resultKey({ caseId: caseId(0), scorer: 'tokens', trial: 1 }) },
        { type: 'ui/toggleCase', caseId: caseId(0), open: false },
      ],
      state,
    );
    assert.deepEqual(rowsOf(state), [
      `${caseId(0)} ▸`,
      `${caseId(1)} ▾`,
      '  exact_match',
      '  judge',
      '  tokens',
      `${caseId(2)} ▾`,
      '  tokens',
      '  exact_match',
      '  judge',
    ]);
    assert.equal(state.selected, caseRowKey(caseId(0)));
    assert.equal(
      reduce(state, { type: 'ui/toggleCase', caseId: caseId(0), open: false }),
      state,
      'closing a closed case changes nothing',
    );
  });

  it('sums up the trials of a scorer in one row', () => {
    const report = reportOf(1);
    const trials = [1, 2, 3].flatMap((trial) =>
      report.results.map((r) => ({
        ...r,
        trial,
        status: r.scorer === 'judge' && trial === 2 ? ('pass' as const) : r.status,
      })),
    );
    const state = run([{ type: 'report/show', report: { ...report, numTrials: 3, results: trials }, complete: true }]);
    const judge = groupedRows(state).rows.find((r) => r.kind === 'scorer' && r.scorer === 'judge');
    assert.ok(judge?.kind === 'scorer');
    assert.deepEqual(
      { trials: judge.trials, passed: judge.passedTrials, shown: judge.shown.trial },
      { trials: 3, passed: 1, shown: 1 },
    );
    assert.equal(groupedRows(state).rows.length, 4, 'one case row and three scorer rows for nine results');
  });

  it('selects only results that exist, and opens the detail only with a selection', () => {
    const state = shown(2);
    assert.equal(reduce(state, { type: 'ui/select', key: 'nothing' }), state);
    assert.equal(reduce(state, { type: 'ui/openDetail' }).detailOpen, false);
  });

  it('opening the detail asks for the case data once, and the answer fills it', () => {
    const before = run(
      [{ type: 'ui/select', key: resultKey({ caseId: caseId(1), scorer: 'judge', trial: 1 }) }],
      shown(3),
    );
    const opened = reduce(before, { type: 'ui/openDetail' });
    assert.deepEqual(opened.caseData, { status: 'loading', configFile: CONFIG, caseId: caseId(1) });
    assert.deepEqual(caseRequestFor(before, opened), { configFile: CONFIG, caseId: caseId(1) });

    const sameCase = reduce(opened, {
      type: 'ui/select',
      key: resultKey({ caseId: caseId(1), scorer: 'tokens', trial: 1 }),
    });
    assert.equal(caseRequestFor(opened, sameCase), undefined, 'another scorer of the same case needs no new request');

    const stale = reduce(sameCase, {
      type: 'case/data',
      configFile: CONFIG,
      caseId: caseId(2),
      data: { id: caseId(2) },
    });
    assert.equal(stale.caseData?.status, 'loading', 'an answer for another case is ignored');
    const loaded = reduce(stale, {
      type: 'case/data',
      configFile: CONFIG,
      caseId: caseId(1),
      data: { id: caseId(1), output: 'hello' },
    });
    assert.deepEqual(loaded.caseData, {
      status: 'loaded',
      configFile: CONFIG,
      caseId: caseId(1),
      data: { id: caseId(1), output: 'hello' },
    });

    // case 1's judge row, then its tokens row, then case 2's (closed) row.
    const moved = reduce(loaded, { type: 'ui/move', by: 2 });
    assert.equal(selectedResult(moved)?.caseId, caseId(2));
    assert.deepEqual(caseRequestFor(loaded, moved), { configFile: CONFIG, caseId: caseId(2) });
    const missing = reduce(moved, {
      type: 'case/unavailable',
      configFile: CONFIG,
      caseId: caseId(2),
      reason: 'the dataset is gone',
    });
    assert.deepEqual(missing.caseData, {
      status: 'unavailable',
      configFile: CONFIG,
      caseId: caseId(2),
      reason: 'the dataset is gone',
    });

    const closed = reduce(missing, { type: 'ui/closeDetail' });
    assert.equal(closed.detailOpen, false);
  });

  it('keeps the choices across a hide and show (persisted view), and ignores what no longer fits', () => {
    const chosen = run(
      [
        { type: 'ui/toggleStatus', status: 'fail' },
        { type: 'ui/search', text: 'judge' },
        { type: 'ui/sort', column: 'score' },
        { type: 'ui/move', by: 1 },
        { type: 'ui/openDetail' },
      ],
      shown(4),
    );
    const saved = JSON.parse(JSON.stringify(persistedView(chosen))) as ReturnType<typeof persistedView>;
    const restored = run([
      { type: 'ui/restore', view: saved },
      { type: 'report/show', report: reportOf(4), complete: true },
    ]);
    assert.deepEqual(restored.filters, chosen.filters);
    assert.deepEqual(restored.sort, chosen.sort);
    assert.equal(restored.selected, chosen.selected);
    assert.equal(restored.detailOpen, true);
    assert.equal(restored.caseData?.status, 'loading', 'the restored detail asks for its case again');

    const odd = reduce(initialState(), {
      type: 'ui/restore',
      view: {
        filters: { statuses: ['pass', 'bogus' as 'pass'], scorers: [], search: '' },
        sort: { column: 'nope' as 'case', direction: 'asc' },
        detailOpen: false,
      },
    });
    assert.deepEqual(odd.filters.statuses, ['pass']);
    assert.equal(odd.sort.column, 'status');
  });

  it('view/clear forgets the run but keeps the choices; a new run of the same config finds the selected case again', () => {
    const before = run(
      [
        { type: 'ui/toggleStatus', status: 'fail' },
        { type: 'ui/sort', column: 'score' },
        { type: 'ui/move', by: 1 },
      ],
      shown(3),
    );
    const chosen = selectedResult(before);
    assert.ok(chosen !== undefined);
    const state = reduce(before, { type: 'view/clear' });
    assert.equal(state.run, undefined);
    assert.equal(state.results.size, 0);
    assert.equal(selectedResult(state), undefined, 'nothing to select in an empty view');
    const again = reduce(state, { type: 'report/show', report: reportOf(3, 'run-2'), complete: true });
    assert.deepEqual(selectedResult(again), chosen);
    const other = reduce(again, { type: 'report/show', report: reportOf(0, 'run-3'), complete: true });
    assert.equal(selectedResult(other), undefined, 'a key that finds nothing selects nothing');
    assert.deepEqual(state.filters.statuses, ['fail']);
    assert.equal(state.sort.column, 'score');
  });

  it('view/clear with a notice keeps it while nothing is shown; the next run or a plain clear drops it', () => {
    const state = reduce(shown(2), { type: 'view/clear', notice: 'the run ended with the window' });
    assert.equal(state.notice, 'the run ended with the window');
    assert.equal(
      reduce(state, { type: 'report/show', report: reportOf(1, 'run-2'), complete: true }).notice,
      undefined,
    );
    assert.equal(reduce(state, { type: 'view/clear' }).notice, undefined);
  });

  it('saves which run is shown with the choices, and saves again when that run or a choice changes', () => {
    const state = shown(3);
    assert.deepEqual(persistedView(state).source, {
      runId: 'run-1',
      configFile: CONFIG,
      kind: 'report',
      complete: true,
    });
    assert.equal(persistedView(initialState()).source, undefined);
    assert.equal(persistedViewChanged(initialState(), state), true, 'a run appeared');
    assert.equal(
      persistedViewChanged(state, reduce(state, { type: 'report/show', report: reportOf(3, 'run-2'), complete: true })),
      true,
      'another run',
    );
    assert.equal(
      persistedViewChanged(state, reduce(state, { type: 'ui/toggleScorer', scorer: 'judge' })),
      true,
      'a filter',
    );
    assert.equal(
      persistedViewChanged(
        state,
        reduce(state, { type: 'case/unavailable', configFile: CONFIG, caseId: caseId(0), reason: 'gone' }),
      ),
      false,
      'nothing saved changed',
    );
  });
});
