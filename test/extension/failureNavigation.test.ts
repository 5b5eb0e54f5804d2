import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { failingCases, failureNotice } from '../../extension/editor/failureNavigation';
import { LastResults } from '../../extension/testing/lastResults';
import { caseEnd, lineRangeOf, result } from './events';

const CONFIG = '/data/a.eval.yaml';

describe('reaching the failures after a run', () => {
  it('picks the failing and erroring cases in file and line order, whatever order they ended in', () => {
    const last = new LastResults();
    last.record(CONFIG, caseEnd('late', 7, 'failed', [result('late', 'x', 'fail')]));
    last.record(CONFIG, caseEnd('ok', 0, 'passed', [result('ok', 'x', 'pass')]));
    last.record(CONFIG, {
      ...caseEnd('other-file', 0, 'errored', [result('other-file', 'x', 'error')]),
      range: lineRangeOf(0, '/data/z.jsonl'),
    });
    last.record(CONFIG, caseEnd('early', 2, 'errored', [result('early', 'x', 'error')]));
    assert.deepEqual(
      failingCases(last.ofConfig(CONFIG)).map((o) => o.caseId),
      ['early', 'late', 'other-file'],
    );
  });

  it('offers them in one sentence naming the first few, and says nothing when all passed', () => {
    const last = new LastResults();
    last.record(CONFIG, caseEnd('ok', 0, 'passed', [result('ok', 'x', 'pass')]));
    assert.equal(failureNotice(failingCases(last.ofConfig(CONFIG)), 1), undefined);
    last.record(CONFIG, caseEnd('sale-items', 3, 'failed', [result('sale-items', 'x', 'fail')]));
    assert.equal(failureNotice(failingCases(last.ofConfig(CONFIG)), 2), 'EvalLens: 1 of 2 cases failed (sale-items).');
    for (const [i, id] of ['b', 'c', 'd'].entries())
      last.record(CONFIG, caseEnd(id, 4 + i, i === 0 ? 'errored' : 'failed', [result(id, 'x', 'fail')]));
    assert.equal(
      failureNotice(failingCases(last.ofConfig(CONFIG)), 5),
      'EvalLens: 4 of 5 cases failed or errored (sale-items, b, c, +1).',
    );
  });

  it('writes a hostile case id printably', () => {
    const last = new LastResults();
    last.record(CONFIG, caseEnd('x\u001b[2J', 0, 'errored', [result('x\u001b[2J', 'x', 'error')]));
    assert.equal(failureNotice(failingCases(last.ofConfig(CONFIG)), 1), 'EvalLens: 1 case errored (x\\x1b[2J).');
  });
});
