import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withoutCharLookarounds } from '../../../../core/scorers/support/charLookarounds';
import { checkPatternSafety } from '../../../../core/scorers/support/boundedRegex';
import { translatePythonPattern } from '../../../../core/scorers/builtin/sql/pythonRegex';

function translated(python: string): { source: string; flags: string } {
  const t = translatePythonPattern(python);
  assert.ok(t.ok, `${python} translates`);
  return t.ok ? { source: t.source, flags: t.flags } : { source: '', flags: '' };
}

describe('withoutCharLookarounds', () => {
  it('sets aside the four lookarounds of a translated Python \\b and keeps the rest', () => {
    const { source } = translated('(?i)\\bselect\\s+\\*');
    const reduced = withoutCharLookarounds(source);
    assert.doesNotMatch(reduced, /\(\?<?[=!]/);
    assert.ok(reduced.startsWith('(?:|)select'), reduced);
    // What is left still compiles with the u flag.
    assert.doesNotThrow(() => new RegExp(reduced, 'iu'));
  });

  it('sets aside lookarounds of one class, escape, dot or literal, astral ones included', () => {
    assert.equal(withoutCharLookarounds('(?<=[a-z])x(?!\\d)y(?=.)(?<!\\p{L})z(?=😀)'), 'xyz');
    assert.equal(withoutCharLookarounds('(?:(?=a)b)+'), '(?:b)+');
    assert.equal(withoutCharLookarounds('(?=\\u{1F600})a'), 'a');
  });

  it('keeps lookarounds that read more than one character, a backreference or an assertion', () => {
    for (const source of [
      '(?=ab)c',
      '(a)(?=\\1)b',
      '(?<n>a)(?!\\k<n>)',
      '(?=\\b)a',
      '(?=[ab]+)a',
      '(?=(a))a',
      '(?=a|b)c',
    ]) {
      assert.equal(withoutCharLookarounds(source), source, source);
    }
  });

  it('is not fooled by parentheses in a class or escaped', () => {
    for (const source of ['[(?=a)]b', '\\(?=a\\)', '[\\](?=a)]', '(?<name>a)']) {
      assert.equal(withoutCharLookarounds(source), source, source);
    }
  });
});

describe('checkPatternSafety with one-character lookarounds', () => {
  it('decides a translated \\b pattern with the automaton checker instead of fuzzing it, and still runs it isolated', () => {
    const { source, flags } = translated('(?i)\\bselect\\s+\\*');
    const safety = checkPatternSafety(source, flags);
    assert.equal(safety.status, 'safe');
    if (safety.status !== 'safe') return;
    assert.equal(safety.proven, false);
    assert.match(safety.complexity, /one-character lookarounds set aside/);
  });

  it('still finds a word-bounded pattern that can backtrack catastrophically', () => {
    const { source, flags } = translated('\\b(a+)+\\b$');
    const safety = checkPatternSafety(source, flags);
    assert.equal(safety.status, 'vulnerable', JSON.stringify(safety));
  });
});
