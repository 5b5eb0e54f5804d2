/**
 * What a result carries: every string in `details` (and the reason) is masked and then cut to a
 * prefix with a marker giving the whole length; lists and objects keep their first items.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRunConfig } from '../../../core/config/parseRunConfig';
import { rememberSecret } from '../../../shared/text/secretMask';
import {
  capDetails,
  capText,
  cutMarker,
  MAX_DETAIL_ITEMS,
  MAX_DETAIL_TEXT_CHARS,
  OMITTED_KEYS_KEY,
} from '../../../core/runner/detailsCap';
import { scoreCase } from '../../../core/runner/scoreCase';
import { prepareScorers } from '../../../core/runner/prepareScorers';

/** An AWS access key id secret_scan recognises (not a real key). */
const AWS_KEY = 'AKIAZ3MPLE7Q2RSTUVWX';

async function scoreWith(scorers: string, output: string, expected: string) {
  const parsed = parseRunConfig(`scorers:\n${scorers}\ncases: []\n`, '/virtual/details.eval.yaml', {});
  assert.deepEqual(parsed.problems, []);
  assert.ok(parsed.config);
  return scoreCase({ id: 'big', output, expected }, prepareScorers(parsed.config.scorers), 1, { now: () => 0 });
}

describe('the details a result carries', () => {
  it('keep a prefix of a 20 MB output and its length, not the whole text (exact_match copies both texts)', async () => {
    const output = 'x'.repeat(20 * 1024 * 1024);
    const [exact] = await scoreWith('  exact_match: {}', output, 'y');
    assert.equal(exact?.status, 'fail');
    const actual = exact?.details?.['actual'];
    assert.equal(typeof actual, 'string');
    assert.equal(actual, `${'x'.repeat(MAX_DETAIL_TEXT_CHARS)}${cutMarker(output.length)}`);
    assert.match(String(actual), /…\[cut: 20971520 characters in all, the first 65536 kept\]$/);
    assert.equal(exact?.details?.['expected'], 'y', 'a short text is kept whole');
    assert.ok(JSON.stringify(exact).length < 2 * MAX_DETAIL_TEXT_CHARS, 'the whole result stays small');
  });

  it('masks a key that lies across the cut before cutting', async () => {
    const output = `${'a'.repeat(MAX_DETAIL_TEXT_CHARS - 11)} ${AWS_KEY} ${'b'.repeat(MAX_DETAIL_TEXT_CHARS)}`;
    const [exact] = await scoreWith('  exact_match: {}', output, 'y');
    const actual = String(exact?.details?.['actual']);
    assert.ok(actual.endsWith(cutMarker(output.length)));
    assert.ok(!actual.includes('AKIAZ3MP'), 'not even the first half of the key is kept');
  });

  it('masks a short text again once the process remembers a new secret value (short texts are masked once and reused)', () => {
    const text = 'cap-test Zq81vLm0 here';
    assert.equal(capText(text), text);
    assert.equal(capText(text), text);
    rememberSecret('Zq81vLm0');
    assert.equal(capText(text), 'cap-test <credential> here');
    assert.deepEqual(capDetails({ note: text }), { note: 'cap-test <credential> here' });
  });

  it('keeps the first items of a long list and the first keys of a large object, saying how many were left out', () => {
    const list = Array.from({ length: MAX_DETAIL_ITEMS + 5 }, (_, i) => i);
    const object = Object.fromEntries(Array.from({ length: MAX_DETAIL_ITEMS + 2 }, (_, i) => [`k${i}`, i]));
    const capped = capDetails({ list, object, short: 'ok', nested: [{ text: 'z'.repeat(MAX_DETAIL_TEXT_CHARS + 1) }] });
    const keptList = capped['list'] as unknown[];
    assert.equal(keptList.length, MAX_DETAIL_ITEMS + 1);
    assert.equal(keptList[MAX_DETAIL_ITEMS], `…[5 more items left out, ${MAX_DETAIL_ITEMS + 5} in all]`);
    const keptObject = capped['object'] as { [key: string]: unknown };
    assert.equal(Object.keys(keptObject).length, MAX_DETAIL_ITEMS + 1);
    assert.equal(keptObject[OMITTED_KEYS_KEY], `…[2 more keys left out, ${MAX_DETAIL_ITEMS + 2} in all]`);
    assert.equal(capped['short'], 'ok');
    assert.deepEqual(capped['nested'], [
      { text: `${'z'.repeat(MAX_DETAIL_TEXT_CHARS)}${cutMarker(MAX_DETAIL_TEXT_CHARS + 1)}` },
    ]);
  });
});
