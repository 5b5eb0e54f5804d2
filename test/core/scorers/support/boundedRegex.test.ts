import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import vm from 'node:vm';
import {
  BoundedRegex,
  checkPatternSafety,
  fullMatchSource,
  guardFor,
  normalizeFlags,
  prepareBoundedRegex,
} from '../../../../core/scorers/support/boundedRegex';
import { createEngineContext } from '../../../../core/engineContext';

describe('checkPatternSafety', () => {
  it('proves a linear pattern safe with the automaton checker', () => {
    const safety = checkPatternSafety('^\\d+-[a-z]+$', '');
    assert.equal(safety.status, 'safe');
    assert.equal(safety.status === 'safe' && safety.proven, true);
  });

  it('finds exponential backtracking and quotes the part of the pattern at fault', () => {
    const safety = checkPatternSafety('^(a+)+$', '');
    assert.equal(safety.status, 'vulnerable');
    if (safety.status !== 'vulnerable') return;
    assert.equal(safety.complexity, 'exponential');
    assert.ok(safety.hotspots.length > 0);
    for (const h of safety.hotspots) assert.equal(h.text, '^(a+)+$'.slice(h.start, h.end));
    assert.match(safety.message, /exponential/);
    assert.match(safety.message, /"a" at character 3/);
  });

  it('finds polynomial backtracking and gives its degree', () => {
    const safety = checkPatternSafety('\\s*#\\s*$', '');
    assert.equal(safety.status, 'vulnerable');
    if (safety.status !== 'vulnerable') return;
    assert.equal(safety.complexity, 'polynomial');
    assert.equal(safety.degree, 2);
    assert.match(safety.message, /polynomial \(degree 2\)/);
    assert.match(safety.message, /"\\s" at characters 1-2/);
  });

  it('reports a pattern that does not compile with the u flag, saying why', () => {
    const safety = checkPatternSafety('(abc', '');
    assert.equal(safety.status, 'invalid');
    assert.match(safety.status === 'invalid' ? safety.message : '', /does not compile.*flags "u".*Unterminated group/);
    // \- is fine without u but an invalid escape with it: the u flag is always on.
    assert.equal(checkPatternSafety('a\\-b', '').status, 'invalid');
  });

  it('checks a full-match pattern as it runs, anchored, and maps hotspots back to the pattern as written', () => {
    assert.equal(checkPatternSafety('(a+)+', '').status, 'safe');
    const anchored = checkPatternSafety('(a+)+', '', { fullMatch: true });
    assert.equal(anchored.status, 'vulnerable');
    if (anchored.status !== 'vulnerable') return;
    for (const h of anchored.hotspots) {
      assert.ok(h.start >= 0 && h.end <= '(a+)+'.length);
      assert.equal(h.text, '(a+)+'.slice(h.start, h.end));
    }
  });

  it('answers unknown, instead of hanging, when recheck gives no answer in time', () => {
    // This pattern crashes recheck's native checker, which then never answers; checkSync would wait forever.
    const safety = checkPatternSafety('^(a|\\1a)+$', '', { checkTimeoutMs: 300 });
    assert.equal(safety.status, 'unknown');
    assert.equal(guardFor(safety), 'isolated');
    // The checker still works afterwards.
    assert.equal(checkPatternSafety('^after-unknown\\d$', '').status, 'safe');
  });

  it("marks recheck's own timeout as kept only if the machine was idle, never as a durable verdict", () => {
    // A pattern recheck cannot decide in 1 ms: the answer says how long it had, not what the pattern is.
    const kept: unknown[] = [];
    const verdicts = {
      get: () => undefined,
      set: (_key: string, _value: unknown, durable?: unknown) => kept.push(durable),
    };
    const safety = checkPatternSafety('^([a-z0-9]+([-.][a-z0-9]+)*)+@x$', '', { checkTimeoutMs: 1, verdicts });
    assert.equal(safety.status, 'unknown');
    assert.deepEqual(kept, ['if-idle']);
    kept.length = 0;
    checkPatternSafety('^decided-\\d$', '', { verdicts });
    assert.deepEqual(kept, [true]);
  });

  it("keeps verdicts in the host's cache, by pattern and flags", () => {
    const verdicts = createEngineContext().regexVerdicts;
    const first = checkPatternSafety('^cache-me\\d$', 'i', { verdicts });
    assert.equal(checkPatternSafety('^cache-me\\d$', 'i', { verdicts }), first);
    assert.notEqual(checkPatternSafety('^cache-me\\d$', 's', { verdicts }), first);
    assert.equal(verdicts.size, 2);
    // Without a cache nothing is kept: a second check is a fresh verdict.
    assert.notEqual(checkPatternSafety('^cache-me\\d$', 'i'), first);
  });
});

describe('flags and full-match form', () => {
  it('always adds u, keeps only imsu, sorted and without duplicates', () => {
    assert.equal(normalizeFlags(''), 'u');
    assert.equal(normalizeFlags('smi'), 'imsu');
    assert.equal(normalizeFlags('iig'), 'iu');
  });

  it('wraps as ^(?:p)$, and anchors the whole text with lookarounds under the m flag', () => {
    assert.equal(fullMatchSource('a|ab', '').source, '^(?:a|ab)$');
    const multiline = new RegExp(fullMatchSource('foo', 'm').source, 'mu');
    assert.equal(multiline.test('foo\nbar'), false);
    assert.equal(multiline.test('foo'), true);
  });
});

