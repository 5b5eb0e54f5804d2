/**
 * The compare mode's model: the comparison arriving in chunks, the rows shown (worst transition first,
 * regressions only, search), keyboard moves, and the scorer lines and case sides it shows.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CompareCase, CompareHead } from '../../protocol/compareView';
import {
  caseSides,
  type CompareAction,
  compareRows,
  type CompareState,
  initialCompare,
  reduceCompare,
} from '../../webview/model/compare';
import { compareScorerLines, notComparedLine, transitionCountsLine } from '../../webview/model/compareSummary';

const HEAD: CompareHead = {
  version: 1,
  baseline: { file: 'runs/a', runId: 'a', config: 'refunds.eval.yaml', cases: 5 },
  candidate: { file: 'runs/b', runId: 'b', config: 'refunds.eval.yaml', cases: 5 },
  fail_on: 'regression',
  failed: true,
  counts: { regressed: 2, fixed: 1, unchanged_pass: 1, unchanged_fail: 0, added: 1, removed: 1 },
  not_compared: { only_in_baseline: ['latency'], only_in_candidate: [] },
  scorers: [
    {
      name: 'contains',
      lower_is_better: false,
      test: 'exact_mcnemar',
      measure: 'pass_rate',
      baseline: { mean: 1, stderr: 0, ci_low: 1, ci_high: 1, n: 30 },
      candidate: { mean: 0.6, stderr: 0.091, ci_low: 0.4139, ci_high: 0.7861, n: 30 },
      delta: { mean: -0.4, ci_low: -0.5861, ci_high: -0.2139, stderr: 0.091, mde: 0.2638, n: 30 },
      p_value: 0.001465,
      p_value_raw: 0.000488,
      verdict: 'regressed',
      discordant: { regressed: 12, fixed: 0 },
    },
    {
      name: 'edit_similarity',
      lower_is_better: false,
      test: 'paired_t',
      measure: 'score',
      baseline: { mean: 0.95, stderr: 0.01, ci_low: 0.93, ci_high: 0.97, n: 30 },
      candidate: { mean: 0.94, stderr: 0.01, ci_low: 0.92, ci_high: 0.96, n: 30 },
      delta: { mean: -0.01, ci_low: -0.03, ci_high: 0.01, stderr: 0.01, mde: 0.029, n: 30 },
      p_value: 0.32,
      p_value_raw: 0.32,
      verdict: 'no significant change',
    },
  ],
};

const CASES: CompareCase[] = [
  { id: 'a-pass', transition: 'unchanged_pass' },
  { id: 'b-regressed', transition: 'regressed' },
  { id: 'c-gone', transition: 'removed' },
  { id: 'd-fixed', transition: 'fixed' },
  { id: 'e-regressed', transition: 'regressed' },
  { id: 'f-new', transition: 'added' },
];

function apply(state: CompareState, ...actions: CompareAction[]): CompareState {
  return actions.reduce(reduceCompare, state);
}

function shown(state: CompareState): string[] {
  return compareRows(state).map((i) => state.cases[i]?.id ?? '?');
}

describe('compare mode model', () => {
  it('takes the comparison in chunks and lists what needs a look first, then in the report order', () => {
    const state = apply(
      initialCompare(),
      { type: 'compare/loading', baseline: 'runs/a', candidate: 'runs/b' },
      { type: 'compare/show', head: HEAD, cases: CASES.slice(0, 4), complete: false },
      { type: 'compare/append', cases: CASES.slice(4), complete: true },
    );
    assert.equal(state.status, 'shown');
    assert.equal(state.complete, true);
    assert.deepEqual(shown(state), ['b-regressed', 'e-regressed', 'd-fixed', 'c-gone', 'f-new', 'a-pass']);
  });

  it('filters to regressions only and searches ids and transitions', () => {
    let state = apply(initialCompare(), { type: 'compare/show', head: HEAD, cases: CASES, complete: true });
    state = reduceCompare(state, { type: 'compareUi/regressionsOnly', on: true });
    assert.deepEqual(shown(state), ['b-regressed', 'e-regressed']);
    state = reduceCompare(state, { type: 'compareUi/search', text: ' E-REG ' });
    assert.deepEqual(shown(state), ['e-regressed']);
    state = apply(state, { type: 'compareUi/regressionsOnly', on: false }, { type: 'compareUi/search', text: 'fixed' });
    assert.deepEqual(shown(state), ['d-fixed']);
  });

  it('moves the selection through the rows shown', () => {
    let state = apply(initialCompare(), { type: 'compare/show', head: HEAD, cases: CASES, complete: true });
    state = reduceCompare(state, { type: 'compareUi/move', by: 1 });
    assert.equal(state.selected, 'b-regressed');
    state = reduceCompare(state, { type: 'compareUi/move', by: 2 });
    assert.equal(state.selected, 'd-fixed');
    state = reduceCompare(state, { type: 'compareUi/move', by: 'last' });
    assert.equal(state.selected, 'a-pass');
    state = reduceCompare(state, { type: 'compareUi/move', by: 5 });
    assert.equal(state.selected, 'a-pass');
  });

  it('forgets the comparison when the CLI could not compare, or new runs are offered', () => {
    const loaded = apply(initialCompare(), { type: 'compare/show', head: HEAD, cases: CASES, complete: true });
    const failed = reduceCompare(loaded, { type: 'compare/failed', reason: 'a.json:1:1: not a report' });
    assert.deepEqual(
      [failed.status, failed.head, failed.cases.length, failed.reason],
      ['failed', undefined, 0, 'a.json:1:1: not a report'],
    );
    const offered = reduceCompare(failed, {
      type: 'compare/choices',
      runs: [{ path: 'runs/c', label: 'c', detail: '' }],
      candidate: 'runs/c',
    });
    assert.deepEqual(
      [offered.status, offered.reason, offered.baseline, offered.candidate],
      ['choosing', undefined, undefined, 'runs/c'],
    );
    // An append without a comparison (a stale chunk) changes nothing.
    assert.equal(reduceCompare(offered, { type: 'compare/append', cases: CASES, complete: true }), offered);
  });

  it('reads both runs’ status of a case and the change of its pass from its transition', () => {
    assert.deepEqual(caseSides('regressed'), { baseline: 'passed', candidate: 'not passed', delta: '−1' });
    assert.deepEqual(caseSides('fixed'), { baseline: 'not passed', candidate: 'passed', delta: '+1' });
    assert.deepEqual(caseSides('unchanged_fail'), { baseline: 'not passed', candidate: 'not passed', delta: '0' });
    assert.deepEqual(caseSides('added'), { baseline: '—', candidate: 'new case', delta: '' });
  });

  it('writes each scorer’s figures, delta with its interval, p-values and verdict', () => {
    const [contains, similarity] = compareScorerLines(HEAD);
    assert.deepEqual(
      contains && {
        baseline: contains.baseline,
        candidate: contains.candidate,
        delta: contains.delta,
        p: contains.p,
        pRaw: contains.pRaw,
        note: contains.note,
      },
      {
        baseline: '100% [100%, 100%]',
        candidate: '60% [41.4%, 78.6%]',
        delta: '−40% [−58.6%, −21.4%]',
        p: '0.0015',
        pRaw: '0.00049',
        note: '',
      },
    );
    assert.equal(contains?.deltaBar?.zero, 0);
    assert.equal(contains?.baselineBar?.max, 1, 'both sides of a pass rate on 0–100%');
    assert.equal(similarity?.delta, '−0.01 [−0.03, +0.01]');
    assert.equal(similarity?.note, 'could detect a change of 0.029 or more');
    assert.equal(similarity?.baselineBar?.min, similarity?.candidateBar?.min, 'one axis for both runs');
    assert.equal(transitionCountsLine(HEAD), '2 regressed, 1 fixed, 1 still passing, 1 added, 1 removed');
    assert.equal(notComparedLine(HEAD), 'Not compared (only in the baseline: latency)');
  });
});
