/**
 * Property test of masking before every cut (issue 13, item 4), in process: thousands of generated
 * texts, each with a secret (a key of a known shape, or a value the process remembered) at a random
 * place around a cut, through every cutting helper — maskThenCut (a reason's head), maskThenCutTail
 * (a stream's tail), StreamTail (bytes kept from a long stderr, fed in random chunks) and maskJson.
 * No 8 characters of a secret's random part may survive (the rule test/cli/secretChannels.test.ts
 * states). Seeded, deterministic.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StreamTail } from '../../../core/scorers/support/processText';
import { maskJson, maskThenCut, maskThenCutTail, rememberSecret } from '../../../shared/text/secretMask';
import { seededRandom as prng } from '../../support/seededRandom';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const next = prng(1313);
const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
const chars = (alphabet: string, n: number) =>
  Array.from({ length: n }, () => alphabet[int(0, alphabet.length - 1)])
    .join('')
    .replace(/.$/, String(int(0, 9)));

/** A secret: its whole text and its random part. */
function secret(): { text: string; random: string } {
  const shapes: (() => [string, string])[] = [
    () => ['sk-', chars(ALNUM, int(20, 50))],
    () => ['sk-ant-api03-', chars(ALNUM, int(20, 50))],
    () => ['AKIA', chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)],
    () => ['ghp_', chars(ALNUM, 36)],
    () => ['AIza', chars(ALNUM, 35)],
    () => ['xoxb-', chars(ALNUM, int(12, 40))],
    () => ['sk_live_', chars(ALNUM, int(12, 30))],
    () => {
      // A value read from the environment: no shape, only the remembered list knows it.
      const random = chars(ALNUM, int(8, 40));
      rememberSecret(random);
      return ['', random];
    },
  ];
  const [prefix, random] = (shapes[int(0, shapes.length - 1)] as () => [string, string])();
  return { text: `${prefix}${random}`, random };
}

function survives(text: string, random: string): string | undefined {
  for (let i = 0; i + 8 <= random.length; i++) if (text.includes(random.slice(i, i + 8))) return random.slice(i, i + 8);
  return undefined;
}

/** Words, the secret, words: the secret starting `into` characters before `cut` (so a cut may fall anywhere in it). */
function around(s: string, cut: number): string {
  const into = int(0, s.length);
  const before = Math.max(0, cut - into);
  const filler = (n: number) =>
    Array.from({ length: n }, () => (int(0, 5) === 0 ? ' ' : 'w'))
      .join('')
      .padEnd(n, 'w');
  return `${filler(Math.max(0, before - 1))} ${s} ${filler(int(0, 300))}`;
}

describe('masking comes before every cut', () => {
  it('2,000 generated texts through maskThenCut, maskThenCutTail, maskJson and StreamTail', () => {
    for (let n = 0; n < 2000; n++) {
      const s = secret();
      const cut = [100, 200, 300, 500][n % 4] as number;
      const text = around(s.text, cut);
      const head = maskThenCut(text, cut);
      assert.equal(survives(head, s.random), undefined, `maskThenCut(${cut}) kept part of ${s.text}: ${head}`);
      // The tail cut: the secret placed `cut` characters from the end, give or take its length.
      const tailText = `${'v '.repeat(int(0, 200))}${s.text}${' t'.repeat(Math.floor(int(Math.max(0, cut - s.text.length), cut + 5) / 2))}`;
      const tail = maskThenCutTail(tailText, cut);
      assert.equal(survives(tail, s.random), undefined, `maskThenCutTail(${cut}) kept part of ${s.text}: ${tail}`);
      const json = JSON.stringify(maskJson({ reason: text, nested: [text], [s.text]: 1 }));
      assert.equal(survives(json, s.random), undefined, `maskJson kept part of ${s.text}: ${json}`);
      // A stderr tail fed in random chunks, its kept bytes starting anywhere in the secret.
      const cap = int(40, 200);
      const stream = new StreamTail(cap);
      const whole = `${'q '.repeat(int(0, 50))}${s.text} ${'p'.repeat(int(Math.max(0, cap - s.text.length - 5), cap + 5))}`;
      for (let at = 0; at < whole.length;) {
        const size = int(1, 64);
        stream.push(Buffer.from(whole.slice(at, at + size)));
        at += size;
      }
      const kept = maskThenCutTail(stream.text(), cap);
      assert.equal(survives(kept, s.random), undefined, `StreamTail(${cap}) kept part of ${s.text}: ${kept}`);
    }
  });
});
