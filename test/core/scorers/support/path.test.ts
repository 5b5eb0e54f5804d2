import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFieldPath, valueAt } from '../../../../core/scorers/support/path';

describe('field paths', () => {
  it('reads dotted keys and bracketed indexes', () => {
    assert.deepEqual(parseFieldPath('answer.items[0].name'), { ok: true, segments: ['answer', 'items', 0, 'name'] });
    assert.deepEqual(parseFieldPath('a.0.b'), { ok: true, segments: ['a', 0, 'b'] });
  });

  for (const bad of ['', '.a', 'a.', 'a..b', 'a.[0]', 'a[x]', 'a[0']) {
    it(`refuses the malformed path ${JSON.stringify(bad)}`, () => {
      assert.equal(parseFieldPath(bad).ok, false);
    });
  }

  it('finds values, and undefined for anything missing', () => {
    const root = { a: { items: [{ name: 'n' }] } };
    assert.equal(valueAt(root, ['a', 'items', 0, 'name']), 'n');
    assert.equal(valueAt(root, ['a', 'items', 1, 'name']), undefined);
    assert.equal(valueAt(root, ['a', 'missing']), undefined);
    assert.equal(valueAt(root, ['a', 'items', 'name']), undefined);
    assert.equal(valueAt({ n: null }, ['n']), null);
  });
});
