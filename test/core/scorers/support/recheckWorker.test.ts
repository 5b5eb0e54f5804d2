import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import type { Parameters } from 'recheck';
import {
  checkPatternSafety,
  guardFor,
  preferPatternChecker,
  verdictKey,
} from '../../../../core/scorers/support/boundedRegex';
import {
  checkerIdentity,
  RECHECK_STEP_PARAMETERS,
  recheckParameters,
  RecheckWorker,
  type CheckerBackend,
} from '../../../../core/scorers/support/recheckWorker';

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
    assert.match(worker.checker().identity, /^recheck@\d+\.\d+\.\d+\/pure\/steps-[0-9a-f]{8}$/);
  });
});

describe("recheck's parameters: steps decide, the machine's load does not", () => {
  // Every parameter recheck documents whose name says it is a time (its TypeScript declarations).
  const declarations = readFileSync(require.resolve('recheck/index.d.ts'), 'utf8');
  const timeParameters = [...declarations.matchAll(/^\s*(\w*[tT]imeout)\?:/gm)].map((m) => m[1] ?? '');

  it('asks recheck with no wall-clock criterion but its overall time limit', () => {
    assert.ok(timeParameters.includes('attackTimeout') && timeParameters.includes('incubationTimeout'));
    const sent = recheckParameters(800) as Record<string, unknown>;
    for (const name of timeParameters) {
      if (name === 'timeout') assert.equal(sent[name], 800);
      // null: no time limit; a negative recallTimeout: recall validation (timed only) skipped.
      else if (name === 'recallTimeout') assert.ok(typeof sent[name] === 'number' && sent[name] < 0, name);
      else assert.equal(sent[name], null, `${name} is a wall-clock criterion: it must be off`);
    }
    assert.equal(sent['randomSeed'], 0);
    assert.equal(typeof sent['attackLimit'], 'number');
  });

  for (const backend of ['native', 'pure'] as const satisfies readonly CheckerBackend[]) {
    it(`hands these parameters to the ${backend} checker as they are, for every check`, (t) => {
      const asked: number[] = [];
      // The seam: what the worker sends. `checker: 'fuzz'` shows whether the checker really got them
      // (left to itself, recheck proves this pattern safe with its automaton checker).
      const worker = new RecheckWorker((timeoutMs): Parameters => {
        asked.push(timeoutMs);
        return { ...recheckParameters(timeoutMs), checker: 'fuzz' };
      });
      worker.prefer(backend);
      if (worker.checker().backend !== backend) {
        t.skip(`no ${backend} recheck here`);
        return;
      }
      try {
        const answer = worker.check('^\\d+-[a-z]+$', 'u', 5000);
        assert.equal(answer.status, 'safe');
        assert.equal(answer.status === 'safe' ? answer.checker : undefined, 'fuzz');
        assert.deepEqual(asked, [5000]);
      } finally {
        worker.reset();
      }
    });
  }

  it('names the step parameters in the key of kept verdicts, so verdicts reached otherwise are not reused', () => {
    const version = '4.5.0';
    const current = checkerIdentity(version, 'native');
    assert.match(current, /^recheck@4\.5\.0\/native\/steps-[0-9a-f]{8}$/);
    // Before this change the key named no parameters: those verdicts (some decided by the load) are not read.
    assert.notEqual(current, 'recheck@4.5.0/native');
    const changed = checkerIdentity(version, 'native', { ...RECHECK_STEP_PARAMETERS, attackLimit: 1_500_000_000 });
    assert.notEqual(changed, current);
    assert.notEqual(verdictKey(changed, 800, 'u', '^a$'), verdictKey(current, 800, 'u', '^a$'));
    assert.notEqual(checkerIdentity(version, 'pure'), current);
    const worker = new RecheckWorker();
    const installed = worker.checker();
    assert.ok(installed.identity.endsWith(`/${installed.backend}/${current.split('/')[2] ?? ''}`), installed.identity);
  });
});
