import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ScorerVerdict } from '../../../core/result';
import { secretScan } from '../../../core/scorers/builtin/secretScan';
import { SECRET_DETECTORS, scanForSecrets } from '../../../shared/text/secretDetectors';
import { schemaErrors, score } from '../../support/scoring';

// Fixtures are made-up tokens in the public formats, assembled from parts so this file holds no
// literal that another secret scanner would flag.
const t = (...parts: string[]) => parts.join('');
const FIXTURES = {
  aws_access_key_id: t('AK', 'IA', 'Z7QH3XK2M9PLR4TB'),
  github_token: t('gh', 'p_', 'R7tY2uI9oP4aS6dF1gH3jK8lZ5xC0vB2nM4q'),
  pem_private_key: t(
    '-----BEGIN RSA ',
    'PRIVATE KEY-----\n',
    'MIIEowIBAAKCAQEA7bq9Vx0k3Lw8Qz\n',
    'p2Yv1R5sT6uW9xA0cD3fG8hJ4kM7nQ==\n',
    '-----END RSA ',
    'PRIVATE KEY-----',
  ),
  slack_token: t('xo', 'xb-', '2048151234-4096789012-', 'AbCdEfGhIjKlMnOpQrStUvWx'),
  openai_api_key: t('sk', '-proj-', 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zQw7eRt0yUi3oPa6sDf9g'),
  anthropic_api_key: t(
    'sk',
    '-ant-',
    'api03-',
    'Zx9Cv8Bn7Mq6Wr5Et4Yu3Io2Pa1Sd0Fg9Hj8Kl7Zx6Cv5Bn4Mq3Wr2Et1Yu0IoPaSdFgHjKlZxCvBnMqWrEtYuIoPaSdFgHjKlZxCvB',
    'AA',
  ),
  google_api_key: t('AI', 'za', 'SyD4f7G1h3J5k8L0zX2c4V6b9N1m3Q5w7E9'),
  stripe_secret_key: t('sk', '_live_', '51HqT2kLm9Np3Qr5St7Uv9Wx'),
  jwt: t(
    'ey',
    'JhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9',
    '.',
    'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkFkYSJ9',
    '.',
    'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
  ),
} as const;

/** Neither the reason nor the details may hold any 8-character piece of the secret. */
function assertNoLeak(v: ScorerVerdict, secret: string): void {
  const shown = `${v.reason}\n${JSON.stringify(v.details ?? {})}`;
  for (let i = 0; i + 8 <= secret.length; i++) {
    const piece = secret.slice(i, i + 8);
    if (/\s/.test(piece)) continue;
    assert.doesNotMatch(shown, new RegExp(piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), `leaks "${piece}"`);
  }
}

function detectorsOf(v: ScorerVerdict): string[] {
  return ((v.details?.['findings'] ?? []) as { detector: string }[]).map((f) => f.detector);
}

describe('secret_scan', () => {
  for (const detector of SECRET_DETECTORS) {
    it(`finds a ${detector} and reports it without the value`, async () => {
      const secret = FIXTURES[detector];
      const v = await score(secretScan, {}, { output: `Here you go: ${secret} (keep it safe)` });
      assert.equal(v.status, 'fail');
      assert.equal(v.score, 0);
      assert.deepEqual(detectorsOf(v), [detector]);
      const finding = (v.details?.['findings'] as { offset: number; length: number }[])[0];
      assert.equal(finding?.offset, 13);
      assert.equal(finding?.length, secret.length);
      assert.match(
        v.reason,
        new RegExp(
          `1 possible secret in the output: ${detector} at line 1, column 14 \\(offset 13, length ${secret.length}\\)`,
        ),
      );
      assertNoLeak(v, secret);
    });
  }

  it('passes a clean output with score 1, saying how many detectors ran and that this proves nothing', async () => {
    const v = await score(secretScan, {}, { output: 'Your order ships on Monday. Tracking: 1Z999AA10123456784.' });
    assert.equal(v.status, 'pass');
    assert.equal(v.score, 1);
    assert.match(
      v.reason,
      /none of the 9 detectors that ran .* matched the output .*this does not prove the output holds no secret/,
    );
  });

  it('does not report an Anthropic key as an OpenAI key too', async () => {
    const v = await score(
      secretScan,
      { detectors: ['openai_api_key', 'anthropic_api_key'] },
      { output: FIXTURES.anthropic_api_key },
    );
    assert.deepEqual(detectorsOf(v), ['anthropic_api_key']);
    const openaiOnly = await score(
      secretScan,
      { detectors: ['openai_api_key'] },
      { output: FIXTURES.anthropic_api_key },
    );
    assert.equal(openaiOnly.status, 'pass');
  });

  it('finds legacy OpenAI keys, fine-grained GitHub tokens, restricted and test-mode Stripe keys', async () => {
    const cases: [string, string][] = [
      ['openai_api_key', t('sk', '-', 'T3BlbkFJa1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0u1V2')],
      [
        'github_token',
        t(
          'github',
          '_pat_',
          '11ABCDEFG0123456789abc',
          '_',
          'q1W2e3R4t5Y6u7I8o9P0a1S2d3F4g5H6j7K8l9Z0x1C2v3B4n5M6q7W8e9R0t1Y',
        ),
      ],
      ['stripe_secret_key', t('rk', '_live_', '51HqT2kLm9Np3Qr5St7Uv9Wx')],
      ['stripe_secret_key', t('sk', '_test_', '4eC39HqLyjWDarjtT1zdp7dc')],
      ['slack_token', t('xa', 'pp-', '1-A0123456789-1234567890123-abcdef0123456789')],
      ['aws_access_key_id', t('AS', 'IA', 'Q2W3E4R5T6Y7U8I9')],
    ];
    for (const [detector, secret] of cases) {
      const v = await score(secretScan, {}, { output: `token=${secret};` });
      assert.deepEqual(detectorsOf(v), [detector], `${detector} for a ${secret.length}-character token`);
      assertNoLeak(v, secret);
    }
  });

  it('lets near misses through', async () => {
    const nearMisses = [
      t('AK', 'IA', 'Z7QH3XK2M9PLR4T'), // 15 characters after the prefix
      t('xAK', 'IA', 'Z7QH3XK2M9PLR4TB'), // inside a longer word
      t('ak', 'ia', 'z7qh3xk2m9plr4tb'), // lower case
      t('gh', 'p_', 'R7tY2uI9oP4aS6dF1gH3jK8lZ5xC0vB2nM4'), // 35 characters
      '-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkq\n-----END PUBLIC KEY-----',
      '-----BEGIN CERTIFICATE-----',
      t('sk', '-this-is-not-a-real-key-at-all'), // no digit: a slug, not a key
      'a risk-assessment-framework-v2-2024-edition',
      t('AI', 'za', 'SyD4f7G1h3J5k8L0zX2c4V6b9N1m3Q5w7E'), // 34 characters
      t('pk', '_live_', '51HqT2kLm9Np3Qr5St7Uv9Wx'), // a publishable key is public
      t('sk', '_live_', '51HqT2kL'), // too short
      t('ey', 'JhbGciOiJub25lIn0', '.', 'eyJzdWIiOiIxIn0', '.'), // unsigned
      t('ey', 'JhbGciOiJIUzI1NiJ9', '.', 'eyJzdWIiOiIxIn0'), // two segments
      t('xo', 'xb-', '123'),
    ];
    for (const output of nearMisses) {
      const v = await score(secretScan, {}, { output });
      assert.equal(
        v.status,
        'pass',
        `near miss #${nearMisses.indexOf(output) + 1} should not fire: ${JSON.stringify(v.details?.['findings'])}`,
      );
    }
  });

  it('skips AWS documentation example keys by default and reports them when allow_documentation_examples is false', async () => {
    const output = 'aws_access_key_id = AKIAIOSFODNN7EXAMPLE';
    const v = await score(secretScan, {}, { output });
    assert.equal(v.status, 'pass');
    assert.equal(v.details?.['documentation_examples_skipped'], 1);
    const strict = await score(secretScan, { allow_documentation_examples: false }, { output });
    assert.equal(strict.status, 'fail');
    assert.deepEqual(detectorsOf(strict), ['aws_access_key_id']);
    assertNoLeak(strict, 'AKIAIOSFODNN7EXAMPLE');
  });

  it('gives 1-based line:column and a 0-based UTF-16 offset across \\n, \\r\\n and \\r line ends', async () => {
    const output = `first\r\nsecond\nthird\rkey: ${FIXTURES.aws_access_key_id}\n\u{1F600} ${FIXTURES.google_api_key}`;
    const v = await score(secretScan, {}, { output });
    const findings = v.details?.['findings'] as {
      detector: string;
      offset: number;
      line: number;
      column: number;
      length: number;
    }[];
    assert.deepEqual(findings, [
      { detector: 'aws_access_key_id', offset: 25, line: 4, column: 6, length: 20 },
      { detector: 'google_api_key', offset: 49, line: 5, column: 4, length: 39 },
    ]);
    assert.match(
      v.reason,
      /^2 possible secrets in the output: aws_access_key_id at line 4, column 6 \(offset 25, length 20\); google_api_key at line 5, column 4/,
    );
    assertNoLeak(v, FIXTURES.aws_access_key_id);
    assertNoLeak(v, FIXTURES.google_api_key);
  });

  it('covers a whole PEM block to its footer, and a lone header without one', () => {
    const pem = FIXTURES.pem_private_key;
    assert.deepEqual(
      scanForSecrets(`x\n${pem}\n`, ['pem_private_key'], { allowDocumentationExamples: true }).findings.map((f) => [
        f.offset,
        f.length,
      ]),
      [[2, pem.length]],
    );
    const header = t('-----BEGIN OPENSSH ', 'PRIVATE KEY-----');
    const two = `${header}\nabc\n${pem}`;
    assert.deepEqual(
      scanForSecrets(two, ['pem_private_key'], { allowDocumentationExamples: true }).findings.map((f) => [
        f.offset,
        f.length,
      ]),
      [
        [0, header.length],
        [header.length + 5, pem.length],
      ],
    );
  });

  it('runs only the chosen detectors', async () => {
    const v = await score(
      secretScan,
      { detectors: ['jwt'] },
      { output: `${FIXTURES.aws_access_key_id} ${FIXTURES.slack_token}` },
    );
    assert.equal(v.status, 'pass');
    assert.match(v.reason, /none of the 1 detector that ran \(jwt\)/);
  });

  it('scans the field picked with output_path', async () => {
    const v = await score(
      secretScan,
      { output_path: 'reply.text' },
      { output: { reply: { text: `use ${FIXTURES.stripe_secret_key}` } } },
    );
    assert.equal(v.status, 'fail');
    assertNoLeak(v, FIXTURES.stripe_secret_key);
  });

  it('converts nothing: a non-string output fails, naming the kind', async () => {
    const v = await score(secretScan, {}, { output: { key: FIXTURES.aws_access_key_id } });
    assert.equal(v.status, 'fail');
    assert.match(v.reason, /the output is an object, not a string; nothing is converted/);
    assert.match((await score(secretScan, {}, { output: 7 })).reason, /the output is a number, not a string/);
    assert.equal((await score(secretScan, {}, {})).status, 'fail');
  });

  it('scans 100,000 characters fast, adversarial runs included', () => {
    const inputs = [
      'lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(1800).slice(0, 100_000),
      'eyJ'.repeat(33_334).slice(0, 100_000),
      `eyJa.`.repeat(20_000),
      t('sk', '-').repeat(1).concat('a'.repeat(99_997)),
      t('sk', '-', 'a').repeat(33_334).slice(0, 100_000),
      'AKIA'.repeat(25_000),
      t('-----BEGIN ', 'A'.repeat(39)).repeat(2_000).slice(0, 100_000),
      t('-----BEGIN ', 'PRIVATE KEY-----').repeat(3_704).slice(0, 100_000),
      'xoxb-'.repeat(20_000),
      'a-'.repeat(50_000),
    ];
    for (const text of inputs) {
      // Completing at all is the check: a backtracking pattern would not finish on these inputs.
      const scan = scanForSecrets(text, SECRET_DETECTORS, { allowDocumentationExamples: true });
      assert.ok(Array.isArray(scan.findings));
    }
  });

  it('rejects in the schema: an unknown detector, an empty or repeated list, a non-boolean flag', () => {
    assert.notDeepEqual(schemaErrors(secretScan, { detectors: ['bookbag_token'] }), []);
    assert.notDeepEqual(schemaErrors(secretScan, { detectors: [] }), []);
    assert.notDeepEqual(schemaErrors(secretScan, { detectors: ['jwt', 'jwt'] }), []);
    assert.notDeepEqual(schemaErrors(secretScan, { allow_documentation_examples: 'yes' }), []);
    assert.deepEqual(schemaErrors(secretScan, { detectors: ['jwt', 'github_token'] }), []);
  });
});
