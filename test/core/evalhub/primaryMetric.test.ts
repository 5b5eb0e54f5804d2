import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withPrimaryMetric } from '../../../core/evalhub/primaryMetric';
import { pass } from '../../../core/result';
import { answerVerdict } from '../../../core/scorers/builtin/subprocessAnswer';

describe('a scorer result with a metrics map and a primary metric', () => {
  const verdict = { ...pass('ok', 1), metrics: { acc: 0.81, acc_norm: 0.78, label: 'good', rate: '0.5' } };

  it("the entry's primary metric becomes the score, undecided until the threshold rule (measured)", () => {
    const picked = withPrimaryMetric(verdict, 'acc_norm');
    assert.equal(picked.status, 'measured');
    assert.equal(picked.score, 0.78);
    assert.deepEqual(picked.metrics, verdict.metrics);
    assert.match(picked.reason, /primary metric acc_norm = 0\.78/);
  });

  it("the scorer's own primary metric applies when the entry names none; the entry's wins", () => {
    const named = { ...verdict, primaryMetric: 'acc' };
    assert.equal(withPrimaryMetric(named, undefined).score, 0.81);
    assert.equal(withPrimaryMetric(named, 'acc_norm').score, 0.78);
    assert.equal('primaryMetric' in withPrimaryMetric(named, undefined), false);
  });

  it('a numeric string, a label or a missing metric: no score and no test, and the reason says so', () => {
    for (const [metric, seen] of [
      ['rate', /numeric-looking string/],
      ['label', /is a string/],
      ['f1', /not reported/],
    ] as const) {
      const picked = withPrimaryMetric(verdict, metric);
      assert.equal(picked.status, 'inconclusive');
      assert.equal(picked.score, undefined);
      assert.match(picked.reason, /^no test: the primary metric/);
      assert.match(picked.reason, seen);
      assert.match(picked.reason, /left out of the job score/);
    }
  });

  it('an entry primary metric on a scorer that reported no metrics: the metric is missing', () => {
    const picked = withPrimaryMetric(pass('ok', 1), 'acc');
    assert.equal(picked.status, 'inconclusive');
    assert.match(picked.reason, /"acc" is not reported/);
  });

  it('no primary metric anywhere: the verdict is as the scorer gave it', () => {
    assert.deepEqual(withPrimaryMetric(verdict, undefined), verdict);
  });
});

describe('the subprocess protocol: metrics beside score', () => {
  it('keeps metrics and primary_metric beside a score', () => {
    const v = answerVerdict({ score: 0.9, metrics: { acc: 0.81 }, primary_metric: 'acc' }, 'the command', undefined);
    assert.equal(v.status, 'pass');
    assert.deepEqual(v.metrics, { acc: 0.81 });
    assert.equal(v.primaryMetric, 'acc');
  });

  it('metrics without a score wait for the primary metric (no "no score" error)', () => {
    const v = answerVerdict({ metrics: { acc: 0.81 } }, 'the command', undefined);
    assert.equal(v.status, 'inconclusive');
    assert.deepEqual(v.metrics, { acc: 0.81 });
    assert.equal(withPrimaryMetric(v, 'acc').score, 0.81);
  });

  it('metrics that are not a map: a scorer error saying what it was', () => {
    for (const [metrics, seen] of [
      [[0.8], 'a list'],
      ['acc=0.8', 'a string'],
      [null, 'null'],
    ] as const) {
      const v = answerVerdict({ score: 1, metrics }, 'the command', undefined);
      assert.equal(v.status, 'fail');
      assert.match(v.reason, new RegExp(`^scorer error: the command's "metrics" must be a map .* it is ${seen}`));
    }
  });
});
