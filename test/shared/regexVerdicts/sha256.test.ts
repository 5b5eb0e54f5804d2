import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { sha256Hex } from '../../../shared/regexVerdicts/sha256';
import { seededRandom } from '../../support/seededRandom';

const nodeSha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('sha256Hex', () => {
  it('gives the published digests of FIPS 180-4 examples', () => {
    assert.equal(sha256Hex(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(
      sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'),
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('gives node:crypto digest for every length across the padding boundaries (0-200 bytes)', () => {
    for (let length = 0; length <= 200; length++) {
      const text = 'x'.repeat(length);
      assert.equal(sha256Hex(text), nodeSha256(text), `length ${length}`);
    }
  });

  it("hashes a string's UTF-8 bytes as node:crypto does: accents, CJK, emoji and lone surrogates", () => {
    const alphabet = ['a', 'é', '中', '😀', '\ud800', '\udfff', '\t', '\n', '"', '\\', '\u0000'];
    const next = seededRandom(18);
    for (let round = 0; round < 500; round++) {
      let text = '';
      const length = Math.floor(next() * 90);
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(next() * alphabet.length)];
      assert.equal(sha256Hex(text), nodeSha256(text), JSON.stringify(text));
    }
  });

  it('hashes a long text (many blocks) as node:crypto does', () => {
    const text = JSON.stringify(['recheck@4.5.0/native', 800, 'u', '^(?:[a-z0-9-]+\\.)+[a-z]{2,}$'.repeat(5000)]);
    assert.equal(sha256Hex(text), nodeSha256(text));
  });
});
