/**
 * tooDeepJson counts opening brackets first and walks the text only when there are more than the
 * limit: these texts sit on each side of that count and of the depth limit.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_JSON_DEPTH, tooDeepJson } from '../../../core/text/jsonDepth';
import { seededRandom } from '../../support/seededRandom';

describe('tooDeepJson', () => {
  it('refuses one level past the limit at the bracket that went too deep, whichever brackets nest', () => {
    const deep = (n: number, open: string, close: string) => `${open.repeat(n)}${close.repeat(n)}`;
    assert.equal(tooDeepJson(deep(MAX_JSON_DEPTH, '[', ']')), undefined);
    assert.equal(tooDeepJson(deep(MAX_JSON_DEPTH + 1, '[', ']')), MAX_JSON_DEPTH);
    const mixed = `${'{"a":['.repeat(200)}${']}'.repeat(200)}`;
    // The 257th opening bracket is the 129th `{`, each `{"a":[` six characters on.
    assert.equal(tooDeepJson(mixed), 128 * 6);
    assert.equal(tooDeepJson('[[1]]', 1), 1);
    assert.equal(tooDeepJson('[1]', 1), undefined);
  });

  it('many shallow brackets, and brackets inside strings, are not depth', () => {
    assert.equal(tooDeepJson(`[${Array.from({ length: 5000 }, () => '{"x":[1]}').join(',')}]`), undefined);
    assert.equal(tooDeepJson(JSON.stringify({ text: '['.repeat(10_000) })), undefined);
    assert.equal(tooDeepJson(`["\\"${'['.repeat(300)}"]`), undefined);
  });

  it('agrees with a plain walk on generated texts', () => {
    const walk = (text: string, limit: number): number | undefined => {
      let depth = 0;
      let inString = false;
      for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (inString) {
          if (c === '\\') i++;
          else if (c === '"') inString = false;
        } else if (c === '"') inString = true;
        else if (c === '[' || c === '{') {
          if (++depth > limit) return i;
        } else if ((c === ']' || c === '}') && depth > 0) depth--;
      }
      return undefined;
    };
    const next = seededRandom(256);
    const pieces = ['[', ']', '{', '}', '"', '\\', 'a', ',', ':'];
    for (let n = 0; n < 3000; n++) {
      const limit = 1 + Math.floor(next() * 8);
      const text = Array.from(
        { length: Math.floor(next() * 40) },
        () => pieces[Math.floor(next() * pieces.length)],
      ).join('');
      assert.equal(tooDeepJson(text, limit), walk(text, limit), `${JSON.stringify(text)} at limit ${limit}`);
    }
  });
});
