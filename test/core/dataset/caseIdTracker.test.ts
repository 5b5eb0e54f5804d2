/**
 * The duplicate-id tracker holds a fixed size per id (a hash, a line, an arrival number), not the ids:
 * a large dataset whose cases are all filtered out no longer keeps every id string. Ids are kept whole
 * only for a recent window, where a hash match is confirmed against the real id.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CaseIdTracker, idHash } from '../../../core/dataset/caseIdTracker';

/** A hash that makes every two ids of the same length collide, to test what a collision does. */
const weakHash = (id: string): [number, number] => [0, id.length];

describe('CaseIdTracker', () => {
  it('finds duplicates and answers the line of the first holder, across table growth', () => {
    const ids = new CaseIdTracker(16);
    for (let i = 0; i < 5000; i++) assert.equal(ids.claim(`case-${i}`, i), undefined);
    assert.equal(ids.claim('case-4999', 6000), 4999, 'a recent id, confirmed by the id itself');
    assert.deepEqual(
      ids.claimWithProof('case-7', 6001),
      { line: 7, byHash: true },
      'an id past the window, found by its hash',
    );
    assert.equal(ids.has('case-123'), true);
    assert.equal(ids.has('case-5000'), false);
    assert.equal(ids.claimForError('case-1', 'line-9', 9), 'line-9');
    assert.equal(ids.claimForError(undefined, 'line-9', 10), 'line-9~2');
  });

  it('never calls two different ids with the same hash a duplicate while the earlier is kept whole', () => {
    const ids = new CaseIdTracker(3, weakHash);
    assert.equal(ids.claim('aaaa', 0), undefined);
    assert.equal(ids.claim('bbbb', 1), undefined, 'same hash, different id: free');
    assert.equal(ids.claim('cccc', 2), undefined);
    assert.equal(ids.claim('bbbb', 3), 1, 'the real duplicate is still found');
    // 'aaaa' leaves the window of 3 when 'dddd' comes: only its hash is left.
    assert.equal(ids.claim('dddd', 4), undefined);
    assert.deepEqual(
      ids.claimWithProof('eeee', 5),
      { line: 0, byHash: true },
      'outside the window a hash match is a duplicate by hash, and says so',
    );
  });

  it('confirms a kept id whole even when an earlier id with the same hash has left the window', () => {
    const ids = new CaseIdTracker(2, weakHash);
    assert.equal(ids.claim('aaaa', 0), undefined);
    assert.equal(ids.claim('bbbb', 1), undefined, 'same hash, kept whole: free');
    assert.equal(ids.claim('cccc', 2), undefined);
    // 'aaaa' has left the window and comes first in the probe order; 'bbbb' is still kept whole.
    assert.deepEqual(ids.claimWithProof('bbbb', 3), { line: 1, byHash: false });
    assert.deepEqual(ids.claimWithProof('dddd', 4), { line: 0, byHash: true });
    assert.equal(ids.has('cccc'), true);
  });

  it('holds a fixed number of bytes per id, however long the ids are', () => {
    const ids = new CaseIdTracker(100);
    const n = 50_000;
    const pad = 'x'.repeat(1000);
    for (let i = 0; i < n; i++) ids.claim(`${pad}-${i}`, i);
    // 16 bytes a slot, at most 4 slots per id right after a growth, plus the 100 recent ids whole.
    assert.ok(
      ids.storedBytes <= 64 * n + 100 * 2 * 1010,
      `stored ${ids.storedBytes} bytes for ${n} ids of 1000+ characters`,
    );
    assert.ok(ids.storedBytes < n * 1000, 'far less than the ids themselves');
  });

  it('hashes to 64 bits that differ for near ids', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 100_000; i++) seen.add(idHash(`case-${i}`).join(':'));
    assert.equal(seen.size, 100_000);
  });
});
