import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { checkPatternSafety, guardFor, preferPatternChecker } from '../../../../core/scorers/support/boundedRegex';
import { RecheckWorker } from '../../../../core/scorers/support/recheckWorker';

describe("recheck's two checkers", () => {
  after(() => preferPatternChecker(undefined));

  it('answers a pattern that crashes the native checker as unknown, in our words, and keeps working', (t) => {
    const worker = new RecheckWorker();
    if (worker.checker().backend !== 'native') {
      t.skip('no native recheck binary here');
      return;
    }
    try {
      const answer = worker.check('^(a|\\1a)+$', 'u', 800);
      assert.equal(answer.status, 'failed');
      assert.match(answer.status === 'failed' ? answer.message : '', /crashed|no answer/);
      assert.equal(worker.check('^after-crash\\d$', 'u', 800).status, 'safe');
    } finally {
      worker.reset();
    }
  });

  it('gives the same verdicts with the JavaScript checker, which it names in the key of kept verdicts', () => {
    preferPatternChecker('pure');
    assert.equal(checkPatternSafety('^\\d+-[a-z]+$', '').status, 'safe');
    const vulnerable = checkPatternSafety('^(a+)+$', '');
    assert.equal(vulnerable.status, 'vulnerable');
    assert.match(vulnerable.status === 'vulnerable' ? vulnerable.message : '', /exponential/);
    // The JavaScript checker overflows its stack on this one: undecided, so it would run isolated.
    const backreference = checkPatternSafety('^(a|\\1a)+$', '');
    assert.equal(guardFor(backreference), 'isolated');
    const worker = new RecheckWorker();
    worker.prefer('pure');
    assert.match(worker.checker().identity, /^recheck@\d+\.\d+\.\d+\/pure$/);
  });
});
