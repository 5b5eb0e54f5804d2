/**
 * The masking shortcut (shared/text/secretMask.ts): a text holding none of the literals the masking
 * rules need is returned after the known values are masked, without running the rules. These tests
 * check that the shortcut never skips a text any rule would change: every detector's matches hold one
 * of its anchors, and on thousands of generated texts built from the rules' own pieces the shortcut
 * and the full rules give the same text. Seeded, deterministic.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  detectorAnchors,
  SECRET_DETECTORS,
  scanForSecrets,
  type SecretDetectorName,
} from '../../../shared/text/secretDetectors';
import { CREDENTIAL_MASK, maskByRules, maskSecretText, mayMatchAMaskRule } from '../../../shared/text/secretMask';
import { seededRandom } from '../../support/seededRandom';

const next = seededRandom(2026);
const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)] as T;
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const run = (alphabet: string, n: number) => Array.from({ length: n }, () => pick([...alphabet])).join('');
// Tokens are assembled from parts, so this file holds no literal another secret scanner would flag.
const t = (...parts: string[]) => parts.join('');

/** Random tokens of each detector's public shape (every prefix its pattern accepts). */
const TOKENS: { readonly [name in SecretDetectorName]: () => string } = {
  aws_access_key_id: () =>
    `${pick(['AK' + 'IA', 'AS' + 'IA', 'AB' + 'IA', 'AC' + 'CA', `A3T${pick([...UPPER_DIGITS])}`])}${run(UPPER_DIGITS, 16)}`,
  github_token: () =>
    next() < 0.7 ? `gh${pick([...'pousr'])}_${run(ALNUM, int(36, 50))}` : t('github', '_pat_', run(`${ALNUM}_`, 82)),
  pem_private_key: () =>
    t('-----BEGIN ', pick(['', 'RSA ', 'EC ', 'OPENSSH ', 'ENCRYPTED ']), 'PRIVATE KEY-----\nAbC\n') +
    (next() < 0.5 ? t('-----END ', 'PRIVATE KEY-----') : ''),
  slack_token: () =>
    `${pick(['xoxa', 'xoxb', 'xoxp', 'xoxo', 'xoxs', 'xoxr', 'xapp'])}-${run(`${ALNUM}-`, int(10, 40))}7`,
  openai_api_key: () => t('sk', '-', pick(['', 'proj-', 'svcacct-', 'admin-']), run(ALNUM, int(20, 50)), '4'),
  anthropic_api_key: () => t('sk', '-ant-', 'api03-', run(`${ALNUM}_-`, int(20, 90))),
  google_api_key: () => t('AI', 'za', run(`${ALNUM}_-`, 35)),
  stripe_secret_key: () => t(pick(['s', 'r']), 'k_', pick(['live', 'test']), '_', run(ALNUM, int(10, 30))),
  jwt: () => t('ey', 'J', run(ALNUM, int(5, 30)), '.', 'ey', 'J', run(ALNUM, int(5, 30)), '.', run(ALNUM, int(5, 40))),
};

describe('the masking shortcut skips no text a rule would change', () => {
  for (const detector of SECRET_DETECTORS) {
    it(`every ${detector} found holds one of its anchors, and its text is never skipped`, () => {
      const anchors = detectorAnchors(detector);
      assert.ok(anchors.length > 0);
      for (let n = 0; n < 300; n++) {
        const token = TOKENS[detector]();
        const text = `${pick(['', 'key ', 'here: ', '"'])}${token}${pick(['', ' ok', '"', '\n'])}`;
        const { findings } = scanForSecrets(text, [detector], { allowDocumentationExamples: false });
        assert.ok(findings.length > 0, `${detector} should find ${JSON.stringify(text)}`);
        for (const f of findings) {
          const span = text.slice(f.offset, f.offset + f.length);
          assert.ok(
            anchors.some((a) => span.includes(a)),
            `${detector} found ${JSON.stringify(span)}, which holds none of ${anchors.join(', ')}`,
          );
        }
        assert.equal(mayMatchAMaskRule(text), true, `the shortcut would skip ${JSON.stringify(text)}`);
        assert.ok(!maskSecretText(text).includes(token.slice(0, 24)), `${detector} not masked in ${text}`);
      }
    });
  }

  it('the URL and key=value rules: never skipped, still masked', () => {
    const cases = [
      ['postgres://admin:hunter2hunter2@db:5432/x', 'hunter2hunter2'],
      ['https://tok3nvalue@example.com/', 'tok3nvalue'],
      ['see https://example.com/a?api_key=abc123def&x=1', 'abc123def'],
      ['host=db password=s3cretvalue user=me', 's3cretvalue'],
      ["token = 'quotedsecret'", 'quotedsecret'],
    ] as const;
    for (const [text, secret] of cases) {
      assert.equal(mayMatchAMaskRule(text), true, text);
      const masked = maskSecretText(text);
      assert.ok(!masked.includes(secret), `${secret} shown in ${masked}`);
      assert.ok(masked.includes(CREDENTIAL_MASK), masked);
    }
  });

  it('on 20,000 texts made of the rules’ pieces, the shortcut and the full rules agree', () => {
    // Pieces of every anchor and token, the URL and key=value syntax, and ordinary words: texts that
    // come close to a rule without quite matching are where a wrong shortcut would show.
    const pieces = [
      ...SECRET_DETECTORS.flatMap((d) => [...detectorAnchors(d), TOKENS[d]()]),
      ...SECRET_DETECTORS.flatMap((d) => detectorAnchors(d).map((a) => a.slice(0, -1))),
      '=',
      ' = ',
      ':',
      '/',
      '//',
      ':/',
      '@',
      '?',
      '&',
      '#',
      'https',
      'password',
      'token',
      'api_key',
      'secret',
      'user',
      '-----',
      '-',
      '_',
      '.',
      ' ',
      '\n',
      '"',
      "'",
      'e',
      'y',
      'J',
      'A',
      'k',
      'x',
      'o',
      'gh',
      'the answer is 42',
      run(ALNUM, 12),
    ];
    let skipped = 0;
    let masked = 0;
    for (let n = 0; n < 20_000; n++) {
      const text = Array.from({ length: int(1, 12) }, () => pick(pieces)).join(pick(['', '', ' ']));
      const full = maskByRules(text);
      if (full !== text) masked++;
      if (!mayMatchAMaskRule(text)) {
        skipped++;
        assert.equal(full, text, `the shortcut skips ${JSON.stringify(text)}, which the rules change`);
      }
      assert.equal(maskSecretText(text), full, JSON.stringify(text));
    }
    // Both kinds occur, so the comparison means something.
    assert.ok(skipped > 1000, `only ${skipped} texts skipped`);
    assert.ok(masked > 1000, `only ${masked} texts masked`);
  });

  it('an ordinary reason or JSON output is skipped, and returned as it is', () => {
    for (const text of [
      'the output differs from the expected text at character 12 (output 130 characters, expected 129)',
      '{"answer":"Open Settings, choose Security, then Reset password. We email a link.","confidence":0.98}',
    ]) {
      assert.equal(mayMatchAMaskRule(text), false, text);
      assert.equal(maskSecretText(text), text);
    }
  });
});
