import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileGlob } from '../../../core/text/glob';
import { caseSelector } from '../../../core/dataset/caseSelection';

/** The regular-expression reading globs had before (an oracle for short ids only: it backtracks). */
function regExpOracle(glob: string): RegExp {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob.charAt(i);
    if (char === '*') source += '[^]*';
    else if (char === '?') source += '[^]';
    else if (char === '[') {
      let end = i + 1;
      if (glob.charAt(end) === '!') end += 1;
      if (glob.charAt(end) === ']') end += 1;
      while (end < glob.length && glob.charAt(end) !== ']') end += 1;
      if (end >= glob.length) {
        source += '\\[';
        continue;
      }
      let set = glob
        .slice(i + 1, end)
        .replaceAll('\\', '\\\\')
        .replace(/[[\]]/g, '\\$&');
      if (set.startsWith('!')) set = `^${set.slice(1)}`;
      else if (set.startsWith('^')) set = `\\${set}`;
      source += `[${set}]`;
      i = end;
    } else source += escape(char);
  }
  try {
    return new RegExp(`^${source}$`, 'u');
  } catch {
    return new RegExp(`^${escape(glob)}$`, 'u');
  }
}

/** A small deterministic generator, so a failure names a reproducible input. */
function generator(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
}

describe('globs', () => {
  it('matches a glob that backtracks catastrophically as a regular expression, with the right answer', () => {
    const long = 'a'.repeat(20_000);
    assert.equal(compileGlob('a*a*a*a*a*a*a*a*b').test(long), false);
    assert.equal(compileGlob('a*a*a*a*a*a*a*a*b').test(`${long}b`), true);
    assert.equal(compileGlob('*a*a*a*a*a*a*?*a*a*').test(long), true);
    assert.equal(caseSelector({ filter: '*a*a*a*a*a*a*a*a*a*a*b*' })(long), false);
  });

  it('reads fnmatch semantics: sets, negation, ranges, a lone [, code points, no case folding', () => {
    const cases: [string, string, boolean][] = [
      ['sql_*', 'sql_1', true],
      ['sql_?', 'sql_12', false],
      ['a[!b]c', 'acc', true],
      ['a[!b]c', 'abc', false],
      ['a[b-d]', 'ac', true],
      ['a[b-d-]', 'a-', true],
      ['[]]', ']', true],
      ['[!]]', ']', false],
      ['a[b', 'a[b', true],
      ['[^a]', '^', true],
      ['[z-a]*', '[z-a]*', true],
      ['[z-a]*', 'zebra', false],
      ['x.y', 'xzy', false],
      ['Case', 'case', false],
      ['?', '😀', true],
      ['??', '😀', false],
      ['*', '', true],
      ['a**b', 'ab', true],
      ['[\\]', '\\', true],
      ['?', '\n', true],
    ];
    for (const [glob, id, matches] of cases) assert.equal(compileGlob(glob).test(id), matches, `${glob} ~ ${id}`);
  });

  it('agrees with the regular-expression reading on 20,000 generated short globs and ids', () => {
    const next = generator(7);
    const globAlphabet = ['a', 'b', '*', '?', '[', ']', '!', '-', '^', '\\', '😀'];
    const idAlphabet = ['a', 'b', '-', ']', '!', '[', '😀'];
    for (let round = 0; round < 20_000; round++) {
      const glob = Array.from({ length: next(8) }, () => globAlphabet[next(globAlphabet.length)]).join('');
      const id = Array.from({ length: next(8) }, () => idAlphabet[next(idAlphabet.length)]).join('');
      assert.equal(
        compileGlob(glob).test(id),
        regExpOracle(glob).test(id),
        `${JSON.stringify(glob)} ~ ${JSON.stringify(id)}`,
      );
    }
  });
});