describe('guardFor', () => {
  it('runs proven-safe patterns directly, fuzz-safe and undecided ones isolated, and never runs vulnerable or invalid ones', () => {
    assert.equal(guardFor({ status: 'safe', proven: true, complexity: 'linear' }), 'direct');
    assert.equal(guardFor({ status: 'safe', proven: false, complexity: 'safe (fuzz)' }), 'isolated');
    assert.equal(guardFor({ status: 'unknown', message: 'timeout' }), 'isolated');
    assert.equal(guardFor({ status: 'vulnerable', complexity: 'exponential', hotspots: [], message: 'x' }), undefined);
    assert.equal(guardFor({ status: 'invalid', message: 'x' }), undefined);
  });

  it('prepareBoundedRegex refuses a vulnerable pattern with its message and builds a safe one', () => {
    const refused = prepareBoundedRegex('(x+x+)+y', '');
    assert.equal(refused.ok, false);
    assert.match(refused.ok ? '' : refused.message, /catastrophically/);
    const made = prepareBoundedRegex('^x+y', '');
    assert.equal(made.ok && made.regex.guard, 'direct');
  });
});

describe('BoundedRegex', () => {
  it('finds the first match directly, with its offset and length', () => {
    const r = new BoundedRegex(/\d+/u, 'direct').exec('ab 123 45', 100);
    assert.equal(r.status, 'matched');
    assert.deepEqual(r.status === 'matched' && [r.index, r.length], [3, 3]);
    assert.equal(new BoundedRegex(/\d+/u, 'direct').exec('abc', 100).status, 'not_matched');
  });

  it('answers the same in an isolated context', () => {
    const isolated = new BoundedRegex(/\d+/u, 'isolated');
    const r = isolated.exec('ab 123 45', 100);
    assert.equal(r.status, 'matched');
    assert.deepEqual(r.status === 'matched' && [r.index, r.length], [3, 3]);
    assert.equal(isolated.exec('abc', 100).status, 'not_matched');
  });

  it('interrupts a genuinely catastrophic pattern near the limit in an isolated context', () => {
    const catastrophic = new BoundedRegex(/^(a+)+$/u, 'isolated');
    // Without the interruption this match runs for days; returning at all is the proof.
    const r = catastrophic.exec(`${'a'.repeat(40)}!`, 100);
    assert.equal(r.status, 'timeout');
    assert.equal(r.interrupted, true);
    // The context survives the interruption.
    assert.equal(catastrophic.exec('aaa', 100).status, 'matched');
  });

  it('answers timeout (not interrupted) when a direct match finishes past the limit', () => {
    let now = 0;
    const clock = () => (now += 500);
    const r = new BoundedRegex(/b/u, 'direct', { clock }).exec('abc', 100);
    assert.equal(r.status, 'timeout');
    assert.equal(r.interrupted, false);
  });

  it('takes one slow match for the machine, not the pattern, when a second try is within the limit', () => {
    for (const guard of ['direct', 'isolated'] as const) {
      // The first match's clock reads 0 then 500 (a busy moment); the second try's 500 then 501.
      const readings = [0, 500, 500, 501];
      const clock = () => readings.shift() ?? 501;
      const r = new BoundedRegex(/b/u, guard, { clock }).exec('abc', 100);
      assert.equal(r.status, 'matched', guard);
      assert.equal(readings.length, 0, `${guard}: tried twice`);
    }
  });

  it('compiles an isolated pattern before its first timed match', () => {
    const compiled: string[] = [];
    const runInContext = vm.Script.prototype.runInContext;
    vm.Script.prototype.runInContext = function (this: vm.Script, ...args: Parameters<vm.Script['runInContext']>) {
      compiled.push('ran');
      return runInContext.apply(this, args);
    };
    let clockReads = 0;
    let ranBeforeClock = -1;
    try {
      const regex = new BoundedRegex(/a+b/u, 'isolated', {
        clock: () => {
          clockReads += 1;
          if (ranBeforeClock === -1) ranBeforeClock = compiled.length;
          return 0;
        },
      });
      assert.equal(regex.exec('aab', 100).status, 'matched');
    } finally {
      vm.Script.prototype.runInContext = runInContext;
    }
    assert.equal(clockReads, 2);
    // Making the pattern in its context, then two untimed runs; then the timed one.
    assert.equal(ranBeforeClock, 3);
    assert.equal(compiled.length, 4);
  });

  it('does not count making the isolated context as matching time (slow on a loaded machine)', () => {
    const events: string[] = [];
    const createContext = vm.createContext;
    vm.createContext = ((...args: Parameters<typeof vm.createContext>) => {
      events.push('context made');
      return createContext(...args);
    }) as typeof vm.createContext;
    try {
      const clock = () => {
        events.push('clock read');
        return 0;
      };
      assert.equal(new BoundedRegex(/a+b/u, 'isolated', { clock }).exec('aab', 100).status, 'matched');
    } finally {
      vm.createContext = createContext;
    }
    assert.deepEqual(events, ['context made', 'clock read', 'clock read']);
  });

  it('drops the g and y flags so no match state carries over between calls', () => {
    const r = new BoundedRegex(/b/gy, 'direct');
    assert.equal(r.flags.includes('g') || r.flags.includes('y'), false);
    assert.equal(r.exec('ab', 100).status, 'matched', 'without y the match is not pinned to lastIndex');
    assert.equal(new BoundedRegex(/b/g, 'direct').exec('ab', 100).status, 'matched');
    const again = new BoundedRegex(/b/g, 'isolated');
    assert.equal(again.exec('ab', 100).status, 'matched');
    assert.equal(again.exec('ab', 100).status, 'matched');
  });
});
